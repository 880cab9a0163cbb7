package io.jring.tool.fio;

import java.util.Locale;

/**
 * Writes JSON the way fio prints it ({@code "key" : value}, two-space indents, floats with
 * six decimals), so diffs against real fio output stay readable. Append-only, no validation
 * beyond commas and nesting.
 */
final class JsonOut {
    private final StringBuilder sb = new StringBuilder(16384);
    private int depth;
    private boolean first = true;

    JsonOut beginObject() {
        sb.append('{');
        depth++;
        first = true;
        return this;
    }

    JsonOut beginObject(String key) {
        key(key);
        return beginObject();
    }

    JsonOut endObject() {
        depth--;
        newline();
        sb.append('}');
        first = false;
        return this;
    }

    JsonOut beginArray(String key) {
        key(key);
        sb.append('[');
        depth++;
        first = true;
        return this;
    }

    JsonOut endArray() {
        depth--;
        newline();
        sb.append(']');
        first = false;
        return this;
    }

    /** An array element that is an object. */
    JsonOut beginElement() {
        if (!first) {
            sb.append(',');
        }
        newline();
        return beginObject();
    }

    JsonOut field(String key, long value) {
        key(key);
        sb.append(value);
        return this;
    }

    JsonOut field(String key, double value) {
        key(key);
        sb.append(Double.isFinite(value) ? String.format(Locale.ROOT, "%f", value) : "0.000000");
        return this;
    }

    JsonOut field(String key, String value) {
        key(key);
        quote(value);
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    private void key(String key) {
        if (!first) {
            sb.append(',');
        }
        first = false;
        newline();
        quote(key);
        sb.append(" : ");
    }

    private void newline() {
        sb.append('\n');
        sb.append("  ".repeat(Math.max(0, depth)));
    }

    private void quote(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
