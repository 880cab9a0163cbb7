package io.jring.tool.fio;

import io.jring.tool.report.Figures;
import io.jring.tool.report.StatusLine;

import java.io.PrintWriter;
import java.util.List;

/**
 * fio's live status line, redrawn in place with {@code \r} twice a second while the jobs run:
 * <pre>Jobs: 1 (f=1): [r(1)][45.0%][r=1234MiB/s][r=316k IOPS][eta 00m:03s]</pre>
 * Started only on a terminal with normal output (see {@link FioCommand}); erased before the
 * report. It reads the jobs' opaque progress counters; the jobs never call into it.
 * The redrawing is {@link StatusLine}'s, as for jring's benches; the line is fio's: a state,
 * a read and a write rate and IOPS.
 */
final class FioEta extends StatusLine {
    private final List<Job> jobs;
    private final JobSpec spec;

    // Status thread only, under the monitor: the last sample, for the rates.
    private final long[] last = new long[4];
    private long lastNanos;

    private FioEta(PrintWriter out, List<Job> jobs) {
        super(out, "jring-fio-eta");
        this.jobs = jobs;
        this.spec = jobs.getFirst().spec;
        this.lastNanos = System.nanoTime();
    }

    static FioEta start(PrintWriter out, List<Job> jobs) {
        FioEta eta = new FioEta(out, jobs);
        eta.startTicking();
        return eta;
    }

    @Override
    protected String line(long now) {
        long[] cur = new long[4];
        for (Job job : jobs) {
            for (int i = 0; i < 4; i++) {
                cur[i] += job.progress(i);
            }
        }
        double seconds = Math.max(1e-9, (now - lastNanos) / 1e9);
        long readBw = (long) ((cur[1] - last[1]) / seconds);
        long writeBw = (long) ((cur[3] - last[3]) / seconds);
        long readIops = (long) ((cur[0] - last[0]) / seconds);
        long writeIops = (long) ((cur[2] - last[2]) / seconds);
        System.arraycopy(cur, 0, last, 0, 4);
        lastNanos = now;

        long begun = Long.MAX_VALUE;
        for (Job job : jobs) {
            long b = job.begunNanos();
            begun = Math.min(begun, b == 0 ? Long.MAX_VALUE : b);
        }
        double fraction;
        long etaNanos;
        long elapsed = begun == Long.MAX_VALUE ? 0 : now - begun;
        if (spec.plannedNanos() > 0 && spec.timeBased()) {
            fraction = (double) elapsed / spec.plannedNanos();
            etaNanos = spec.plannedNanos() - elapsed;
        } else {
            double done = (double) (cur[1] + cur[3]) / Math.max(1, spec.ioLimit() * jobs.size());
            fraction = done;
            etaNanos = done > 0 ? (long) (elapsed / done) - elapsed : 0;
            if (spec.plannedNanos() > 0) {
                etaNanos = Math.min(etaNanos, spec.plannedNanos() - elapsed);
            }
        }
        return render(jobs.size(), spec.rw(), Math.min(0.999, Math.max(0, fraction)),
                readBw, writeBw, readIops, writeIops, etaNanos);
    }

    /** fio's eta line; the state letter is fio's: r/w/m random, R/W/M sequential. */
    static String render(int nrJobs, Rw rw, double fraction, long readBw, long writeBw, long readIops, long writeIops, long etaNanos) {
        char state = rw.isMixed() ? 'm' : rw.hasReads() ? 'r' : 'w';
        if (!rw.isRandom()) {
            state = Character.toUpperCase(state);
        }
        StringBuilder rate = new StringBuilder();
        StringBuilder iops = new StringBuilder();
        if (rw.hasReads()) {
            rate.append("r=").append(Num2Str.of(readBw, true, Num2Str.BYTE_PER_SEC));
            iops.append("r=").append(Num2Str.of(readIops, false, Num2Str.NONE));
        }
        if (rw.hasWrites()) {
            rate.append(rate.isEmpty() ? "" : ",").append("w=").append(Num2Str.of(writeBw, true, Num2Str.BYTE_PER_SEC));
            iops.append(iops.isEmpty() ? "" : ",").append("w=").append(Num2Str.of(writeIops, false, Num2Str.NONE));
        }
        return "Jobs: " + nrJobs + " (f=" + nrJobs + "): [" + state + "(" + nrJobs + ")][" + Figures.percent(fraction) + "]["
                + rate + "][" + iops + " IOPS][eta " + Figures.eta(etaNanos) + "]";
    }
}
