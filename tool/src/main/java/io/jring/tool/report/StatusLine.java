package io.jring.tool.report;

import java.io.PrintWriter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A line redrawn in place with {@code \r} twice a second while a run goes on, as fio's
 * status line is, and erased on {@link #close}. A daemon thread polls {@link #line} and
 * draws it; the measured code never calls into this class. Subclasses say what the line
 * shows: jring's benches ({@link LiveStatus}) and fio's eta line.
 */
public abstract class StatusLine implements AutoCloseable {

    /** Redraw period: fio's 2 Hz. */
    public static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** Where the line goes. Final; the printing itself happens under this object's monitor. */
    private final PrintWriter out;
    private final Thread ticker;
    /** Written once by close (volatile), read by the ticker at every tick. */
    private volatile boolean closed;
    /** Length of the line on screen. Ticker and close (and printAbove), under the monitor. */
    private int drawnLength;

    protected StatusLine(PrintWriter out, String threadName) {
        this.out = out;
        this.ticker = Thread.ofPlatform().daemon().name(threadName).unstarted(this::tickLoop);
    }

    /** Starts the redraws; called once the subclass is fully built. */
    protected final void startTicking() {
        ticker.start();
    }

    /**
     * The line to draw now; called by the ticker under the monitor, so a subclass may keep
     * what it needs from one tick to the next in plain fields.
     */
    protected abstract String line(long nowNanos);

    /** Prints {@code text} to {@code sink} without tearing the line, which the next tick redraws. */
    protected final synchronized void printAbove(PrintWriter sink, String text) {
        erase();
        sink.println(text);
        sink.flush();
    }

    /** Stops the redraws and erases the line. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        LockSupport.unpark(ticker);
        try {
            ticker.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            erase();
        }
    }

    private void tickLoop() {
        while (!closed) {
            LockSupport.parkNanos(this, TICK_NANOS);
            if (closed) {
                break;
            }
            synchronized (this) {
                draw();
            }
        }
    }

    private void draw() {
        String line = line(System.nanoTime());
        StringBuilder sb = new StringBuilder(line.length() + drawnLength + 1).append('\r').append(line);
        for (int i = line.length(); i < drawnLength; i++) {
            sb.append(' ');
        }
        drawnLength = line.length();
        out.print(sb);
        out.flush();
    }

    private void erase() {
        if (drawnLength > 0) {
            out.print("\r" + " ".repeat(drawnLength) + "\r");
            out.flush();
            drawnLength = 0;
        }
    }
}
