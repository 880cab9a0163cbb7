package io.jring.core;

import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;

/**
 * A MSG_RING message on its way to a ring owned by another thread (seed 004): remote task
 * work on the target owner's task, which posts the target's CQE there (or installs the
 * sent file first), so the target's CQ keeps its single writer. Its {@link #target()} is
 * the target ring, so a thread owning several rings runs messages batched per ring. Built
 * by the sender, handed over through the task list (release/acquire), then owned by the
 * target's task: plain fields.
 */
final class MsgCarrier extends TaskWork {
    private final RingContext target;
    private final long userData;
    private final int res;
    private final int cflags;
    /** SEND_FD: a private duplicate of the sent file to install, or -1 for a data message. */
    private final int fd;
    private final int dstIndex;
    private final boolean skipCqe;

    MsgCarrier(RingContext target, long userData, int res, int cflags, int fd, int dstIndex, boolean skipCqe) {
        this.target = target;
        this.userData = userData;
        this.res = res;
        this.cflags = cflags;
        this.fd = fd;
        this.dstIndex = dstIndex;
        this.skipCqe = skipCqe;
    }

    @Override
    public TaskWorkTarget target() {
        return target;
    }

    /** The target's task, holding its posting right (the run brackets it with the ring's lock). */
    @Override
    public void runTaskWork(boolean cancel) {
        target.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, cancel);
    }
}
