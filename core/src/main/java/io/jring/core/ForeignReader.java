package io.jring.core;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.tw.TaskContext;

import java.util.concurrent.locks.LockSupport;

/**
 * The CQ's reader side for a thread that is not the owner of a SINGLE_ISSUER ring, once that
 * owner has ended ({@link CompletionReader} refuses other threads with EEXIST while it lives,
 * as API.md says). Linux completes a dead task's requests through its fallback work and lets
 * any task read the CQ; here the dead owner's work runs in cancel mode (finished requests post
 * their results), DEFER_TASKRUN local work included, which Linux would leave in the ring, and
 * a waiter of any thread sees it. The reader has no posting right of its own: it brings the CQ
 * up to date by borrowing the dead owner's token.
 */
final class ForeignReader {
    /**
     * Longest park of a waiting foreign thread: the ring has one waiter slot, which the
     * owner's own waits use too, so a foreign waiter does not rely on being found there alone.
     */
    private static final long PARK_BOUND_NANOS = 10_000_000L;

    private final RingContext ring;
    private final CompletionQueue cq;
    private final LocalWorkList local;
    private final Runnable catchUpHoldingToken = this::catchUpHoldingToken;

    ForeignReader(RingContext ring) {
        this.ring = ring;
        this.cq = ring.cq;
        this.local = ring.local;
    }

    Cqe peekCqe() {
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        catchUp();
        return cq.peek();
    }

    /** Brings the CQ up to date where this thread may: the owner's work, overflow. */
    void catchUp() {
        TaskContext oc = ring.ownerContext();
        if (oc == null) {
            return;   // owner not known yet
        }
        if (oc.hasPendingWork() || cq.hasOverflow() || (local != null && !local.isEmpty())) {
            oc.tryWithToken(catchUpHoldingToken);
        }
    }

    /** Holding the owner's token: the posting right of this SINGLE_ISSUER ring. */
    private void catchUpHoldingToken() {
        TaskContext oc = ring.ownerContext();
        boolean gone = !oc.isOwnerAlive();
        if (oc.hasPendingWork()) {
            oc.runTaskWork(gone);
        }
        if (local != null && gone && !local.isEmpty()) {
            oc.runList(local.list, true);
        }
        if (cq.hasOverflow()) {
            ring.poster.flushOverflow();
        }
    }

    /** One CQE, waiting up to {@code deadline} (0 = none); null on timeout. */
    Cqe waitCqe(long deadline) {
        TaskContext me = TaskContext.current();
        for (;;) {
            Cqe c = peekCqe();
            if (c != null) {
                return c;
            }
            if (ring.closed != 0) {
                throw ring.closedException();
            }
            long park = PARK_BOUND_NANOS;
            if (deadline != 0L) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                park = Math.min(park, left);
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IoUringException(Errno.EINTR, "interrupted while waiting for completions");
            }
            // Published before the re-check; posters read it after their tail store, and
            // adders for an away owner wake it through the ring (see TaskContext).
            ring.cqWait.set(false, me);
            TaskContext oc = ring.ownerContext();
            if (cq.ready() == 0 && ring.closed == 0 && (oc == null || !oc.isAwayWithWork())) {
                LockSupport.parkNanos(ring, park);
            }
            ring.cqWait.set(false, null);
        }
    }
}
