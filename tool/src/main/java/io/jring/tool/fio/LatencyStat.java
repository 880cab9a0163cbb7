package io.jring.tool.fio;

import org.HdrHistogram.Histogram;

/**
 * One latency series of a job (slat, clat or lat, in ns): exact min/max/mean/stddev in an
 * {@link IoStat}, and the distribution in an HdrHistogram for fio's percentiles and latency
 * buckets. Recording does not allocate. One writer thread.
 */
final class LatencyStat {
    /** Longest latency tracked: 10 minutes; longer ones are recorded as this. */
    static final long HIGHEST_NANOS = 600_000_000_000L;

    /** fio's default percentile list. */
    static final double[] PERCENTILES = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

    final IoStat stat = new IoStat();
    final Histogram histogram = new Histogram(1, HIGHEST_NANOS, 3);

    void record(long nanos) {
        long v = nanos < 0 ? 0 : Math.min(nanos, HIGHEST_NANOS);
        stat.add(v);
        histogram.recordValue(v);
    }

    long samples() {
        return stat.samples();
    }

    /** Adds {@code o}'s samples (a group's latencies). */
    void add(LatencyStat o) {
        stat.add(o.stat);
        histogram.add(o.histogram);
    }

    /** The value at each of {@code list} (percent), in ns. */
    long[] percentiles(double[] list) {
        long[] values = new long[list.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = histogram.getValueAtPercentile(list[i]);
        }
        return values;
    }
}
