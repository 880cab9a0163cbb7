package io.jring.tool.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader, enough for fio's JSON output (and jring's, which has the same
 * layout, and the benches' JSON lines): objects become LinkedHashMaps, arrays Lists, numbers Doubles. {@link #at} walks
 * a path like {@code jobs.0.read.iops}.
 */
public final class JsonReader {
    private final String s;
    private int i;

    private JsonReader(String s) {
        this.s = s;
    }

    /** Parses the JSON document in {@code text}, skipping anything before its first '{' (fio prints notes there). */
    public static Object parse(String text) {
        int start = text.indexOf('{');
        if (start < 0) {
            throw new IllegalArgumentException("no JSON object in the output");
        }
        JsonReader r = new JsonReader(text);
        r.i = start;
        Object v = r.value();
        r.ws();
        if (r.i != text.length()) {
            throw r.error("trailing characters");
        }
        return v;
    }

    /** Parses a JSON object (one line of a bench's JSON output). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        if (!(parse(text) instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("not a JSON object: " + text);
        }
        return (Map<String, Object>) m;
    }

    /** The value at a dotted path (array indices as numbers), or null if absent. */
    public static Object at(Object root, String path) {
        Object v = root;
        for (String key : path.split("\\.")) {
            if (v instanceof Map<?, ?> m) {
                v = m.get(key);
            } else if (v instanceof List<?> l && key.chars().allMatch(Character::isDigit)) {
                int idx = Integer.parseInt(key);
                v = idx < l.size() ? l.get(idx) : null;
            } else {
                return null;
            }
        }
        return v;
    }

    /** The number at {@code path}, or NaN. */
    public static double number(Object root, String path) {
        return at(root, path) instanceof Double d ? d : Double.NaN;
    }

    private Object value() {
        ws();
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        return switch (s.charAt(i)) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (peek() == '}') {
            i++;
            return m;
        }
        while (true) {
            ws();
            String key = string();
            ws();
            expect(':');
            m.put(key, value());
            ws();
            if (peek() == ',') {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        i++;
        ws();
        if (peek() == ']') {
            i++;
            return l;
        }
        while (true) {
            l.add(value());
            ws();
            if (peek() == ',') {
                i++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> sb.append(e);
                }
            } else {
                sb.append(c);
            }
        }
        throw error("unterminated string");
    }

    private Double number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        try {
            return Double.valueOf(s.substring(start, i));
        } catch (NumberFormatException e) {
            throw error("bad number");
        }
    }

    private Object literal(String word, Object value) {
        if (!s.startsWith(word, i)) {
            throw error("expected " + word);
        }
        i += word.length();
        return value;
    }

    private void ws() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON: " + what + " at offset " + i);
    }
}
