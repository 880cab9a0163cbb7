package io.jring;

/**
 * A completion queue entry: a flyweight over one preallocated slot of the ring's CQ, valid
 * until it is consumed with {@link IoUring#cqeSeen} or {@link IoUring#forEachCqe}.
 *
 * <p>Fields are written by the thread that posts completions for the ring, then published
 * by the CQ tail's release store; the reader sees them after its acquire load of the tail.
 * Plain fields are enough because of that tail handshake.
 */
public final class Cqe {
    long userData;
    int res;
    int flags;

    Cqe() {}

    /** {@return the user data of the SQE this CQE completes (for MSG_RING's target: the message's data)} */
    public long userData() {
        return userData;
    }

    /** {@return the result: >= 0 on success (bytes moved, a descriptor, a count), or {@code -errno}} */
    public int res() {
        return res;
    }

    /** {@return the {@link CqeFlags} bits, with a selected buffer's id in the upper 16 bits} */
    public int flags() {
        return flags;
    }

    @Override
    public String toString() {
        return "Cqe[userData=" + userData + " res=" + res
                + (res < 0 ? " (" + Errno.name(res) + ")" : "") + " flags=" + flags + "]";
    }
}
