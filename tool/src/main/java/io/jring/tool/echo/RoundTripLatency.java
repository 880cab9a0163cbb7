package io.jring.tool.echo;

import io.jring.tool.report.JsonLine;
import io.jring.tool.report.Latency;
import org.HdrHistogram.Histogram;

/** Percentiles of the echo round trips of a run, in nanoseconds. */
public record RoundTripLatency(long p50, long p90, long p99, long p999, long max, long count) {

    public static RoundTripLatency of(Histogram h) {
        return new RoundTripLatency(h.getValueAtPercentile(50.0), h.getValueAtPercentile(90.0),
                h.getValueAtPercentile(99.0), h.getValueAtPercentile(99.9), h.getMaxValue(), h.getTotalCount());
    }

    /** The {@code "lat_ns"} object of the JSON line (BENCHMARKS.md: p50, p99, p999, plus p90 and max). */
    public JsonLine toJson() {
        return JsonLine.object().put("p50", p50).put("p90", p90).put("p99", p99).put("p999", p999).put("max", max);
    }

    /** The table cells: p50, p90, p99, p99.9, max. */
    String[] cells() {
        return new String[] {Latency.time(p50), Latency.time(p90), Latency.time(p99), Latency.time(p999), Latency.time(max)};
    }
}
