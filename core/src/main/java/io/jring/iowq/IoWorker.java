package io.jring.iowq;

import java.util.concurrent.locks.LockSupport;

/**
 * One io-wq worker ({@code io_worker}): a platform daemon thread of one account that takes
 * the next runnable item, runs it blocking, and parks on the free list when the queue is
 * empty. It retires after the idle timeout without work, when its account's limit was
 * lowered below the number of workers (after its current item), or when the io-wq shuts down.
 * It dies when an Error escapes an item; its account replaces it.
 *
 * <p>Every mutable field is guarded by the account's monitor. Idle workers park with
 * {@link LockSupport} rather than a {@code Condition}, so going idle and being woken
 * allocate nothing: the waker unlinks the worker from the free list under the monitor and
 * unparks its thread; the permit makes an unpark before the park harmless.
 */
final class IoWorker implements Runnable {
    /** The worker running on this thread, for {@link IoWq#beginBlocking}; set once by run(). */
    static final ThreadLocal<IoWorker> CURRENT = new ThreadLocal<>();

    final IoWqAccount account;
    /** Final, published to other threads by the monitor that registered the worker. */
    final Thread thread;

    /**
     * The item this worker is running, or null. Written by the worker under the monitor
     * (set when taken, cleared after it ran); read by cancel under the monitor to answer
     * RUNNING.
     */
    IoWork current;

    /**
     * The hashed chain this worker owns, or null: while set, no other worker runs the key.
     * {@link #chainLeft} counts the items that were pending when the worker took the chain;
     * it runs those back to back (Linux cuts the run of a hash out of the list) and then puts
     * the key back at the tail, so later arrivals wait their turn as in Linux. Written and
     * read by {@link WorkList} under the monitor, on this worker's behalf only.
     */
    HashedWork.Chain chain;
    int chainLeft;

    /**
     * On the free list ({@code acct->free_list}). Set by the worker when it goes idle;
     * cleared, with the links, by whoever wakes it (then unparks it) or by the worker itself
     * on timeout. The parked worker reads it under the monitor after every return from park:
     * still true means a timeout or a spurious return, not a wakeup. Guarded by the monitor.
     */
    boolean free;
    /** Woken (or new) and not yet looking for work: counted in the account's waking; monitor. */
    boolean woken;
    IoWorker freeNext;
    IoWorker freePrev;

    IoWorker(IoWqAccount account, String name) {
        this.account = account;
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this);
    }

    @Override
    public void run() {
        CURRENT.set(this);
        IoWqAccount a = account;
        IoWork work = null;
        long idleDeadline = 0;
        while (true) {
            synchronized (a) {
                if (work != null) { // back from an item
                    current = work = null;
                    if (a.isSurplus()) {
                        a.workerExit(this);
                        return;
                    }
                }
                // Still free after park: a spurious return (park again below) or the timeout.
                if (free && idleDeadline - System.nanoTime() <= 0 && !a.idleExpired(this)) {
                    a.workerExit(this);
                    return;
                }
                if (!free) { // woken, timed out with work queued, or never idle
                    work = a.nextWork(this);
                    if (work != null) {
                        current = work;
                    } else if (a.isExiting() || a.isSurplus()) {
                        a.workerExit(this);
                        return;
                    } else {
                        idleDeadline = a.goIdle(this);
                    }
                }
            }
            if (work != null) {
                if (!runOne(work)) {
                    IoWorker replacement;
                    synchronized (a) {
                        current = null;
                        replacement = a.workerDied(this);
                    }
                    if (replacement != null) {
                        a.start(replacement);
                    }
                    return;
                }
            } else {
                Thread.interrupted(); // a stray interrupt must not turn parking into spinning
                LockSupport.parkNanos(this, idleDeadline - System.nanoTime());
            }
        }
    }

    /**
     * Runs one item outside the monitor; false if an Error escaped it. The item owns its
     * completion (it hands its result back through task work, even when it throws), so an
     * exception is swallowed and the worker goes on. An Error (OutOfMemoryError,
     * StackOverflowError...) leaves the thread in doubt: the worker dies, as a thread-pool
     * thread does, and its account starts another for the work queued behind it.
     */
    private static boolean runOne(IoWork work) {
        boolean survived = true;
        try {
            work.runInWorker();
        } catch (Error e) {
            survived = false;
        } catch (Throwable ignored) {
            // The work's own completion path reports failures; nothing to add here.
        }
        Thread.interrupted(); // an interrupt aimed at this item must not hit the next one
        return survived;
    }
}
