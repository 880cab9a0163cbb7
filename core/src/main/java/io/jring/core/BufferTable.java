package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.sys.Buffers;

import java.lang.foreign.MemorySegment;

/**
 * Registered buffers of a ring (the kernel's {@code buf_table}) for READ_FIXED and
 * WRITE_FIXED. Same threading as {@link FileTable}.
 */
final class BufferTable {
    private MemorySegment[] bufs;

    void register(MemorySegment[] segments) {
        if (bufs != null) {
            throw new IoUringException(Errno.EBUSY, "buffers are already registered; unregisterBuffers() first");
        }
        if (segments == null || segments.length == 0 || segments.length > 1 << 14) {
            throw new IoUringException(Errno.EINVAL, "registerBuffers needs 1..16384 buffers");
        }
        for (int i = 0; i < segments.length; i++) {
            int bad = Buffers.check(segments[i]);
            if (bad != 0) {
                throw new IoUringException(-bad, "buffer " + i + " is "
                        + (bad == -Errno.EINVAL ? "a heap segment; use an Arena" : "not alive"));
            }
        }
        bufs = segments.clone();
    }

    void unregister() {
        if (bufs == null) {
            throw new IoUringException(Errno.ENXIO, "no buffers registered");
        }
        bufs = null;
    }

    /**
     * 0 if [{@code addr}, {@code addr+len}) lies inside registered buffer {@code index};
     * -EFAULT otherwise (bad index, no table, or outside the buffer), as Linux.
     */
    int check(int index, MemorySegment addr, long len) {
        MemorySegment[] t = bufs;
        if (t == null || index < 0 || index >= t.length || addr == null) {
            return -Errno.EFAULT;
        }
        MemorySegment reg = t[index];
        if (!reg.scope().isAlive()) {
            return -Errno.EFAULT;
        }
        long start = reg.address();
        long a = addr.address();
        if (a < start || a + len > start + reg.byteSize()) {
            return -Errno.EFAULT;
        }
        return 0;
    }
}
