package io.jring;

/**
 * Flags of {@link Sqe#prepSplice} and {@link Sqe#prepTee}: splice(2)'s {@code SPLICE_F_*}
 * and io_uring's {@code SPLICE_F_FD_IN_FIXED}, Linux values. Any other bit fails the SQE
 * with -EINVAL.
 */
public final class Splice {
    private Splice() {}

    /** {@code SPLICE_F_MOVE}: a hint to move pages instead of copying (Linux ignores it). */
    public static final int F_MOVE = 1;
    /**
     * {@code SPLICE_F_NONBLOCK}: the pipe side does not wait: an empty input pipe or a full
     * output pipe is -EAGAIN. Without it the splice waits in io-wq, as in Linux.
     */
    public static final int F_NONBLOCK = 2;
    /** {@code SPLICE_F_MORE}: more data follows (MSG_MORE on a socket output). */
    public static final int F_MORE = 4;
    /** {@code SPLICE_F_GIFT}: for vmsplice only; accepted and ignored. */
    public static final int F_GIFT = 8;
    /** {@code SPLICE_F_FD_IN_FIXED}: the input descriptor is a fixed-file slot. */
    public static final int F_FD_IN_FIXED = 1 << 31;
}
