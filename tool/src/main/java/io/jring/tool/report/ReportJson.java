package io.jring.tool.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A report's raw JSON: what was measured ("about"), the notes, and every run with its
 * engine, mode, block size, depth and fio-layout output as the run printed it (parsed and
 * written again, keys in their order, numbers exact). Written beside the page and embedded
 * in it; {@code jring report --from} renders a page from it again.
 */
public final class ReportJson {
    private ReportJson() {}

    /** Marks the document; changes when its layout does. */
    static final String FORMAT_KEY = "jring report";
    static final int FORMAT = 1;

    /** The document, indented two spaces per level. */
    public static String write(ReportData data) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put(FORMAT_KEY, FORMAT);
        doc.put("about", data.about());
        doc.put("notes", data.notes());
        List<Object> runs = new ArrayList<>();
        for (SweepResult r : data.results()) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("engine", r.point().engine().id);
            run.put("mode", r.point().mode());
            run.put("bs", r.point().bs());
            run.put("iodepth", r.point().depth());
            run.put("note", r.note());
            run.put("output", r.output());
            runs.add(run);
        }
        doc.put("runs", runs);
        StringBuilder s = new StringBuilder(1 << 16);
        value(s, doc, 0);
        return s.append('\n').toString();
    }

    /** Reads a document {@link #write} wrote; IllegalArgumentException saying what is wrong. */
    public static ReportData read(String text) {
        Map<String, Object> doc = JsonReader.parseObject(text);
        if (!(doc.get(FORMAT_KEY) instanceof Double d) || d != FORMAT) {
            throw new IllegalArgumentException("not a jring report's JSON (no \"" + FORMAT_KEY + "\": " + FORMAT + ")");
        }
        Map<String, String> about = new LinkedHashMap<>();
        if (doc.get("about") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> about.put(String.valueOf(k), String.valueOf(v)));
        }
        List<String> notes = new ArrayList<>();
        if (doc.get("notes") instanceof List<?> l) {
            l.forEach(n -> notes.add(String.valueOf(n)));
        }
        List<SweepResult> results = new ArrayList<>();
        if (doc.get("runs") instanceof List<?> runs) {
            for (Object o : runs) {
                if (!(o instanceof Map<?, ?> run) || !(run.get("iodepth") instanceof Double depth)) {
                    throw new IllegalArgumentException("a run without an iodepth: " + o);
                }
                SweepPoint p = new SweepPoint(ReportEngine.byId(String.valueOf(run.get("engine"))),
                        SweepPoint.isDirect(String.valueOf(run.get("mode"))), String.valueOf(run.get("bs")), depth.intValue());
                Object output = run.get("output");
                results.add(output != null ? SweepResult.of(p, output)
                        : SweepResult.failed(p, run.get("note") instanceof String n ? n : "no output"));
            }
        }
        return new ReportData(about, notes, results);
    }

    private static void value(StringBuilder s, Object v, int depth) {
        switch (v) {
            case null -> s.append("null");
            case String str -> JsonLine.quote(s, str);
            case Boolean b -> s.append(b);
            case Integer i -> s.append(i);
            case Long l -> s.append(l);
            case Double d -> s.append(number(d));
            case Map<?, ?> m -> {
                if (m.isEmpty()) {
                    s.append("{}");
                    return;
                }
                s.append('{');
                String sep = "\n";
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    s.append(sep);
                    indent(s, depth + 1);
                    JsonLine.quote(s, String.valueOf(e.getKey()));
                    s.append(": ");
                    value(s, e.getValue(), depth + 1);
                    sep = ",\n";
                }
                s.append('\n');
                indent(s, depth);
                s.append('}');
            }
            case List<?> l -> {
                if (l.isEmpty()) {
                    s.append("[]");
                    return;
                }
                s.append('[');
                String sep = "\n";
                for (Object e : l) {
                    s.append(sep);
                    indent(s, depth + 1);
                    value(s, e, depth + 1);
                    sep = ",\n";
                }
                s.append('\n');
                indent(s, depth);
                s.append(']');
            }
            default -> throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
        }
    }

    /** Integral values without a fraction, others in their shortest exact decimal; NaN and infinities as null. */
    static String number(double d) {
        if (!Double.isFinite(d)) {
            return "null";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return BigDecimal.valueOf(d).toPlainString();
    }

    private static void indent(StringBuilder s, int depth) {
        s.append("  ".repeat(depth));
    }
}
