package io.jring.iowq;

import io.jring.sys.ResourceLimits;
import io.jring.sys.SysCallContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * io-wq: the worker pool that runs blocking work for rings (Linux's {@code io-wq}). Work that
 * cannot complete without blocking (a regular-file read that misses the page cache, fsync,
 * openat...) is {@link #enqueue queued} here, run by a worker thread, and hands its result
 * back to its ring through task work.
 *
 * <p><b>Accounts.</b> Two, as Linux's {@code io_wq_acct}: <em>bounded</em> work (regular
 * files, block devices: its duration is bounded) and <em>unbound</em> work (sockets, pipes:
 * it may wait forever), chosen by {@link IoWork#isBoundedWork}. Each has its own queue and
 * worker limit, so unbounded waits never starve bounded work. Linux's defaults, which the
 * ring passes in: bounded {@code min(sq entries, 4 * CPUs)} ({@link #defaultMaxBounded}),
 * unbound {@code RLIMIT_NPROC} ({@link #defaultMaxUnbound}).
 *
 * <p><b>Workers</b> are platform daemon threads named {@code jring-iowq-<name>-b<n>} and
 * {@code -u<n>}. One is created when work is queued, no worker of its account is idle and
 * the account is below its limit. A worker retires after {@code idleTimeout} without work
 * (5 s by default, Linux's {@code WORKER_IDLE_TIMEOUT}; system property
 * {@code jring.iowq.idleMillis}). Unlike Linux, which keeps the last worker of an account,
 * every idle worker retires: an idle ring holds no threads.
 *
 * <p><b>Hashed work.</b> Items with the same non-zero {@link IoWork#hashKey} run one at a
 * time, in queue order (buffered writes to one inode); other items keep running on other
 * workers. A key is scoped to its account. A worker that takes a key runs the items of that
 * key queued at that moment back to back, then puts the key back in line.
 *
 * <p><b>Sharing (IORING_SETUP_ATTACH_WQ).</b> An {@code IoWq} object is a handle to a pool.
 * {@link #attach} returns a new handle to the same pool; each handle is released once by
 * {@link #release} or {@link #close} (both idempotent per handle). Releasing a handle that is
 * not the last only detaches it: the ring should first {@link #cancel} its own work. The last
 * release shuts the pool down. Enqueue through a released handle cancels the work at once.
 *
 * <p>All methods are safe from any thread. {@link #enqueue} never blocks and, once the
 * queues have grown to their working depth, allocates nothing (no per-item nodes).
 */
public final class IoWq implements AutoCloseable {

    /** Linux's {@code WORKER_IDLE_TIMEOUT}: 5 seconds. */
    public static final long DEFAULT_IDLE_MILLIS = 5_000;

    /**
     * A {@code maxUnbound} that means Linux's default, the soft RLIMIT_NPROC
     * ({@link #defaultMaxUnbound()}), read when the account first needs its limit rather than
     * when the ring opens: a ring that never blocks on unbound work makes no system call for it,
     * and the first ring of a JVM opens without binding a native call (issue 16, cold start).
     */
    public static final int UNBOUND_FROM_RLIMIT = -1;

    /** Outcome of {@link #cancel}, as Linux's {@code enum io_wq_cancel}. */
    public enum CancelResult {
        /** Nothing matched, queued or running ({@code -ENOENT}). */
        NOT_FOUND,
        /** Queued work was removed; cancelQueued was called on it ({@code 0}). */
        CANCELLED,
        /** A match is running; it was not interrupted and completes normally ({@code -EALREADY}). */
        RUNNING
    }

    /**
     * What {@link #cancel} did: {@code cancelled} queued items were removed (each got
     * cancelQueued), and {@code result} sums it up the Linux way.
     */
    public record Cancellation(CancelResult result, int cancelled) {}

    private final WorkerPool pool;

    /**
     * This handle was released. Set once by the CAS in {@link #release} (any thread); read by
     * {@link #enqueue} and {@link #attach} as a volatile load. An enqueue that races with the
     * last release is still safe: the accounts refuse or drain its work under their monitors.
     */
    private volatile boolean released;

    private static final VarHandle RELEASED;

    static {
        try {
            RELEASED = MethodHandles.lookup().findVarHandle(IoWq.class, "released", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Idle timeout from {@code jring.iowq.idleMillis}, default {@value #DEFAULT_IDLE_MILLIS} ms. */
    public IoWq(String name, int maxBounded, int maxUnbound) {
        this(name, maxBounded, maxUnbound,
                Duration.ofMillis(Long.getLong("jring.iowq.idleMillis", DEFAULT_IDLE_MILLIS)));
    }

    /**
     * @param name part of the worker threads' names
     * @param maxBounded worker limit of the bounded account, at least 1
     * @param maxUnbound worker limit of the unbound account, at least 1, or {@link #UNBOUND_FROM_RLIMIT}
     * @param idleTimeout how long a worker waits for work before it retires; positive
     */
    public IoWq(String name, int maxBounded, int maxUnbound, Duration idleTimeout) {
        if (maxBounded < 1 || (maxUnbound < 1 && maxUnbound != UNBOUND_FROM_RLIMIT)) {
            throw new IllegalArgumentException("io-wq worker limits must be >= 1, got bounded="
                    + maxBounded + " unbound=" + maxUnbound);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("io-wq idle timeout must be positive, got " + idleTimeout);
        }
        this.pool = new WorkerPool(name, maxBounded, maxUnbound, idleTimeout.toNanos());
    }

    private IoWq(WorkerPool pool) {
        this.pool = pool;
    }

    /** Linux's bounded default: {@code min(sqEntries, 4 * online CPUs)}. */
    public static int defaultMaxBounded(int sqEntries) {
        return Math.max(1, Math.min(sqEntries, 4 * Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Linux's unbound default: the soft {@code RLIMIT_NPROC} of this process (getrlimit);
     * {@link Integer#MAX_VALUE} when unlimited or unknown.
     */
    public static int defaultMaxUnbound() {
        try (SysCallContext sc = SysCallContext.confined()) {
            long soft = ResourceLimits.softLimit(sc, ResourceLimits.RLIMIT_NPROC);
            return soft < 0 ? Integer.MAX_VALUE : (int) Math.clamp(soft, 1, Integer.MAX_VALUE);
        }
    }

    /** This thread is an io-wq worker (one ThreadLocal read; for the fault seam, off the hot path). */
    public static boolean isWorkerThread() {
        return IoWorker.CURRENT.get() != null;
    }

    /**
     * Queues {@code w} on its account and wakes or creates a worker for it. Never blocks.
     * After this handle is released, or once the pool is shutting down, calls
     * {@code w.cancelQueued()} on this thread instead.
     */
    public void enqueue(IoWork w) {
        if (released) {
            w.cancelQueued();
            return;
        }
        pool.account(w.isBoundedWork()).enqueue(w);
    }

    /**
     * Sets the worker limits (IORING_REGISTER_IOWQ_MAX_WORKERS); 0 keeps a limit. Returns the
     * previous {@code {bounded, unbound}}. A lowered limit retires idle surplus workers now
     * and busy ones when their current item is done; a raised one starts workers for queued
     * work.
     *
     * @throws IllegalArgumentException if a value is negative
     */
    public int[] setMaxWorkers(int bounded, int unbound) {
        if (bounded < 0 || unbound < 0) {
            throw new IllegalArgumentException("io-wq worker limits must be >= 0 (0 = unchanged), got bounded="
                    + bounded + " unbound=" + unbound);
        }
        return new int[] {pool.bounded.setMaxWorkers(bounded), pool.unbound.setMaxWorkers(unbound)};
    }

    /**
     * Cancels queued work that {@code match} accepts: the first match only, or with
     * {@code all} every match. Removed items get {@link IoWork#cancelQueued} on this thread,
     * after the accounts' monitors are released. Running items are never interrupted here.
     * {@code match} runs under an account's monitor: keep it short, and do not call back into
     * this io-wq from it.
     *
     * <p>Result, as Linux's {@code io_wq_cancel_cb}: without {@code all}, CANCELLED if a
     * queued match was removed, else RUNNING if a match is running, else NOT_FOUND. With
     * {@code all}, RUNNING if any match is running (queued ones are still removed), else
     * CANCELLED if any was removed, else NOT_FOUND. Not a steady-state path: it allocates
     * its result.
     */
    public Cancellation cancel(Predicate<? super IoWork> match, boolean all) {
        List<IoWork> removed = new ArrayList<>(0);
        boolean[] running = {false};
        int cancelled = pool.bounded.cancel(match, all, removed, running);
        if (all || cancelled == 0) {
            cancelled += pool.unbound.cancel(match, all, removed, running);
        }
        for (IoWork w : removed) {
            w.cancelQueued();
        }
        CancelResult result;
        if (!all && cancelled > 0) {
            result = CancelResult.CANCELLED;
        } else if (running[0]) {
            result = CancelResult.RUNNING;
        } else {
            result = cancelled > 0 ? CancelResult.CANCELLED : CancelResult.NOT_FOUND;
        }
        return new Cancellation(result, cancelled);
    }

    /**
     * IORING_SETUP_ATTACH_WQ: a new handle to this io-wq's workers, released on its own.
     *
     * @throws IllegalStateException if this handle is already released
     */
    public IoWq attach() {
        if (released || !pool.tryAttach()) {
            throw new IllegalStateException("io-wq '" + pool.name
                    + "' handle is released; attach through a handle that is still open");
        }
        return new IoWq(pool);
    }

    /**
     * Releases this handle; idempotent. Returns true when it was the last handle: then the
     * io-wq has shut down (queued work cancelled, running work finished, every worker thread
     * joined) by the time this returns. Returns false when other handles remain, or when
     * this handle was already released.
     */
    public boolean release() {
        if (released || !RELEASED.compareAndSet(this, false, true)) {
            return false;
        }
        return pool.detach();
    }

    /** {@link #release}, ignoring whether it was the last handle. Idempotent. */
    @Override
    public void close() {
        release();
    }

    /** True once this handle is released (the pool may still serve other handles). */
    public boolean isReleased() {
        return released;
    }

    public String name() {
        return pool.name;
    }

    /** Live workers of both accounts (including ones being started). */
    public int workerCount() {
        return pool.bounded.workerCount() + pool.unbound.workerCount();
    }

    /** Live workers of one account. */
    public int workerCount(boolean bounded) {
        return pool.account(bounded).workerCount();
    }

    /** Workers of one account that are not idle (running an item or starting). */
    public int busyCount(boolean bounded) {
        return pool.account(bounded).busyCount();
    }

    /** Items queued in both accounts, not yet running. */
    public int queuedCount() {
        return pool.bounded.queuedCount() + pool.unbound.queuedCount();
    }

    /**
     * An item running in a worker is about to block (a blocking syscall): lets the worker's
     * account start or wake another worker for the queue meanwhile (Linux does this from its
     * scheduler hook). Call {@link #endBlocking()} after. No-op outside a worker.
     */
    public static void beginBlocking() {
        IoWorker w = IoWorker.CURRENT.get();
        if (w != null) {
            w.account.beginBlocking(w);
        }
    }

    public static void endBlocking() {
        IoWorker w = IoWorker.CURRENT.get();
        if (w != null) {
            w.account.endBlocking(w);
        }
    }
}
