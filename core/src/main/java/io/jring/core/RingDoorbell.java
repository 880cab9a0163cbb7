package io.jring.core;

import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;

/**
 * A data MSG_RING to a SINGLE_ISSUER ring from a thread that owns no ring: rung from any
 * thread, it travels as remote task work on the ring owner's task (seed 004), which posts
 * the ring's CQE there, as {@link MsgRingDelivery#send} does for a message a ring sends.
 * {@code io.jring.nio}'s group threads sleep in their ring's wait; other threads queue their
 * operations lock-free and ring this bell to wake the owner, which then takes them.
 *
 * <p>One bell carries one message at a time: the caller rings it again only after the
 * owner has seen its CQE (the nio group's armed flag guarantees that), so the intrusive
 * task-work link is never in two lists. Not public API.
 */
public final class RingDoorbell extends TaskWork {
    private final RingContext ring;
    private final long userData;

    /**
     * A bell that posts a CQE with {@code userData} and res 0 to {@code ring}.
     *
     * @param ring a SINGLE_ISSUER ring that already has its owner (it has submitted once)
     * @param userData the CQE's user data
     */
    public RingDoorbell(IoUring ring, long userData) {
        this.ring = ApiAccess.get().contextOf(ring);
        this.userData = userData;
        if (!this.ring.singleIssuer || this.ring.ownerContext() == null) {
            throw new IoUringException(io.jring.Errno.EINVAL,
                    "a doorbell needs a SINGLE_ISSUER ring whose owner has submitted once");
        }
    }

    /** Any thread but the owner: queues the message on the owner's task and wakes it. */
    public void ring() {
        TaskContext oc = ring.ownerContext();
        setCompletionWork(true);
        LocalWorkList local = ring.local;
        if (local != null) {
            local.add(this, true, oc);
        } else {
            oc.addTaskWork(this, ring.kind);
        }
    }

    @Override
    public TaskWorkTarget target() {
        return ring;
    }

    /** The owner's task, holding the ring's posting right: posts the CQE (dropped if closing). */
    @Override
    public void runTaskWork(boolean cancel) {
        ring.msgRing.deliverHere(userData, 0, 0, -1, -1, false, cancel);
    }
}
