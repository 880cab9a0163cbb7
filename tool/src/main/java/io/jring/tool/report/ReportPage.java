package io.jring.tool.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The report as one self-contained page: XHTML (so any XML parser reads it, and so do
 * browsers), inline CSS and SVG, no scripts, no fonts or images fetched. Per cache mode and
 * block size: IOPS and p50/p99/p99.9 latency against iodepth, one line per engine, and the
 * figures as a table; then the notes and the raw JSON.
 */
public final class ReportPage {
    private ReportPage() {}

    private static final String CSS = """
            body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1180px; padding: 0 1em; color: #222; }
            h1 { margin-bottom: 0.2em; }
            h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 1.6em; }
            .plots { display: flex; flex-wrap: wrap; gap: 8px; }
            .plot { border: 1px solid #eee; background: #fff; }
            table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
            th, td { border: 1px solid #ddd; padding: 0.2em 0.6em; text-align: right; }
            th:first-child, td:first-child { text-align: left; }
            table.about td, table.about th { text-align: left; border: none; padding: 0.1em 0.8em 0.1em 0; vertical-align: top; }
            table.about th { white-space: nowrap; }
            .word { white-space: nowrap; }
            td small { color: #666; display: block; }
            .swatch { display: inline-block; width: 1.4em; height: 0.25em; vertical-align: middle; margin-right: 0.4em; }
            .notes li { color: #8a4b00; }
            pre { background: #f6f6f6; padding: 0.8em; max-height: 32em; overflow: auto; font-size: 0.8em; }
            footer { margin-top: 2em; color: #666; font-size: 0.85em; }
            """;

    /** The page for {@code data}; {@code json} is its raw JSON ({@link ReportJson#write}), embedded at the end. */
    public static String render(ReportData data, String json) {
        String rw = data.about().getOrDefault("rw", "");
        StringBuilder s = new StringBuilder(1 << 16);
        s.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
                .append("<title>jring report: ").append(Markup.text(rw)).append(" against iodepth</title>\n<style>\n").append(CSS)
                .append("</style>\n</head>\n<body>\n<h1>jring report: ").append(Markup.text(rw)).append(" against iodepth</h1>\n")
                .append("<p>IOPS and latency percentiles (total latency, submission to completion) at each iodepth, ")
                .append("one line per engine: jring (<code>jring fio</code> on the jring ring) and real fio's engines, ")
                .append("on the same file with the same fio options. Hover a point for its value.</p>\n");
        about(s, data.about());
        if (!data.notes().isEmpty()) {
            s.append("<ul class=\"notes\">\n");
            for (String n : data.notes()) {
                s.append("<li>").append(Markup.text(n)).append("</li>\n");
            }
            s.append("</ul>\n");
        }
        Map<String, List<SweepResult>> sections = new LinkedHashMap<>();
        for (SweepResult r : data.results()) {
            sections.computeIfAbsent(r.point().mode() + " " + r.point().bs(), k -> new ArrayList<>()).add(r);
        }
        if (sections.isEmpty()) {
            s.append("<p>No runs.</p>\n");
        }
        for (List<SweepResult> section : sections.values()) {
            section(s, section, rw);
        }
        s.append("<details>\n<summary>Raw JSON: every run's fio-layout output (also written beside this page)</summary>\n<pre>")
                .append(Markup.text(json)).append("</pre>\n</details>\n")
                .append("<footer>Written by <code>jring report</code>. ")
                .append("Each run is its own process, fio or a fresh JVM running <code>jring fio</code>, with <code>--output-format=json</code>.</footer>\n")
                .append("</body>\n</html>\n");
        return s.toString();
    }

    private static void about(StringBuilder s, Map<String, String> about) {
        s.append("<table class=\"about\">\n");
        about.forEach((k, v) -> {
            s.append("<tr><th>").append(Markup.text(k)).append("</th><td>");
            if (k.equals("command") || k.equals("options")) {
                // a command line breaks between its words only, never at an option's dashes
                s.append("<code>");
                for (String word : v.split(" ")) {
                    s.append("<span class=\"word\">").append(Markup.text(word)).append("</span> ");
                }
                s.append("</code>");
            } else {
                s.append(Markup.text(v));
            }
            s.append("</td></tr>\n");
        });
        s.append("</table>\n");
    }

    private static void section(StringBuilder s, List<SweepResult> runs, String rw) {
        SweepPoint first = runs.getFirst().point();
        String heading = first.mode() + ", " + first.bs() + " " + rw;
        s.append("<section id=\"").append(Markup.text((first.mode() + "-" + first.bs()).toLowerCase(java.util.Locale.ROOT)))
                .append("\">\n<h2>").append(Markup.text(heading)).append("</h2>\n<div class=\"plots\">\n");
        Map<ReportEngine, TreeMap<Integer, SweepResult>> byEngine = new TreeMap<>();
        TreeSet<Integer> depthSet = new TreeSet<>();
        for (SweepResult r : runs) {
            byEngine.computeIfAbsent(r.point().engine(), e -> new TreeMap<>()).put(r.point().depth(), r);
            depthSet.add(r.point().depth());
        }
        int[] depths = depthSet.stream().mapToInt(Integer::intValue).toArray();
        s.append(new LinePlot("IOPS", LinePlot.Quantity.IOPS, depths).render(series(byEngine, -1)));
        for (double pct : new double[] {50, 99, 99.9}) {
            String name = "p" + (pct == 99.9 ? "99.9" : String.valueOf((int) pct)) + " latency";
            s.append(new LinePlot(name, LinePlot.Quantity.LATENCY, depths).render(series(byEngine, pct)));
        }
        s.append("</div>\n");
        table(s, byEngine, depths);
        List<SweepResult> failed = runs.stream().filter(r -> !r.ok()).toList();
        if (!failed.isEmpty()) {
            s.append("<ul class=\"notes\">\n");
            for (SweepResult r : failed) {
                s.append("<li>").append(Markup.text(r.point().describe() + ": " + r.note())).append("</li>\n");
            }
            s.append("</ul>\n");
        }
        s.append("</section>\n");
    }

    /** One series per engine: its IOPS ({@code pct < 0}) or its latency at {@code pct}, in ns. */
    private static List<LinePlot.Series> series(Map<ReportEngine, TreeMap<Integer, SweepResult>> byEngine, double pct) {
        List<LinePlot.Series> list = new ArrayList<>();
        byEngine.forEach((engine, runs) -> {
            double[] xs = new double[runs.size()];
            double[] ys = new double[runs.size()];
            int i = 0;
            for (SweepResult r : runs.values()) {
                xs[i] = r.point().depth();
                ys[i++] = pct < 0 ? r.iops() : r.latencyNanos(pct);
            }
            list.add(new LinePlot.Series(engine.label(), engine.color, engine.isSync(), xs, ys));
        });
        return list;
    }

    private static void table(StringBuilder s, Map<ReportEngine, TreeMap<Integer, SweepResult>> byEngine, int[] depths) {
        s.append("<table class=\"figures\">\n<caption>IOPS, and p99 latency below</caption>\n<tr><th>engine</th>");
        for (int d : depths) {
            s.append("<th>QD").append(d).append("</th>");
        }
        s.append("</tr>\n");
        byEngine.forEach((engine, runs) -> {
            s.append("<tr><td><span class=\"swatch\" style=\"background: ").append(engine.color).append("\"></span>")
                    .append(Markup.text(engine.label())).append("</td>");
            for (int d : depths) {
                SweepResult r = runs.get(d);
                if (r == null) {
                    s.append("<td></td>");
                } else if (!r.ok()) {
                    s.append("<td title=\"").append(Markup.text(r.note())).append("\">failed</td>");
                } else {
                    s.append("<td>").append(Figures.si(r.iops())).append("<small>")
                            .append(Double.isNaN(r.p99Nanos()) ? "-" : Latency.time(Math.round(r.p99Nanos()))).append("</small></td>");
                }
            }
            s.append("</tr>\n");
        });
        s.append("</table>\n");
    }
}
