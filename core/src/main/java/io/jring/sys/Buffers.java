package io.jring.sys;

import io.jring.Errno;

import java.lang.foreign.MemorySegment;

/**
 * Validation of user segments before their address reaches native code, so a bad buffer is
 * a CQE with {@code -errno}, never a JVM crash. Engine code calls it before handing a user
 * segment (or its raw address, e.g. in an iovec) to any syscall.
 */
public final class Buffers {
    private Buffers() {}

    /**
     * 0 if {@code seg} may be given to the kernel; {@code -EINVAL} for a heap segment (the
     * kernel needs a stable address); {@code -EFAULT} for null, a segment whose arena is
     * closed, or one confined to another thread (the linker would refuse it too).
     */
    public static int check(MemorySegment seg) {
        if (seg == null) {
            return -Errno.EFAULT;
        }
        if (!seg.isNative()) {
            return -Errno.EINVAL;
        }
        if (!seg.scope().isAlive() || !seg.isAccessibleBy(Thread.currentThread())) {
            return -Errno.EFAULT;
        }
        return 0;
    }

    /**
     * As {@link #check(MemorySegment)}, and the kernel may touch {@code len} bytes from its
     * start: a negative length is {@code -EINVAL}, one beyond the segment {@code -EFAULT}
     * (the kernel would write outside the caller's memory).
     */
    public static int check(MemorySegment seg, long len) {
        int bad = check(seg);
        if (bad != 0) {
            return bad;
        }
        if (len < 0) {
            return -Errno.EINVAL;
        }
        return len <= seg.byteSize() ? 0 : -Errno.EFAULT;
    }
}
