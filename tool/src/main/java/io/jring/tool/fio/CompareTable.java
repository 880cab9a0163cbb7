package io.jring.tool.fio;

import io.jring.tool.report.Figures;
import io.jring.tool.report.Rounds;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The table {@code jring compare} ends with: per configuration the median IOPS of its
 * rounds, the spread ({@code (max - min) / median}), and the ratios to fio io_uring at the
 * same depth and to fio psync; the median p99 of the total latency (submission included,
 * fio's lat_percentiles) and its ratio to fio io_uring's; then the targets, met or missed:
 * issue 3's, and with O_DIRECT issue 7's (IOPS >= 0.95x fio io_uring, p99 within 10 %).
 */
final class CompareTable {
    private CompareTable() {}

    /** {@code cpus}: the job thread's CPU use per round, in per cent of the run (fio's usr_cpu + sys_cpu). */
    static void print(PrintWriter out, Map<Contender, double[]> results, Map<Contender, double[]> p99s,
                      Map<Contender, double[]> cpus, boolean direct, int[] depths) {
        out.println("QD   engine              median IOPS   spread   rounds   vs fio io_uring   vs fio psync"
                + "    p99 lat   p99 vs fio io_uring   job cpu");
        for (Map.Entry<Contender, double[]> e : results.entrySet()) {
            Contender c = e.getKey();
            Rounds r = rounds(e.getValue());
            if (r == null) {
                out.printf(Locale.ROOT, "%-4d %-18s %12s%n", c.depth(), c.label(), "failed");
                continue;
            }
            Rounds p99 = rounds(p99s.get(c));
            Rounds cpu = rounds(cpus.get(c));
            out.printf(Locale.ROOT, "%-4d %-18s %12s %8s %8d %17s %14s %10s %21s %9s%n", c.depth(), c.label(),
                    Figures.si(r.median()), Figures.percent(r.spread()), r.count(),
                    ratio(r, median(results, true, "io_uring", c.depth())),
                    ratio(r, median(results, true, "psync", 1)),
                    p99 == null ? "-" : String.format(Locale.ROOT, "%.0f us", p99.median() / 1000.0),
                    p99 == null ? "-" : ratio(p99, median(p99s, true, "io_uring", c.depth())),
                    cpu == null ? "-" : String.format(Locale.ROOT, "%.0f%%", cpu.median()));
        }
        out.println();
        out.println("(median of the rounds; spread = (max - min) / median; ratios = this row's median / the anchor's median;"
                + " p99 lat = 99th percentile of submission + completion latency;"
                + " job cpu = the job thread's user + system CPU time in per cent of the run)");
        List<String> checks = new ArrayList<>();
        for (int depth : depths) {
            double jring = median(results, false, "jring", depth);
            double fioUring = median(results, true, "io_uring", depth);
            double psync = median(results, true, "psync", 1);
            if (direct) {
                if (depth == 32) {
                    checks.add(check("QD32 O_DIRECT: jring / fio io_uring", jring, fioUring, 0.9));
                }
                checks.add(check("QD" + depth + " O_DIRECT (issue 7): jring / fio io_uring", jring, fioUring, 0.95));
                checks.add(checkAtMost("QD" + depth + " O_DIRECT (issue 7): p99 jring / fio io_uring",
                        median(p99s, false, "jring", depth), median(p99s, true, "io_uring", depth), 1.10));
            } else {
                checks.add(check("QD" + depth + ": jring / fio io_uring", jring, fioUring, 1.2));
                checks.add(check("QD" + depth + ": jring / fio psync", jring, psync, 0.85));
            }
            double afc = median(results, false, "afc", depth);
            double fileChannel = median(results, false, "filechannel", 1);
            if (!Double.isNaN(jring) && !Double.isNaN(afc)) {
                checks.add(String.format(Locale.ROOT, "QD%d: jring / JDK AsynchronousFileChannel = %.2fx", depth, jring / afc));
            }
            if (!Double.isNaN(jring) && !Double.isNaN(fileChannel)) {
                checks.add(String.format(Locale.ROOT, "QD%d: jring / JDK FileChannel (QD1) = %.2fx", depth, jring / fileChannel));
            }
        }
        checks.removeIf(String::isEmpty);
        if (!checks.isEmpty()) {
            out.println();
            out.println("Targets and peers:");
            for (String line : checks) {
                out.println("  " + line);
            }
        }
        out.flush();
    }

    private static String check(String what, double value, double anchor, double target) {
        if (Double.isNaN(value) || Double.isNaN(anchor) || anchor <= 0) {
            return "";
        }
        double ratio = value / anchor;
        return String.format(Locale.ROOT, "%s = %.2fx (target >= %.2fx: %s)", what, ratio, target, ratio >= target ? "met" : "MISSED");
    }

    private static String checkAtMost(String what, double value, double anchor, double target) {
        if (Double.isNaN(value) || Double.isNaN(anchor) || anchor <= 0) {
            return "";
        }
        double ratio = value / anchor;
        return String.format(Locale.ROOT, "%s = %.2fx (target <= %.2fx: %s)", what, ratio, target, ratio <= target ? "met" : "MISSED");
    }

    private static String ratio(Rounds r, double anchor) {
        return Double.isNaN(anchor) || anchor <= 0 ? "-" : String.format(Locale.ROOT, "%.2fx", r.median() / anchor);
    }

    private static double median(Map<Contender, double[]> results, boolean fio, String engine, int depth) {
        double[] v = results.get(new Contender(fio, engine, depth));
        Rounds r = v == null ? null : rounds(v);
        return r == null ? Double.NaN : r.median();
    }

    /** The rounds that produced a figure, or null if none did. */
    private static Rounds rounds(double[] values) {
        if (values == null) {
            return null;
        }
        double[] ok = java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
        return ok.length == 0 ? null : Rounds.of(ok);
    }
}
