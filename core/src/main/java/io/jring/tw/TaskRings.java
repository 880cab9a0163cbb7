package io.jring.tw;

import java.util.Arrays;

/**
 * The rings a task is tied to beyond its own task-work lists (the kernel's
 * {@code io_uring_task} xarray of rings): rings whose waiters may help it (shared rings it
 * submitted to, SINGLE_ISSUER rings it owns), woken when it leaves the engine with work
 * behind; and the local work lists of the DEFER_TASKRUN rings it owns, which only its task
 * runs, so once it is gone the fallback runs them ({@link TaskExit}).
 *
 * <p>Both arrays are copy-on-write: written under this object's monitor (ring setup and
 * close, rare), read with a volatile read by the task, its helpers and its fallback.
 */
public final class TaskRings {
    private static final HelperWaker[] NO_WAKERS = new HelperWaker[0];
    private static final LocalWork[] NO_LOCAL_WORK = new LocalWork[0];

    private final TaskContext ctx;
    private volatile HelperWaker[] wakers = NO_WAKERS;
    private volatile LocalWork[] localWork = NO_LOCAL_WORK;

    TaskRings(TaskContext ctx) {
        this.ctx = ctx;
    }

    HelperWaker[] wakers() {
        return wakers;
    }

    LocalWork[] localWork() {
        return localWork;
    }

    /**
     * Remembers a ring whose waiters may help this task: a shared ring it submits to, or a
     * SINGLE_ISSUER ring it owns (other threads may wait on it, as in Linux).
     */
    public synchronized void addWaker(HelperWaker ring) {
        wakers = withAdded(wakers, ring);
    }

    /** Forgets a ring (it closed). */
    public synchronized void removeWaker(HelperWaker ring) {
        wakers = withRemoved(wakers, ring);
    }

    /** The task took a DEFER_TASKRUN ring: if the task ends, the ring's local work runs on the fallback. */
    public void addLocalWork(LocalWork work) {
        synchronized (this) {
            localWork = withAdded(localWork, work);
        }
        ctx.watchExit();
    }

    /** The DEFER_TASKRUN ring closed. */
    public synchronized void removeLocalWork(LocalWork work) {
        localWork = withRemoved(localWork, work);
    }

    /** Any thread: a DEFER_TASKRUN ring of this task has work queued. */
    public boolean hasLocalWork() {
        for (LocalWork w : localWork) {
            if (!w.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Any thread, after a push that made a local list of this task's non-empty: once the task
     * is gone the fallback runs it (its exit watch may have finished already). A task that is
     * away and alive runs it when it next asks for completions, as Linux.
     */
    public void localWorkAdded() {
        if (ctx.isGoneAndFree()) {
            Fallback.schedule(ctx);
        }
    }

    private static <T> T[] withAdded(T[] cur, T item) {
        for (T t : cur) {
            if (t == item) {
                return cur;
            }
        }
        T[] next = Arrays.copyOf(cur, cur.length + 1);
        next[cur.length] = item;
        return next;
    }

    private static <T> T[] withRemoved(T[] cur, T item) {
        T[] next = Arrays.copyOf(cur, cur.length);
        int n = 0;
        for (T t : cur) {
            if (t != item) {
                next[n++] = t;
            }
        }
        return Arrays.copyOf(next, n);
    }
}
