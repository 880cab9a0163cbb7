package io.jring.iowq;

import java.util.concurrent.locks.Condition;

/**
 * One io-wq worker ({@code io_worker}): a platform daemon thread of one account that takes
 * the next runnable item, runs it blocking, and goes idle when the queue is empty. It retires
 * after {@code idleTimeout} without work, when its account's limit was lowered below the
 * number of workers (after its current item), or when the io-wq shuts down.
 *
 * <p>Every mutable field is guarded by the account's lock; {@link #thread} and
 * {@link #wakeup} are final and safely published by the lock that registered the worker.
 */
final class IoWorker implements Runnable {

    final IoWqAccount account;
    final Thread thread;
    /** Signalled (under the account lock) by whoever takes this worker off the free list. */
    final Condition wakeup;

    /**
     * The item this worker is running, or null. Written by the worker under the account
     * lock (set when taken, cleared after it ran); read by {@code cancel} under the same
     * lock to answer RUNNING.
     */
    IoWork current;

    /**
     * The hashed chain this worker owns, or null: while it is set no other worker runs the
     * key. {@link #chainLeft} counts the items that were pending when the worker took the
     * chain; it runs those back to back (Linux cuts the run of a hash out of the list) and
     * then puts the key back at the tail, so later arrivals wait their turn like Linux's.
     * Both guarded by the account lock, written only by this worker.
     */
    HashedWork.Chain chain;
    int chainLeft;

    /**
     * Free-list membership and links ({@code acct->free_list}): set by the worker when it
     * goes idle, cleared by whoever wakes it (or by the worker itself on timeout). Guarded
     * by the account lock.
     */
    boolean free;
    IoWorker freeNext;
    IoWorker freePrev;

    IoWorker(IoWqAccount account, String name) {
        this.account = account;
        this.wakeup = account.lock.newCondition();
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this);
    }

    @Override
    public void run() {
        IoWqAccount a = account;
        a.lock.lock();
        try {
            while (true) {
                IoWork work = a.nextWork(this);
                if (work != null) {
                    current = work;
                    a.lock.unlock();
                    try {
                        runOne(work);
                    } finally {
                        a.lock.lock();
                        current = null;
                    }
                    if (a.isSurplus()) {
                        break;
                    }
                } else if (a.isExiting() || a.isSurplus() || !a.idle(this)) {
                    break;
                }
            }
            a.workerExit(this);
        } finally {
            a.lock.unlock();
        }
    }

    /**
     * Runs one item outside the lock. The item owns its completion (it hands its result back
     * through task work), so a Throwable escaping it is swallowed: a worker never dies of it
     * and never loses the items queued behind it.
     */
    private static void runOne(IoWork work) {
        try {
            work.runInWorker();
        } catch (Throwable ignored) {
            // The work's own completion path reports failures; nothing to add here.
        }
        // An interrupt aimed at this item must not hit the next one.
        Thread.interrupted();
    }
}
