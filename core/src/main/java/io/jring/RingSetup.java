package io.jring;

import io.jring.core.RingContext;
import io.jring.core.RingParams;

import java.time.Duration;
import java.util.Objects;

/**
 * What an {@link IoUring.Builder} was told, and the checks Linux's io_uring_setup makes of
 * it (sizes, flags, ATTACH_WQ) before a ring exists. Confined to the builder's thread.
 */
final class RingSetup {
    static final long DEFAULT_WAIT_SPIN_NANOS = IoUring.DEFAULT_WAIT_SPIN.toNanos();
    private static final Duration MAX_WAIT_SPIN = Duration.ofSeconds(1);

    int entries = 64;
    /** Linux's IORING_SETUP_CQSIZE: only a size asked for is checked (0 then is EINVAL, as in Linux). */
    boolean cqSizeGiven;
    int cqEntries;
    int flags;
    TaskWorkKind kind = TaskWorkKind.MPSC;
    IoUring attachWq;
    boolean legacyAsync;
    boolean legacyMsgRing;
    boolean callerCompletion;
    long waitSpinNanos = DEFAULT_WAIT_SPIN_NANOS;

    /**
     * {@return the checked setup, sizes rounded as Linux rounds them}
     *
     * @throws IoUringException EINVAL for bad sizes or flags, EBADFD if the ring to attach to is closed
     */
    RingParams params() {
        if ((flags & ~Setup.VALID) != 0) {
            throw new IoUringException(Errno.EINVAL, "unknown setup flags 0x"
                    + Integer.toHexString(flags & ~Setup.VALID));
        }
        boolean clamp = (flags & Setup.CLAMP) != 0;
        if (entries <= 0) {
            throw new IoUringException(Errno.EINVAL, "entries must be > 0, got " + entries);
        }
        int sq = entries;
        if (sq > IoUring.MAX_ENTRIES) {
            if (!clamp) {
                throw new IoUringException(Errno.EINVAL, "entries " + entries + " > " + IoUring.MAX_ENTRIES
                        + " (use Setup.CLAMP to clamp)");
            }
            sq = IoUring.MAX_ENTRIES;
        }
        sq = roundUpPow2(sq);
        int cq = cqSizeGiven ? checkedCqEntries(sq, clamp) : 2 * sq;
        if ((flags & Setup.DEFER_TASKRUN) != 0 && (flags & Setup.SINGLE_ISSUER) == 0) {
            throw new IoUringException(Errno.EINVAL, "DEFER_TASKRUN requires SINGLE_ISSUER");
        }
        RingContext attach = null;
        if ((flags & Setup.ATTACH_WQ) != 0) {
            if (attachWq == null) {
                throw new IoUringException(Errno.EINVAL, "ATTACH_WQ needs attachWq(ring)");
            }
            attach = attachWq.ctx;
            if (attach.isClosing()) {
                throw new IoUringException(Errno.EBADFD, "attachWq target ring is closed");
            }
        }
        return new RingParams(sq, cq, flags, kind, attach, legacyAsync, legacyMsgRing,
                callerCompletion, waitSpinNanos);
    }

    private int checkedCqEntries(int sq, boolean clamp) {
        if (cqEntries <= 0) {
            throw new IoUringException(Errno.EINVAL, "cqEntries must be > 0, got " + cqEntries);
        }
        int cq = cqEntries;
        if (cq > IoUring.MAX_CQ_ENTRIES) {
            if (!clamp) {
                throw new IoUringException(Errno.EINVAL, "cqEntries " + cqEntries + " > "
                        + IoUring.MAX_CQ_ENTRIES + " (use Setup.CLAMP to clamp)");
            }
            cq = IoUring.MAX_CQ_ENTRIES;
        }
        cq = roundUpPow2(cq);
        if (cq < sq) {
            throw new IoUringException(Errno.EINVAL, "cqEntries (" + cq
                    + " after rounding) must be >= entries (" + sq + ")");
        }
        return cq;
    }

    /** {@return {@code limit} in nanoseconds, checked as {@link IoUring.Builder#waitSpin} says} */
    static long checkedWaitSpin(Duration limit) {
        Objects.requireNonNull(limit, "limit");
        if (limit.isNegative() || limit.compareTo(MAX_WAIT_SPIN) > 0) {
            throw new IoUringException(Errno.EINVAL, "waitSpin must be between 0 and 1 s, got " + limit);
        }
        return limit.toNanos();
    }

    private static int roundUpPow2(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
