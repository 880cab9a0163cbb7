package io.jring.channel;

/**
 * One asynchronous channel operation on its way through a {@link GroupRing}: started by any
 * thread ({@link GroupRing#start}), then {@linkplain #issue issued} and
 * {@linkplain #complete completed} on the ring's owner thread. An operation that needs an
 * SQE takes one with {@link GroupRing#sqe} and a user data from {@link GroupRing#track};
 * the CQE for that user data comes back to {@link #complete}.
 *
 * <p>Fields of subclasses are written by the starting thread before {@link GroupRing#start}
 * and read by the owner after it took the operation off the ring's remote stack (a CAS
 * there, an acquiring swap here: the fields are published), then owner-only.
 */
public abstract class RingOp {
    /**
     * Link in the ring's remote stack (written by the pusher before its CAS publishes it) or
     * in the owner's local queue (owner-only). Plain: the CAS and the swap order it.
     */
    RingOp next;

    /** Owner-only: the slot while an SQE of this operation is in flight, else -1. */
    int slot = -1;

    /**
     * Whether this operation holds one of the group's in-flight permits (set by the starting
     * thread before {@link GroupRing#start}, read by the owner at {@link GroupRing#finish}).
     */
    boolean permitted;

    /**
     * Starting thread, before {@link GroupRing#start}: whether this operation holds a permit.
     *
     * @param permitted what {@link InFlightBudget#acquire} returned
     */
    public final void setPermitted(boolean permitted) {
        this.permitted = permitted;
    }

    /** Owner thread: prepares this operation's SQEs, or completes it at once. */
    protected abstract void issue(GroupRing ring);

    /** Owner thread: the CQE of the SQE tracked for this operation. */
    protected abstract void complete(GroupRing ring, int res);

    /**
     * Owner thread: the ring stops (its group terminated under this operation, which cannot
     * happen while its channel is open) or could not issue it: fail it. Default: completes
     * with -ECANCELED.
     */
    protected void abandon(GroupRing ring) {
        complete(ring, -io.jring.Errno.ECANCELED);
    }
}
