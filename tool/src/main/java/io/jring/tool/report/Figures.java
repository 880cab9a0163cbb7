package io.jring.tool.report;

import java.util.Locale;

/** Human renderings of the numbers benches print: rates with SI suffixes, durations. */
public final class Figures {
    private Figures() {}

    /** 31250000 -> "31.25M", 523000 -> "523.0K", 950 -> "950". */
    public static String si(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) {
            return String.format(Locale.ROOT, "%.2fG", v / 1e9);
        }
        if (a >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", v / 1e6);
        }
        if (a >= 1e3) {
            return String.format(Locale.ROOT, "%.1fK", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /** fio's ETA style: "00m:03s", or "1h:02m:03s" past an hour. */
    public static String eta(long nanos) {
        long s = Math.max(0L, (nanos + 999_999_999L) / 1_000_000_000L);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh:%02dm:%02ds", s / 3600, (s / 60) % 60, s % 60);
        }
        return String.format(Locale.ROOT, "%02dm:%02ds", s / 60, s % 60);
    }

    /** Fixed decimals, locale-independent. */
    public static String fixed(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** A fraction as a signed percentage: 0.034 -> "3.4%". */
    public static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100.0);
    }
}
