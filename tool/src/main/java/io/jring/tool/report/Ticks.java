package io.jring.tool.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** Axis ticks at round values, and their short labels ("250K", "1.5M", "20us", "1ms"). */
final class Ticks {
    private Ticks() {}

    /**
     * 0 and multiples of a round step (1, 2 or 5 times a power of ten) up to the first at or
     * above {@code max}: 4 to 7 ticks, the last one the axis's top.
     */
    static double[] linear(double max) {
        if (!(max > 0) || !Double.isFinite(max)) {
            return new double[] {0, 1};
        }
        double raw = max / 5;
        double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = decade * 10;
        for (double m : new double[] {1, 2, 5}) {
            if (decade * m >= raw) {
                step = decade * m;
                break;
            }
        }
        int n = (int) Math.ceil(max / step - 1e-9);
        double[] ticks = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            ticks[i] = step * i;
        }
        return ticks;
    }

    /**
     * Powers of ten from the one at or below {@code min} to the one at or above {@code max}
     * (at least one decade); with 2 and 5 times each power too when that spans at most two decades.
     */
    static double[] log(double min, double max) {
        if (!(min > 0) || !(max >= min) || !Double.isFinite(max)) {
            return new double[] {1, 10};
        }
        int lo = (int) Math.floor(Math.log10(min) + 1e-9);
        int hi = (int) Math.ceil(Math.log10(max) - 1e-9);
        if (hi <= lo) {
            hi = lo + 1;
        }
        boolean fine = hi - lo <= 2;
        List<Double> ticks = new ArrayList<>();
        for (int e = lo; e <= hi; e++) {
            double p = Math.pow(10, e);
            ticks.add(p);
            if (fine && e < hi) {
                ticks.add(2 * p);
                ticks.add(5 * p);
            }
        }
        return ticks.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** A count with an SI suffix and no needless decimals: 0, 950, 50K, 1.5M, 2G. */
    static String si(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) {
            return trim(v / 1e9) + "G";
        }
        if (a >= 1e6) {
            return trim(v / 1e6) + "M";
        }
        if (a >= 1e3) {
            return trim(v / 1e3) + "K";
        }
        return trim(v);
    }

    /** A duration given in ns: 500ns, 20us, 1.5ms, 2s. */
    static String time(double ns) {
        if (ns >= 1e9) {
            return trim(ns / 1e9) + "s";
        }
        if (ns >= 1e6) {
            return trim(ns / 1e6) + "ms";
        }
        if (ns >= 1e3) {
            return trim(ns / 1e3) + "us";
        }
        return trim(ns) + "ns";
    }

    /** At most two decimals, trailing zeros dropped: 1.50 -> "1.5", 2.00 -> "2". */
    private static String trim(double v) {
        return BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
