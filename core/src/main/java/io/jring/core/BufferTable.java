package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.sys.Buffers;
import io.jring.sys.MemoryCalls;
import io.jring.sys.SysCallContext;

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
            validate(segments[i], i);
        }
        bufs = segments.clone();
    }

    /** Linux's cap on one registered buffer (io_validate_user_buf_range). */
    static final long MAX_BUFFER = 1L << 30;

    /**
     * Throws what Linux's io_buffer_validate and its page pinning refuse: NULL is a sparse
     * slot only with length 0; otherwise 1 byte to 1 GiB whose pages must all be mapped
     * (-EFAULT) and whose page-rounded end must not wrap around (-EOVERFLOW). Pinning would
     * also refuse read-only memory, which jring does not detect.
     */
    private static void validate(MemorySegment seg, int i) {
        long address = seg.address();
        long size = seg.byteSize();
        if (address == 0) {
            if (size != 0) {
                throw new IoUringException(Errno.EFAULT, "buffer " + i
                        + " is NULL with a length; use MemorySegment.NULL for an empty slot");
            }
            return;
        }
        if (size == 0 || size > MAX_BUFFER) {
            throw new IoUringException(Errno.EFAULT, "buffer " + i + " must be 1 byte to 1 GiB long");
        }
        long pageAlignedSize = (size + MemoryCalls.PAGE_SIZE - 1) & -MemoryCalls.PAGE_SIZE;
        if (Long.compareUnsigned(address + pageAlignedSize, address) < 0) {
            throw new IoUringException(Errno.EOVERFLOW, "buffer " + i + " wraps around the address space");
        }
        if (MemoryCalls.checkMapped(SysCallContext.current(), address, size) != 0) {
            throw new IoUringException(Errno.EFAULT, "buffer " + i + " is not mapped memory");
        }
    }

    void unregister() {
        if (bufs == null) {
            throw new IoUringException(Errno.ENXIO, "no buffers registered");
        }
        bufs = null;
    }

    /** Slot {@code index} holds a buffer (Linux's io_find_buf_node finds a node). */
    boolean has(int index) {
        MemorySegment[] t = bufs;
        return t != null && index >= 0 && index < t.length && !isEmpty(t[index]);
    }

    /** A sparse slot: registered as NULL (MemorySegment.NULL), which Linux keeps without a buffer. */
    private static boolean isEmpty(MemorySegment reg) {
        return reg.address() == 0;
    }

    /**
     * 0 if [{@code addr}, {@code addr+len}) lies inside registered buffer {@code index};
     * -EFAULT otherwise (bad index, no table, a sparse slot, or outside the buffer), as Linux.
     */
    int check(int index, MemorySegment addr, long len) {
        MemorySegment[] t = bufs;
        if (t == null || index < 0 || index >= t.length || addr == null) {
            return -Errno.EFAULT;
        }
        MemorySegment reg = t[index];
        if (isEmpty(reg) || !reg.scope().isAlive()) {
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
