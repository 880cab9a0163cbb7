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

    /** Adds {@code o}'s samples, as if recorded here (fio's __sum_stat: the latencies of a group). */
    void add(IoStat o) {
        if (o.samples == 0) {
            return;
        }
        min = Math.min(min, o.min);
        max = Math.max(max, o.max);
        samples += o.samples;
        sum += o.sum;
        sumSquares += o.sumSquares;
    }

    /**
     * Adds {@code o} as fio's sum_stat with pure_sum does for bandwidth and IOPS samples of
     * jobs that ran side by side: min, max, mean and the squared deviations are summed, so
     * the group's rate is the sum of its jobs' rates.
     */
    void addRates(IoStat o) {
        if (o.samples == 0) {
            return;
        }
        if (samples == 0) {
            add(o);
            return;
        }
        double mean = mean() + o.mean();
        double s = squaredDeviations() + o.squaredDeviations();
        long n = samples + o.samples;
        min = min + o.min;
        max = max + o.max;
        samples = n;
        sum = mean * n;
        sumSquares = s + sum * sum / n;
    }

    /** fio's S: the sum of squared deviations from the mean. */
    private double squaredDeviations() {
        return samples == 0 ? 0.0 : Math.max(0.0, sumSquares - sum * sum / samples);
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
