package io.jring.core;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.tw.TaskContext;

import java.util.concurrent.locks.LockSupport;

/**
 * The CQ's reader side for a thread that is not the owner of a SINGLE_ISSUER ring. Linux
 * lets any task read the CQ and, unless the ring is DEFER_TASKRUN, wait on it
 * ({@code io_cqring_wait}, {@code io_allowed_run_tw}); only submitting is the owner's
 * (EEXIST). Such a thread has no posting right of its own: it brings the CQ up to date by
 * borrowing the owner's token while the owner is away or asleep, as a shared ring's waiter
 * helps its submitters (jring's stand-in for the signal that makes Linux's owner run its
 * task work wherever it is), in cancel mode once the owner is gone.
 *
 * <p>A DEFER_TASKRUN ring's work is run by its owner only: another thread reads what is
 * posted, and a wait that would have to block throws EEXIST, as in Linux. Once the owner is
 * gone its fallback posts that work (Linux leaves it in the ring), and a reader that made
 * room moves overflowed CQEs in.
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
        if (oc == null || (local != null && oc.isOwnerAlive())) {
            return;   // owner not known yet; or a live owner's DEFER_TASKRUN ring: its work is the owner's
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
            if (local != null) {
                throw new IoUringException(Errno.EEXIST, "ring is DEFER_TASKRUN and owned by thread '"
                        + ring.owner().getName() + "': only the owner waits for its completions;"
                        + " other threads may read those posted (peekCqe, forEachCqe)");
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
            ring.waiter = me;
            TaskContext oc = ring.ownerContext();
            if (cq.ready() == 0 && ring.closed == 0 && (oc == null || !oc.isAwayWithWork())) {
                LockSupport.parkNanos(ring, park);
            }
            ring.waiter = null;
        }
    }
}
