package io.jring.core;

import io.jring.Sqe;
import io.jring.tw.TaskContext;

/**
 * The submission side's entry points (liburing's io_uring_get_sqe, io_uring_submit,
 * io_uring_submit_and_wait): who may submit, the run token around the submit loop, and the
 * wait of submitAndWait. The loop itself is {@link SubmissionQueue}.
 *
 * <p><b>Owner fast path.</b> A SINGLE_ISSUER ring's owner skips the submission claim and
 * the entry checks: getSqe is a few loads and the SQ's own work, submit enters the owner's
 * token directly. The owner is set once, by CAS from the owner itself, so a plain read that
 * returns the calling thread is exact (a thread sees its own writes); any other answer takes
 * the checked path, whose volatile reads decide.
 *
 * <p><b>Threads.</b> Any thread may call; the checks say who gets through. Holds no state of
 * its own.
 */
public final class SubmitEntry {
    private final RingContext ring;
    private final SubmissionQueue sq;
    private final boolean singleIssuer;

    SubmitEntry(RingContext ring) {
        this.ring = ring;
        this.sq = ring.sq;
        this.singleIssuer = ring.singleIssuer;
    }

    /**
     * The calling thread is this SINGLE_ISSUER ring's owner and the ring is open, by cheap
     * reads. The closed flag is read opaquely: a close ordered before this call (same thread,
     * a join) is seen; one racing with it is caught by submit's volatile read.
     */
    private boolean ownerFast() {
        return ring.ownerPlain() == Thread.currentThread() && !ring.closedOpaque();
    }

    /**
     * The calling thread takes the submission side for {@code call}: a SINGLE_ISSUER ring's
     * owner has it for good (others: EEXIST); otherwise the SQ's claim (EBUSY while another
     * thread holds it), kept from the first getSqe to the end of the submit.
     */
    private void claimSubmission(String call) {
        if (ring.closed != 0) {
            throw ring.closedException();
        }
        if (singleIssuer) {
            Thread o = ring.owner();
            if (o == Thread.currentThread()) {
                return;
            }
            if (o != null) {
                throw RingContext.notOwner(o);
            }
        }
        sq.claim.claim(call);
    }

    /** End of a submit: a shared ring's submission side is free for any thread again. */
    private void releaseSubmission() {
        if (!singleIssuer) {
            sq.claim.release();
        }
    }

    public Sqe getSqe() {
        if (!ownerFast()) {
            claimSubmission("getSqe");
        }
        return sq.next();
    }

    public int sqReady() {
        ring.checkOpen();
        return sq.ready();
    }

    public int sqSpaceLeft() {
        ring.checkOpen();
        return ring.sqEntries - sq.ready();
    }

    public int submit() {
        if (ownerFast() && ring.closed == 0) {
            // What enter() would check is known: the owner's token, entered directly.
            TaskContext tc = ring.ownerContextPlain();
            tc.enter();
            try {
                return submitEntered(tc);
            } finally {
                tc.exit();
            }
        }
        claimSubmission("submit");
        try {
            TaskContext tc = ring.enter();
            try {
                return submitEntered(tc);
            } finally {
                tc.exit();
            }
        } finally {
            releaseSubmission();
        }
    }

    /** submit's body once the run token is held: task work before and after, the SQEs. */
    private int submitEntered(TaskContext tc) {
        if (tc.hasPendingWork()) {
            tc.runTaskWork(false);
        }
        int n = sq.submitSqes(tc);
        if (tc.takeSelfQueued()) {
            tc.runTaskWork(false);   // what this submit queued for its task, as io_uring_enter's way out
        }
        return n;
    }

    /** The wait is part of the submit: the submission side stays claimed until it returns. */
    public int submitAndWait(int waitNr) {
        claimSubmission("submitAndWait");
        try {
            TaskContext tc = ring.enter();
            try {
                if (tc.hasPendingWork()) {
                    tc.runTaskWork(false);
                }
                int n = sq.submitSqes(tc);
                if (waitNr > 0) {
                    sq.claim.blocking(true);   // not handed over while it waits (SideClaim)
                    try {
                        ring.reader.waiter.waitFor(tc, waitNr, 0L, true);
                    } finally {
                        sq.claim.blocking(false);
                    }
                }
                return n;
            } finally {
                tc.exit();
            }
        } finally {
            releaseSubmission();
        }
    }
}
