package io.jring.tool.report;

import org.HdrHistogram.Histogram;

/**
 * Latency percentiles of a run, from an HdrHistogram in nanoseconds: the {@code "lat_ns"}
 * object of the JSON results and the human "lat" line.
 */
public record Latency(long p50, long p99, long p999, long max, long count) {

    /** Highest trackable value: one minute, 3 significant digits (about 1 MB of counts). */
    public static Histogram newHistogram() {
        return new Histogram(60_000_000_000L, 3);
    }

    public static Latency of(Histogram h) {
        return new Latency(h.getValueAtPercentile(50.0), h.getValueAtPercentile(99.0),
                h.getValueAtPercentile(99.9), h.getMaxValue(), h.getTotalCount());
    }

    public JsonLine toJson() {
        return JsonLine.object().put("p50", p50).put("p99", p99).put("p999", p999);
    }

    /** "p50 1.02us  p99 2.30us  p99.9 12.8us" */
    public String toHuman() {
        return "p50 " + time(p50) + "  p99 " + time(p99) + "  p99.9 " + time(p999) + "  max " + time(max);
    }

    /** A duration for humans: "950ns", "1.02us", "2.30ms", "1.50s". */
    public static String time(long ns) {
        if (ns >= 1_000_000_000L) {
            return Figures.fixed(ns / 1e9, 2) + "s";
        }
        if (ns >= 1_000_000L) {
            return Figures.fixed(ns / 1e6, 2) + "ms";
        }
        if (ns >= 1_000L) {
            return Figures.fixed(ns / 1e3, 2) + "us";
        }
        return ns + "ns";
    }
}
