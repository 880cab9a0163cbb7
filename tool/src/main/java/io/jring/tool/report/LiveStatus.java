package io.jring.tool.report;

import java.io.Console;
import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * fio's one-line live status for long runs: progress, current rate and ETA, redrawn in
 * place with {@code \r} about twice a second, e.g.
 * <pre>jring: [nop MPSC batch=32][45.1%][31.25M ops/s][eta 00m:03s]</pre>
 * Only on a terminal: when stdout is a pipe or a file, or the output is JSON, it prints
 * nothing and starts no thread, so logs and scripts see only the results.
 *
 * <p>The bench publishes what it has done through a {@link LongSupplier} that the status
 * thread polls (the bench's own counter, read opaque or volatile); the hot loop never
 * calls into this class.
 */
public final class LiveStatus extends StatusLine {

    private static final LiveStatus OFF = new LiveStatus(null, 0L);

    /** False for {@link #OFF}, which draws nothing and starts no thread. */
    private final boolean enabled;
    private final long plannedNanos;
    private final long startNanos;

    // Current phase: written by the bench thread (volatile), read by the status thread.
    private volatile String label = "";
    private volatile String unit = "ops/s";
    private volatile LongSupplier done = () -> 0L;

    // Status thread only, under the monitor: the last sample, for the rate.
    private long lastCount;
    private long lastNanos;
    private LongSupplier lastSource;

    private LiveStatus(PrintWriter out, long plannedNanos) {
        super(out, "jring-status");
        this.enabled = out != null;
        this.plannedNanos = Math.max(1L, plannedNanos);
        this.startNanos = System.nanoTime();
    }

    /** True when stdout is an interactive terminal (JDK 22+: a Console exists even when it is not). */
    public static boolean stdoutIsTerminal() {
        Console c = System.console();
        return c != null && c.isTerminal();
    }

    /**
     * Starts the status line for a run expected to take {@code plannedNanos} in all, if
     * {@code enabled}; otherwise returns an instance that only forwards {@link #println}.
     */
    public static LiveStatus start(PrintWriter out, boolean enabled, long plannedNanos) {
        if (!enabled) {
            return OFF;
        }
        LiveStatus s = new LiveStatus(out, plannedNanos);
        s.startTicking();
        return s;
    }

    public boolean isEnabled() {
        return enabled;
    }

    /** What is being measured now and its running count (ops, items...); resets the rate. */
    public void phase(String label, String unit, LongSupplier done) {
        this.unit = unit;
        this.label = label;
        this.done = done;
    }

    /** Prints a result line to {@code sink} without tearing the status line (which is redrawn on the next tick). */
    public void println(PrintWriter sink, String line) {
        if (!enabled) {
            sink.println(line);
            sink.flush();
            return;
        }
        printAbove(sink, line);
    }

    /** Stops the updates and erases the line. */
    @Override
    public void close() {
        if (enabled) {
            super.close();
        }
    }

    @Override
    protected String line(long now) {
        LongSupplier source = done;
        long count = source.getAsLong();
        double rate = 0.0;
        if (source == lastSource && now > lastNanos) {
            rate = (count - lastCount) * 1e9 / (now - lastNanos);
        }
        lastSource = source;
        lastCount = count;
        lastNanos = now;
        long elapsed = now - startNanos;
        double fraction = Math.min(0.999, (double) elapsed / plannedNanos);
        return render(label, fraction, rate, unit, plannedNanos - elapsed);
    }

    /** One status line: {@code jring: [label][45.1%][31.25M ops/s][eta 00m:03s]}. */
    static String render(String label, double fraction, double rate, String unit, long etaNanos) {
        return "jring: [" + label + "][" + Figures.percent(Math.max(0.0, fraction)) + "]["
                + Figures.si(rate) + " " + unit + "][eta " + Figures.eta(etaNanos) + "]";
    }
}
