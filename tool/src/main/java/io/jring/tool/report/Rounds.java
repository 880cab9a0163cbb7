package io.jring.tool.report;

import java.util.Arrays;

/**
 * The rates of one configuration over several alternating rounds: BENCHMARKS.md asks for
 * the median of at least 3 and the spread, {@code (max - min) / median}.
 */
public record Rounds(double median, double min, double max, int count) {

    public static Rounds of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no rounds");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        double median = (n & 1) == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
        return new Rounds(median, v[0], v[n - 1], n);
    }

    /** (max - min) / median; 0 for a single round. */
    public double spread() {
        return median == 0.0 ? 0.0 : (max - min) / median;
    }
}
