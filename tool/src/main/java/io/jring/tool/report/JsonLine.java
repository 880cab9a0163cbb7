package io.jring.tool.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * One JSON object written as one line: the unit of {@code --output-format=json}
 * (BENCHMARKS.md "Machine-readable results"). Keys keep the order they were put in.
 * Not a general JSON library: objects, strings, numbers and booleans are all a bench needs.
 */
public final class JsonLine {

    /** Decimals kept for non-integral numbers (ratios, spreads, ns/op). */
    private static final int DECIMALS = 4;

    private final StringBuilder text = new StringBuilder("{");
    private boolean empty = true;

    private JsonLine() {}

    public static JsonLine object() {
        return new JsonLine();
    }

    public JsonLine put(String key, String value) {
        key(key);
        if (value == null) {
            text.append("null");
        } else {
            quote(text, value);
        }
        return this;
    }

    public JsonLine put(String key, long value) {
        key(key).append(value);
        return this;
    }

    /** Finite values with up to {@value #DECIMALS} decimals; NaN and infinities as null. */
    public JsonLine put(String key, double value) {
        key(key).append(number(value));
        return this;
    }

    public JsonLine put(String key, boolean value) {
        key(key).append(value);
        return this;
    }

    public JsonLine put(String key, JsonLine nested) {
        key(key).append(nested.toString());
        return this;
    }

    /** The object, on one line, without a line terminator. */
    @Override
    public String toString() {
        return text + "}";
    }

    private StringBuilder key(String key) {
        if (!empty) {
            text.append(',');
        }
        empty = false;
        quote(text, key);
        return text.append(':');
    }

    static String number(double v) {
        if (!Double.isFinite(v)) {
            return "null";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return BigDecimal.valueOf(v).setScale(DECIMALS, RoundingMode.HALF_UP)
                .stripTrailingZeros().toPlainString();
    }

    /** Appends {@code s} as a JSON string literal (RFC 8259 escapes). */
    static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
