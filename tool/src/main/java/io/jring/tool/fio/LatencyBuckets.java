package io.jring.tool.fio;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * fio's latency distribution ({@code io_u_lat_n/u/m}): the share of I/Os whose completion
 * latency fell in each range, from 2 ns to >= 2 s, taken from the jobs' clat histograms
 * when the report is made (nothing on the I/O path).
 */
final class LatencyBuckets {
    /** Upper bounds (exclusive) of the nsec and usec buckets, as fio labels them. */
    static final long[] BOUNDS = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
    /** The msec buckets add 2000 and ">=2000". */
    static final long[] MSEC_BOUNDS = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};

    final double[] nsec = new double[BOUNDS.length];
    final double[] usec = new double[BOUNDS.length];
    final double[] msec = new double[MSEC_BOUNDS.length + 1];

    static LatencyBuckets of(JobStats stats) {
        Histogram all = stats.read.clat.histogram.copy();
        all.add(stats.write.clat.histogram);
        long[] n = new long[BOUNDS.length];
        long[] u = new long[BOUNDS.length];
        long[] m = new long[MSEC_BOUNDS.length + 1];
        for (HistogramIterationValue v : all.recordedValues()) {
            long value = all.highestEquivalentValue(v.getValueIteratedTo());
            long count = v.getCountAtValueIteratedTo();
            if (value < 1000) {
                n[index(BOUNDS, value)] += count;
            } else if (value < 1_000_000) {
                u[index(BOUNDS, value / 1000)] += count;
            } else {
                m[index(MSEC_BOUNDS, value / 1_000_000)] += count;
            }
        }
        long total = all.getTotalCount();
        LatencyBuckets b = new LatencyBuckets();
        percent(n, total, b.nsec);
        percent(u, total, b.usec);
        percent(m, total, b.msec);
        return b;
    }

    private static int index(long[] bounds, long v) {
        for (int i = 0; i < bounds.length; i++) {
            if (v < bounds[i]) {
                return i;
            }
        }
        return bounds.length;
    }

    /** fio's stat_calc_lat: percent of all I/Os, at least 0.01 for a bucket that has any. */
    private static void percent(long[] counts, long total, double[] out) {
        for (int i = 0; i < counts.length && i < out.length; i++) {
            if (total == 0) {
                out[i] = 0.0;
            } else {
                out[i] = 100.0 * counts[i] / total;
                if (out[i] < 0.01 && counts[i] > 0) {
                    out[i] = 0.01;
                }
            }
        }
    }

    /** fio's labels for the buckets: "2", "4", ..., "1000" and, for msec, "2000", ">=2000". */
    static String label(long[] bounds, int i) {
        return i < bounds.length ? Long.toString(bounds[i]) : ">=" + bounds[bounds.length - 1];
    }
}
