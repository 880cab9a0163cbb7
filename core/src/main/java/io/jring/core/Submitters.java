package io.jring.core;

import io.jring.tw.TaskContext;

import java.util.Arrays;

/**
 * The tasks that use a ring (Linux's ctx->tctx_list, tctx.c's io_uring_add_tctx_node and
 * io_uring_del_tctx_node): a shared ring's submitters, which its waiters help and close()
 * drains, and the ties each task keeps back to the ring ({@link TaskContext#rings()}: a
 * ring whose waiters may help it, a DEFER_TASKRUN ring's local work) until the ring closes.
 * A SINGLE_ISSUER ring's one task is its owner ({@link RingContext#ownerContext()}).
 */
final class Submitters {
    private static final TaskContext[] NONE = new TaskContext[0];

    private final RingContext ring;
    /** Shared rings: contexts that submitted here (copy-on-write, under this). Waiters help them. */
    volatile TaskContext[] tasks = NONE;
    /** Shared rings: the context that submitted last (fast path of {@link #add}); plain, racy-benign. */
    private TaskContext last;

    Submitters(RingContext ring) {
        this.ring = ring;
    }

    /** A shared ring's entry by {@code tc}: listed once, and tied to the ring. */
    void add(TaskContext tc) {
        if (last != tc) {
            register(tc);
        }
    }

    private synchronized void register(TaskContext tc) {
        last = tc;
        TaskContext[] cur = tasks;
        for (TaskContext c : cur) {
            if (c == tc) {
                return;
            }
        }
        TaskContext[] next = Arrays.copyOf(cur, cur.length + 1);
        next[cur.length] = tc;
        tasks = next;
        tc.rings().addWaker(ring);
    }

    /** A SINGLE_ISSUER ring got its owner {@code oc}: tied to it, as a shared ring's submitter is. */
    void addOwner(TaskContext oc) {
        oc.rings().addWaker(ring);   // other threads may wait here and help it
        if (ring.local != null) {
            oc.rings().addLocalWork(ring.local);
        }
    }

    /** close(), once nothing is in flight: no task is tied to the ring any more. */
    void removeAll() {
        for (TaskContext c : tasks) {
            c.rings().removeWaker(ring);
        }
        TaskContext oc = ring.ownerContext();
        if (oc != null) {
            oc.rings().removeWaker(ring);
            if (ring.local != null) {
                oc.rings().removeLocalWork(ring.local);
            }
        }
        tasks = NONE;
    }
}
