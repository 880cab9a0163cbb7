package io.jring.tool.bench;

import io.jring.IoUring;
import io.jring.RingStats;

import java.util.concurrent.locks.LockSupport;

/**
 * A thread that reads a ring's {@link IoUring#stats()} at a fixed period, as a metrics
 * exporter would, so a bench can show what that costs the ring's own thread.
 */
final class StatsReader implements Runnable {
    private final IoUring ring;
    private final long periodNanos;
    private final Thread thread;
    /** Set by the controller, read by the reader each period. */
    private volatile boolean stop;
    /** Reader thread only; the controller reads it after join(). */
    private long reads;
    /** Reader only: the last snapshot, kept in a field so the read is not dead code. */
    private RingStats last;

    private StatsReader(IoUring ring, long periodNanos) {
        this.ring = ring;
        this.periodNanos = periodNanos;
        this.thread = Thread.ofPlatform().name("jring-stats-reader").daemon(true).unstarted(this);
    }

    static StatsReader start(IoUring ring, int periodMs) {
        StatsReader r = new StatsReader(ring, periodMs * 1_000_000L);
        r.thread.start();
        return r;
    }

    @Override
    public void run() {
        long next = System.nanoTime();
        while (!stop) {
            last = ring.stats();
            reads++;
            next += periodNanos;
            for (long wait; !stop && (wait = next - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(this, wait);
            }
        }
    }

    /** Stops the reader and returns how many times it read the stats. Idempotent. */
    long stop() throws InterruptedException {
        stop = true;
        LockSupport.unpark(thread);
        thread.join();
        return reads;
    }
}
