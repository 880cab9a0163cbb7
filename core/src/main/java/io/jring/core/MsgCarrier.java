package io.jring.core;

import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;

/**
 * A MSG_RING message on its way to a ring owned by another thread (seed 004): remote task
 * work on the target owner's task, which posts the target's CQE there (or installs the
 * sent file first), so the target's CQ keeps its single writer. Its {@link #target()} is
 * the target ring, so a thread owning several rings runs messages batched per ring.
 *
 * <p>Reused through the sending ring's {@link MsgCarrierCache}. The message fields are
 * plain: the sender writes them between {@code take()} and the task-list add, whose release
 * publishes them to the target's task (acquire on its take); that task reads them, clears
 * the references and gives the carrier back, whose CAS orders those accesses before the
 * sender's next writes (see {@link CarrierCacheReturned#returned}).
 */
public final class MsgCarrier extends TaskWork {
    /** The cache this carrier goes back to. */
    final MsgCarrierCache home;
    /**
     * Link in {@link #home}'s free list (sender only) or return stack (written by the
     * pusher before its CAS); see {@link MsgCarrierCache}.
     */
    MsgCarrier nextFree;

    private RingContext target;
    private long userData;
    private int res;
    private int cflags;
    /** SEND_FD: a private duplicate of the sent file to install, or -1 for a data message. */
    private int fd;
    private int dstIndex;
    private boolean skipCqe;
    /** SEND_FD: the sender's MSG_RING request, completed with the install's result (Linux's io_msg_tw_fd_complete). */
    private Request sender;

    MsgCarrier(MsgCarrierCache home) {
        this.home = home;
    }

    /** Sender, between take() and the add: the message. */
    MsgCarrier set(RingContext target, long userData, int res, int cflags, int fd, int dstIndex,
                   boolean skipCqe, Request sender) {
        this.target = target;
        this.userData = userData;
        this.res = res;
        this.cflags = cflags;
        this.fd = fd;
        this.dstIndex = dstIndex;
        this.skipCqe = skipCqe;
        this.sender = sender;
        return this;
    }

    @Override
    public TaskWorkTarget target() {
        return target;
    }

    /**
     * The target's task (or its fallback, or a shared ring's lock holder running the inbox),
     * holding its posting right: the run brackets it with the ring's lock and ends with
     * {@link MsgRingDelivery#returnCarriers}. {@code cancel}: the target's owner is gone.
     */
    @Override
    public void runTaskWork(boolean cancel) {
        deliver(cancel, true);
    }

    /**
     * Delivers the message. {@code returnWithRun}: the caller holds the target's posting
     * right and ends its run with {@link MsgRingDelivery#returnCarriers}, so the carrier goes
     * home with the run's others; else (a closing ring's leftovers) it goes home at once.
     */
    void deliver(boolean cancel, boolean returnWithRun) {
        RingContext t = target;
        Request s = sender;
        long u = userData;
        int r = res;
        int f = cflags;
        int file = fd;
        int dst = dstIndex;
        boolean skip = skipCqe;
        // No ring or request stays reachable from the cache; the runner keeps its own
        // reference to the target for endTaskRun.
        target = null;
        sender = null;
        if (returnWithRun) {
            t.msgRing.returnLater(this);   // to its home with the rest of this run (MsgRingDelivery)
        } else {
            home.giveBack(this);
        }
        int result = t.msgRing.deliverHere(u, r, f, file, dst, skip, cancel);
        if (s != null) {
            t.msgRing.remoteFdDone();
            s.ring.issuer.completeFromElsewhere(s, result, 0);
        }
    }
}
