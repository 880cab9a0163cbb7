package io.jring.iowq;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared part of an io-wq ({@code struct io_wq}): its two accounts and the count of
 * {@link IoWq} handles attached to it. Several rings share one pool through
 * {@link IoWq#attach}; the pool shuts down when the last handle is released.
 */
final class WorkerPool {

    final String name;
    final IoWqAccount bounded;
    final IoWqAccount unbound;

    /**
     * Open handles. Changed by attach and release from any thread with CAS/getAndAdd (the
     * one atomic step of each); once it reaches 0 it never rises again, so exactly one
     * release sees the 1 -> 0 step and runs the shutdown.
     */
    private volatile int refs = 1;

    private static final VarHandle REFS;

    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(WorkerPool.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    WorkerPool(String name, int maxBounded, int maxUnbound, long idleNanos) {
        this.name = name;
        this.bounded = new IoWqAccount("jring-iowq-" + name + "-b", maxBounded, idleNanos, false);
        this.unbound = new IoWqAccount("jring-iowq-" + name + "-u", maxUnbound, idleNanos, true);
    }

    IoWqAccount account(boolean isBounded) {
        return isBounded ? bounded : unbound;
    }

    /** Adds a handle; false when the pool has already shut down. */
    boolean tryAttach() {
        for (int r = refs; r > 0; r = refs) {
            if (REFS.compareAndSet(this, r, r + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Drops a handle; the last one shuts the pool down and returns true. */
    boolean detach() {
        if ((int) REFS.getAndAdd(this, -1) != 1) {
            return false;
        }
        shutdown();
        return true;
    }

    /**
     * Refuses new work, cancels everything queued (cancelQueued on this thread), waits for
     * running items and joins every worker. A failure of one cancelQueued does not stop the
     * others or the joins; the first is rethrown at the end.
     */
    private void shutdown() {
        List<IoWork> queued = new ArrayList<>();
        bounded.beginExit(queued);
        unbound.beginExit(queued);
        RuntimeException failure = null;
        for (IoWork w : queued) {
            try {
                w.cancelQueued();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        bounded.awaitWorkersExit();
        unbound.awaitWorkersExit();
        if (failure != null) {
            throw failure;
        }
    }
}
