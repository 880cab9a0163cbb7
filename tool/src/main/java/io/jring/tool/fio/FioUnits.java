package io.jring.tool.fio;

import picocli.CommandLine.ITypeConverter;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * fio's input syntax for numbers: sizes with {@code k/m/g/t/p} prefixes that are powers of
 * 1024 (fio's default {@code kb_base=1024}, where 4k, 4kb and 4KiB all mean 4096), times in
 * seconds unless suffixed ({@code us, ms, s, m, h, d}), and booleans as fio writes them
 * ({@code 1/0}, {@code true/false}, {@code yes/no}, {@code on/off}). Each has a picocli
 * converter, so a bad value is reported as {@code Invalid value for option '--bs': ...}.
 */
public final class FioUnits {
    private FioUnits() {}

    /** Bytes in {@code text}, e.g. "4k" -> 4096, "256M" -> 268435456, "1g", "512", "1.5m". */
    public static long parseSize(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int end = s.length();
        while (end > 0 && Character.isLetter(s.charAt(end - 1))) {
            end--;
        }
        String number = s.substring(0, end);
        String unit = s.substring(end);
        int shift = switch (unit) {
            case "", "b" -> 0;
            case "k", "kb", "kib" -> 10;
            case "m", "mb", "mib" -> 20;
            case "g", "gb", "gib" -> 30;
            case "t", "tb", "tib" -> 40;
            case "p", "pb", "pib" -> 50;
            default -> throw new IllegalArgumentException("'" + text + "' is not a size: use bytes or a k/m/g/t/p suffix (k = 1024, as in fio)");
        };
        if (number.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' is not a size: a number must come first (e.g. 4k, 256m, 1g)");
        }
        try {
            BigDecimal bytes = new BigDecimal(number).multiply(BigDecimal.valueOf(2).pow(shift));
            if (bytes.signum() < 0) {
                throw new IllegalArgumentException("'" + text + "' is negative");
            }
            return bytes.setScale(0, java.math.RoundingMode.DOWN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a size (e.g. 4k, 256m, 1g)");
        }
    }

    /** Nanoseconds in {@code text}: seconds unless suffixed, e.g. "5" -> 5 s, "500ms", "2m". */
    public static long parseTimeNanos(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int end = s.length();
        while (end > 0 && Character.isLetter(s.charAt(end - 1))) {
            end--;
        }
        String number = s.substring(0, end);
        long unitNanos = switch (s.substring(end)) {
            case "", "s", "sec" -> 1_000_000_000L;
            case "us", "usec" -> 1_000L;
            case "ms", "msec" -> 1_000_000L;
            case "m", "min" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> throw new IllegalArgumentException("'" + text + "' is not a time: seconds, or a us/ms/s/m/h/d suffix");
        };
        try {
            BigDecimal nanos = new BigDecimal(number).multiply(BigDecimal.valueOf(unitNanos));
            if (nanos.signum() < 0) {
                throw new IllegalArgumentException("'" + text + "' is negative");
            }
            return nanos.setScale(0, java.math.RoundingMode.DOWN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a time (e.g. 5, 500ms, 2m)");
        }
    }

    /** A duration for humans: "1s", "500ms", "250us". */
    public static String describeNanos(long nanos) {
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return nanos / 1_000L + "us";
    }

    /** fio's boolean spellings. */
    public static boolean parseBool(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("'" + text + "' is not a boolean: use 1 or 0");
        };
    }

    /** {@code --bs=4k}, {@code --size=256M}. */
    public static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parseSize(value);
        }
    }

    /** {@code --runtime=5}, {@code --ramp_time=500ms}: nanoseconds. */
    public static final class Time implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parseTimeNanos(value);
        }
    }

    /** {@code --direct=1}, {@code --time_based} (alone: true). */
    public static final class Bool implements ITypeConverter<Boolean> {
        @Override
        public Boolean convert(String value) {
            return parseBool(value);
        }
    }
}
