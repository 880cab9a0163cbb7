package io.jring.tool.report;

import java.util.Map;

/**
 * What one run gave: its fio-layout JSON output (fio's own, or {@code jring fio}'s, which
 * has the same layout) and the figures the plots draw, or the note saying why there are none.
 * IOPS are the job's read plus write IOPS (a sweep runs one direction); latencies are the
 * percentiles of the total latency ({@code lat_ns}, asked for with {@code --lat_percentiles=1}),
 * or of the completion latency ({@code clat_ns}, fio's default) when the output has no others.
 *
 * @param output the parsed output (maps, lists, doubles), or null when the run gave none
 * @param note   why the run has no figures, or null when it has
 */
public record SweepResult(SweepPoint point, Object output, String note,
                          double iops, double p50Nanos, double p99Nanos, double p999Nanos) {

    /** A run that gave no output. */
    public static SweepResult failed(SweepPoint point, String note) {
        return new SweepResult(point, null, note, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** A run's output, read: a job error or a missing rate becomes the note. */
    public static SweepResult of(SweepPoint point, Object output) {
        double error = JsonReader.number(output, "jobs.0.error");
        double iops = JsonReader.number(output, "jobs.0.read.iops") + JsonReader.number(output, "jobs.0.write.iops");
        String dir = JsonReader.number(output, "jobs.0.read.total_ios") > 0 ? "read" : "write";
        double p50 = percentile(output, dir, "50.000000");
        double p99 = percentile(output, dir, "99.000000");
        double p999 = percentile(output, dir, "99.900000");
        String note = null;
        if (Double.isNaN(error) || Double.isNaN(iops)) {
            note = "the output has no jobs[0] with read and write figures";
        } else if (error != 0) {
            note = "the job failed with error " + (long) error;
        } else if (iops <= 0) {
            note = "the job did no I/O";
        }
        return note == null
                ? new SweepResult(point, output, null, iops, p50, p99, p999)
                : new SweepResult(point, output, note, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** True when the run gave figures. */
    public boolean ok() {
        return note == null;
    }

    /** The latency at {@code which} (50, 99 or 99.9) in ns. */
    public double latencyNanos(double which) {
        return which == 50 ? p50Nanos : which == 99 ? p99Nanos : p999Nanos;
    }

    /** {@code jobs[0].<dir>.lat_ns.percentile[key]} or, failing that, clat_ns's; NaN if neither. The keys have dots, so no path. */
    private static double percentile(Object output, String dir, String key) {
        for (String lat : new String[] {"lat_ns", "clat_ns"}) {
            if (JsonReader.at(output, "jobs.0." + dir + "." + lat + ".percentile") instanceof Map<?, ?> m
                    && m.get(key) instanceof Number n) {
                return n.doubleValue();
            }
        }
        return Double.NaN;
    }
}
