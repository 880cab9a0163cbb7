package io.jring.tool.fio;

/**
 * fio's {@code struct io_stat}: exact min, max, mean and sample standard deviation of a
 * series (latencies in ns, bandwidth and IOPS samples). Sum and sum of squares in doubles:
 * no division per sample. One writer thread.
 */
final class IoStat {
    private long samples;
    private long min = Long.MAX_VALUE;
    private long max;
    private double sum;
    private double sumSquares;

    void add(long v) {
        samples++;
        if (v < min) {
            min = v;
        }
        if (v > max) {
            max = v;
        }
        double d = v;
        sum += d;
        sumSquares += d * d;
    }

    long samples() {
        return samples;
    }

    long min() {
        return samples == 0 ? 0 : min;
    }

    long max() {
        return max;
    }

    double mean() {
        return samples == 0 ? 0.0 : sum / samples;
    }

    /** fio's calc_lat: sqrt(S / (n - 1)), 0 for fewer than two samples. */
    double stddev() {
        if (samples < 2) {
            return 0.0;
        }
        double variance = (sumSquares - sum * sum / samples) / (samples - 1);
        return variance > 0 ? Math.sqrt(variance) : 0.0;
    }
}
