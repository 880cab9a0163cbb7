package io.jring.core;

import io.jring.tw.TaskContext;

/**
 * The threads sleeping for a ring's CQEs (the kernel's {@code cq_wait}): one waiting to reap
 * (waitCqe; close() too) and one waiting in submitAndWait, since liburing lets one thread
 * submit-and-wait while another reaps. A waiter publishes itself here, then takes its last
 * look at the CQ with {@link CompletionQueue#readyForSleep}; the poster, right after the
 * volatile tail store of {@link CompletionQueue#flush}, reads the waiters
 * ({@link #wakeIfOther}). Both sides store then load with volatile accesses, so one of them
 * sees the other (Dekker): the waiter sees the new CQEs, or the poster sees the waiter.
 */
public final class CqWait {
    /**
     * The waiting threads' contexts, or null. Each written volatile by its waiter before its
     * last look at the CQ, cleared by it after; read volatile by posters after their tail
     * store, and by threads that want a waiter's help.
     */
    private volatile TaskContext reaper;
    private volatile TaskContext submitter;

    /**
     * A waiter publishes itself ({@code submitSide}: in submitAndWait) before its last look
     * at the CQ, or clears its slot ({@code tc} null) after.
     */
    public void set(boolean submitSide, TaskContext tc) {
        if (submitSide) {
            submitter = tc;
        } else {
            reaper = tc;
        }
    }

    /**
     * Poster, after a flush that published: wakes the waiters that are not the calling
     * thread (a poster that is itself a waiter is awake). True if it woke one.
     */
    public boolean wakeIfOther() {
        boolean woke = false;
        TaskContext w = reaper;
        if (w != null && w.owner() != Thread.currentThread()) {
            w.wakeSleeper();
            woke = true;
        }
        w = submitter;
        if (w != null && w.owner() != Thread.currentThread()) {
            w.wakeSleeper();
            woke = true;
        }
        return woke;
    }

    /** Any thread: wakes both waiters (to help an away submitter, or to notice close()). */
    void wakeAll() {
        TaskContext w = reaper;
        if (w != null) {
            w.wakeSleeper();
        }
        w = submitter;
        if (w != null) {
            w.wakeSleeper();
        }
    }
}
