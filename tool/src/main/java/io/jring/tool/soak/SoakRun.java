package io.jring.tool.soak;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** What the soak threads share: the deadline, each other's rings, the stop protocol, a live op count. */
final class SoakRun {
    private final long deadline;
    private SoakWorker[] workers = new SoakWorker[0];
    /** Threads still running rounds (so still sending MSG_RINGs); counted down once each. */
    private final AtomicInteger sending = new AtomicInteger();
    /** Set by a thread that failed; the others stop their rounds. */
    private volatile boolean aborted;
    private final LongAdder ops = new LongAdder();

    SoakRun(long durationNanos) {
        this.deadline = System.nanoTime() + durationNanos;
    }

    /** Before any thread starts (the array is then only read, and Thread.start publishes it). */
    void setWorkers(SoakWorker[] all) {
        this.workers = all;
        sending.set(all.length);
    }

    boolean expired() {
        return System.nanoTime() - deadline >= 0;
    }

    SoakWorker worker(int id) {
        return workers[id];
    }

    /** The ring a thread sends round {@code round}'s MSG_RING to: each other one in turn; null if alone. */
    SoakWorker peerOf(int id, long round) {
        int n = workers.length;
        return n < 2 ? null : workers[(int) ((id + 1 + round % (n - 1)) % n)];
    }

    /** A thread finished its last round: every MSG_RING it sent has its sender CQE. */
    void doneSending() {
        sending.decrementAndGet();
    }

    boolean allDoneSending() {
        return sending.get() <= 0;
    }

    void abort() {
        aborted = true;
    }

    boolean aborted() {
        return aborted;
    }

    void countOps(int n) {
        ops.add(n);
    }

    long ops() {
        return ops.sum();
    }
}
