package io.jring.core;

import io.jring.Errno;
import io.jring.ops.OpDef;
import io.jring.sys.NativeMemory;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What a ring owns besides its queues: registered files and buffers, and the native
 * scratch its inline syscalls use (errno capture, iovecs). Touched only by the holder of
 * the ring's posting right, so plain fields (an io-wq worker's {@link #installDirect} only
 * queues task work); released once when the ring has closed.
 */
public final class RingResources {
    /**
     * A descriptor an io-wq worker made for a fixed-file slot ({@code req.res}: OPENAT, SOCKET,
     * ACCEPT) goes into the table here, under the posting right, and the CQE carries the
     * install's result.
     * A cancelled request closes it instead: no descriptor may outlive its request.
     */
    static final TaskWorkFunc INSTALL_OPENED = (req, cancel) -> {
        if (cancel || req.ring.isClosing()) {
            FileTable.closeNow(req.res);
            req.res = -Errno.ECANCELED;
        } else {
            req.res = req.ring.resources().files.installOwned(req.fileIndex, req.res);
        }
        CompletionPoster.COMPLETE.run(req, cancel);
    };

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
     * A request's second registered file (SPLICE/TEE's input with SPLICE_F_FD_IN_FIXED): the
     * descriptor in slot {@code index}, kept open while the request is in flight, or -EBADF.
     */
    public int useSecondFixedFile(Request req, int index) {
        int fd = files.resolve(index);
        if (fd < 0) {
            return fd;
        }
        files.acquireUse(fd);
        req.markSideState(Request.SIDE_FIXED_FILE);
        req.fixedFdIn = fd;
        return fd;
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

    /**
     * OPENAT, SOCKET or ACCEPT with a file index: descriptor {@code fd} goes into the fixed-file
     * table as the request's file index asks (Linux's io_fixed_fd_install). {@code postingRight}:
     * the caller issues inline or retries in the request's task, so the install happens now and
     * the CQE keeps its place among the submit's: 0 (the slot for ALLOC) or the install's -errno.
     * An io-wq worker hands {@code fd} to the request's task instead ({@link #INSTALL_OPENED}),
     * and this returns {@link OpDef#ISSUE_QUEUED}.
     */
    public int installDirect(Request req, int fd, boolean postingRight) {
        if (postingRight) {
            return files.installOwned(req.fileIndex, fd);
        }
        req.ring.issuer.completeInTask(req, fd, req.cflags, INSTALL_OPENED, true, true);
        return OpDef.ISSUE_QUEUED;
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

    /** Room of {@link #msgBlock}: a msghdr copy, a multishot's name and control sizes, one iovec, a sockaddr_storage. */
    public static final long MSG_BLOCK_SIZE = 56 + 16 + 16 + 128;
    /** Where the msgBlocks live; created on first use. */
    private Arena msgArena;

    /**
     * A request's msghdr room ({@code Request.msgBlock}), made once per pooled request. Posting
     * right (prep runs under it), so plain fields.
     */
    public MemorySegment msgBlock(Request req) {
        MemorySegment b = req.msgBlock;
        return b != null ? b : newMsgBlock(req);
    }

    /** Locked although prep holds the posting right: first use per request only, so it costs nothing later. */
    private synchronized MemorySegment newMsgBlock(Request req) {
        if (msgArena == null) {
            msgArena = NativeMemory.shared();
        }
        MemorySegment b = msgArena.allocate(MSG_BLOCK_SIZE, 8);
        req.msgBlock = b;
        return b;
    }

    /** The ring has closed and nothing is in flight: closes duplicates and frees native memory. */
    void release() {
        files.release();
        if (inlineSys != null) {
            inlineSys.close();
        }
        if (msgArena != null) {
            msgArena.close();
            msgArena = null;
        }
        if (largeIovArena != null) {
            largeIovArena.close();
            largeIovArena = null;
            largeIov = null;
        }
    }
}
