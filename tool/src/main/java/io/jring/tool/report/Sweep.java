package io.jring.tool.report;

import io.jring.tool.fio.FioUnits;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a plan: each point as its own process, real fio or {@code jring fio} in a fresh JVM,
 * with the same fio options and JSON output; one progress line per run.
 */
final class Sweep {

    /** Beyond the run's own time: process start, file open, JIT warm-up. */
    private static final long SLACK_SECONDS = 120;

    private final SweepPlan plan;
    private final Path file;
    private final FioBinary fio;
    private final String jringMain;
    private final ChildProcess children;
    private final PrintWriter out;

    /** {@code fio} may be null when the plan has no fio engine; {@code jringMain} is the class running {@code jring}. */
    Sweep(SweepPlan plan, Path file, FioBinary fio, String jringMain, ChildProcess children, PrintWriter out) {
        this.plan = plan;
        this.file = file;
        this.fio = fio;
        this.jringMain = jringMain;
        this.children = children;
        this.out = out;
    }

    List<SweepResult> run() throws IOException, InterruptedException {
        List<SweepPoint> points = plan.points();
        List<SweepResult> results = new ArrayList<>(points.size());
        long size = FioUnits.parseSize(plan.size());
        String warmFor = null;
        for (int i = 0; i < points.size(); i++) {
            SweepPoint p = points.get(i);
            String block = p.mode() + " " + p.bs();
            if (!p.direct() && !block.equals(warmFor)) {
                SweepFile.warm(file, size);
            }
            warmFor = block;
            SweepResult r = runOne(p);
            results.add(r);
            out.printf(Locale.ROOT, "[%" + String.valueOf(points.size()).length() + "d/%d] %-8s %-4s QD%-3d %-16s %s%n", i + 1,
                    points.size(), p.mode(), p.bs(), p.depth(), p.engine().label(), r.ok() ? figures(r) : "no figures: " + r.note());
            out.flush();
        }
        return results;
    }

    /** The command line of one run. */
    List<String> command(SweepPoint p) {
        List<String> cmd = new ArrayList<>();
        if (p.engine().fio) {
            cmd.add(fio.path());
        } else {
            cmd.addAll(ChildProcess.javaCommand(jringMain));
            cmd.add("fio");
            cmd.add("--eta=never");
            cmd.add("--jit_warmup=" + plan.jitWarmup());
        }
        cmd.addAll(plan.fioOptions(p, file.toString()));
        return cmd;
    }

    private SweepResult runOne(SweepPoint p) throws InterruptedException {
        List<String> cmd = command(p);
        long timeout = plan.runtimeSeconds() + plan.rampSeconds() + FioUnits.parseTimeNanos(plan.jitWarmup()) / 1_000_000_000L
                + SLACK_SECONDS;
        ChildProcess.Output o;
        try {
            o = children.run(cmd, timeout);
        } catch (IOException e) {
            return SweepResult.failed(p, "cannot run " + cmd.getFirst() + ": " + e.getMessage());
        }
        if (o.exit() == -1) {
            return SweepResult.failed(p, o.stderr());
        }
        String why = o.stderr().isBlank() ? "" : ": " + ChildProcess.firstLines(o.stderr());
        try {
            SweepResult r = SweepResult.of(p, JsonReader.parse(o.stdout()));
            return r.ok() ? r : new SweepResult(p, r.output(), r.note() + why, r.iops(), r.p50Nanos(), r.p99Nanos(), r.p999Nanos());
        } catch (IllegalArgumentException e) {
            return SweepResult.failed(p, "exit " + o.exit() + ", no JSON output" + (why.isEmpty() ? ": " + ChildProcess.firstLines(o.stdout()) : why));
        }
    }

    private static String figures(SweepResult r) {
        return String.format(Locale.ROOT, "%8s IOPS  p50 %s  p99 %s  p99.9 %s", Figures.si(r.iops()), time(r.p50Nanos()),
                time(r.p99Nanos()), time(r.p999Nanos()));
    }

    private static String time(double ns) {
        return Double.isNaN(ns) ? "-" : Latency.time(Math.round(ns));
    }
}
