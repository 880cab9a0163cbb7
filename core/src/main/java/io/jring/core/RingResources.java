package io.jring.core;

import io.jring.sys.NativeMemory;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What a ring owns besides its queues: registered files and buffers, and the native
 * scratch its inline syscalls use (errno capture, iovecs). Touched only by the holder of
 * the ring's posting right, so plain fields; released once when the ring has closed.
 */
public final class RingResources {
    final FileTable files = new FileTable();
    final BufferTable buffers = new BufferTable();
    /**
     * Shared arena: the posting right may pass between threads (one at a time). Created by the
     * first inline syscall, so opening a ring binds no native code (issue 16, cold start).
     */
    private SysCallContext inlineSys;
    /** Grown on demand for vectors longer than the scratch's iovec array (inline side). */
    private MemorySegment largeIov;
    private Arena largeIovArena;

    /** The descriptor in a fixed-file slot, or -EBADF. */
    public int resolveFixedFile(int index) {
        return files.resolve(index);
    }

    /**
     * Resolves a FIXED_FILE request's slot into {@code req.fd} and keeps that descriptor open
     * while the request is in flight (released with the request). 0, or -EBADF.
     */
    public int useFixedFile(Request req, int index) {
        int fd = files.resolve(index);
        if (fd < 0) {
            return fd;
        }
        files.acquireUse(fd);
        req.markSideState(Request.SIDE_FIXED_FILE);
        req.fixedFd = fd;
        req.fd = fd;
        return 0;
    }

    /**
     * {@link #useFixedFile} of {@code req}'s slot where a slot without a file is not an error
     * yet: {@code req.fd} becomes -1, which the request's issue refuses with -EBADF, as
     * Linux's lookup at issue does. Used at prep and, for requests issued later, at issue.
     */
    public void lookUpFixedFile(Request req) {
        if (useFixedFile(req, req.fd) != 0) {
            req.fd = -1;
        }
    }

    /** CLOSE of fixed-file slot {@code offset} (posting right): 0, -ENXIO, -EINVAL or -EBADF. */
    public int closeFixed(int offset) {
        return files.remove(offset);
    }

    /** 0 if the range lies in registered buffer {@code index}, else -EFAULT. */
    public int checkFixedBuffer(int index, MemorySegment addr, long len) {
        return buffers.check(index, addr, len);
    }

    /** Registered buffer {@code index} exists (a NOP with FIXED_BUFFER asks). */
    public boolean hasFixedBuffer(int index) {
        return buffers.has(index);
    }

    /** The inline syscall scratch. */
    public SysCallContext inlineSys() {
        SysCallContext sc = inlineSys;
        return sc != null ? sc : createInlineSys();
    }

    private SysCallContext createInlineSys() {
        inlineSys = SysCallContext.shared();
        return inlineSys;
    }

    /**
     * An iovec array for {@code count} entries beyond the scratch's capacity: on the inline
     * side a ring-owned array grown on demand; in a worker a fresh one (rare: > 64 buffers).
     */
    public MemorySegment largeIovecs(int count, boolean inline) {
        long bytes = (long) count * Structs.Iovec.SIZE;
        if (!inline) {
            return NativeMemory.allocateAuto(bytes, 8);
        }
        if (largeIov == null || largeIov.byteSize() < bytes) {
            if (largeIovArena != null) {
                largeIovArena.close();
            }
            largeIovArena = NativeMemory.shared();
            largeIov = largeIovArena.allocate(bytes, 8);
        }
        return largeIov;
    }

    /** The ring has closed and nothing is in flight: closes duplicates and frees native memory. */
    void release() {
        files.release();
        if (inlineSys != null) {
            inlineSys.close();
        }
        if (largeIovArena != null) {
            largeIovArena.close();
            largeIovArena = null;
            largeIov = null;
        }
    }
}
