package io.jring.tool.bench;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A list of positive counts given as {@code 2}, {@code 1,2,4} or a range {@code 1..4}
 * (as {@code --producers} takes them). Kept in the order given, duplicates removed.
 */
public record Counts(int[] values) {

    public Counts {
        values = values.clone();
    }

    @Override
    public int[] values() {
        return values.clone();
    }

    public int max() {
        return Arrays.stream(values).max().orElse(0);
    }

    public static Counts parse(String text) {
        String s = text.strip();
        if (s.isEmpty()) {
            throw new TypeConversionException("empty count list");
        }
        IntStream.Builder out = IntStream.builder();
        for (String part : s.split(",")) {
            part = part.strip();
            int range = part.indexOf("..");
            if (range >= 0) {
                int from = positive(part.substring(0, range), text);
                int to = positive(part.substring(range + 2), text);
                if (to < from) {
                    throw new TypeConversionException("range '" + part + "' goes down; write it as " + to + ".." + from);
                }
                for (int i = from; i <= to; i++) {
                    out.add(i);
                }
            } else {
                out.add(positive(part, text));
            }
        }
        return new Counts(out.build().distinct().toArray());
    }

    private static int positive(String s, String whole) {
        int v;
        try {
            v = Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + whole + "' is not a count list like 2, 1,2,4 or 1..4");
        }
        if (v <= 0) {
            throw new TypeConversionException("counts must be >= 1, got " + v + " in '" + whole + "'");
        }
        return v;
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Counts c && Arrays.equals(values, c.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    /** picocli converter. */
    public static final class Converter implements ITypeConverter<Counts> {
        @Override
        public Counts convert(String value) {
            return parse(value);
        }
    }
}
