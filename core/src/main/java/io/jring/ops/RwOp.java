package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.DirectFds;
import io.jring.sys.FileCalls;
import io.jring.sys.FsCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;

/**
 * Reads and writes (READ/WRITE, READ_FIXED/WRITE_FIXED, READV/WRITEV): the kernel's
 * {@code io_read}/{@code io_write}. The inline attempt is {@code preadv2/pwritev2} with
 * RWF_NOWAIT in the submitting thread (page-cache hits finish there); EAGAIN, or a file
 * without NOWAIT support, punts to io-wq where the call blocks. A partial transfer on a
 * regular file is finished in io-wq and reported as one result, as Linux does; a short
 * result at EOF (or on a pipe or socket) is reported as is. Offset -1 means the file
 * position. Buffered writes to one file are hashed so io-wq runs them serially.
 */
abstract class RwOp extends OpDef {
    /** RWF_* flags Linux accepts in {@code rw_flags}. */
    private static final int RWF_VALID = FileCalls.RWF_HIPRI | FileCalls.RWF_DSYNC | FileCalls.RWF_SYNC
            | FileCalls.RWF_NOWAIT | FileCalls.RWF_APPEND;

    final boolean write;

    RwOp(boolean write) {
        this.write = write;
    }

    @Override
    public final boolean ioprio() {
        return true;
    }

    @Override
    public final int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.ioprio != 0) {
            int bad = IoPrio.check(req.ioprio);   // Linux's io_prep_rw checks it first
            if (bad != 0) {
                return bad;
            }
        }
        if (req.len < 0) {
            return -Errno.EINVAL;
        }
        Files.resolveFd(req);
        return prepBuffers(req);
    }

    /**
     * What Linux checks when it issues a read or write, in its order: the file (looked up
     * before anything else), the buffer (provided, or registered), then, once it has the
     * file (io_rw_init_file, rw_verify_area), the rw flags and the offset. 0 to go on.
     */
    private int issueChecks(Request req, boolean nonBlocking) {
        if (req.fd < 0) {
            return -Errno.EBADF;   // no file: no buffer is taken
        }
        if (missingFixedBuffer(req)) {
            return -Errno.EFAULT;
        }
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0 && req.selectedBid < 0) {
            if (!nonBlocking || req.inWorker()) {
                // none was left when it went to io-wq (and a worker may not select)
                return Files.noBuffer(req, SysCallContext.current(), false);
            }
            io.jring.core.ProvidedBuffers buffers = req.ring.buffers();
            // A ring buffer is committed at once for a file that cannot be polled (kbuf.c
            // io_should_commit); that takes an fstat, so only for ring groups.
            int r = buffers.isRing(req.bufGroup)
                    ? buffers.select(req, req.bufGroup, req.len, canPoll(req.fd))
                    : buffers.select(req, req.bufGroup, req.len);
            if (r != 0) {
                return r == -Errno.ENOBUFS ? Files.noBuffer(req, req.sys(true), false) : r;
            }
        }
        if ((req.opFlags & ~RWF_VALID) != 0) {
            return Files.afterFileChecks(req, req.sys(nonBlocking), write, -Errno.EOPNOTSUPP);
        }
        if (req.off < -1) {
            return Files.afterFileChecks(req, req.sys(nonBlocking), write, -Errno.EINVAL);
        }
        return 0;
    }

    /** Validates the buffers; 0 or -errno (heap segment -EINVAL, dead or too small -EFAULT). */
    abstract int prepBuffers(Request req);

    /** READ_FIXED/WRITE_FIXED whose registered buffer was not found at prep (-EFAULT when issued). */
    boolean missingFixedBuffer(Request req) {
        return false;
    }

    /** Total bytes asked for. */
    abstract long length(Request req);

    /**
     * Fills {@code iov} with the buffers from byte {@code skip} on; returns the entry count,
     * or -errno if a buffer died meanwhile.
     */
    abstract int fillIovecs(Request req, MemorySegment iov, long skip);

    /** Iovec entries needed. */
    abstract int iovecCount(Request req);

    @Override
    public final void preparePunt(Request req) {
        // Only regular files are bounded work; a pipe or socket may wait forever, so it goes
        // to the unbound account (Linux's unbound_nonreg_file, io_prep_async_work). One fstat
        // answers both that and, for a buffered write, the inode it is hashed by.
        SysCallContext sc = SysCallContext.current();
        boolean regular = FsCalls.fileType(sc, req.fd) == Structs.Stat.S_IFREG;
        if (!regular) {
            req.markSideState(Request.SIDE_IO);
        }
        req.unbound = !regular;
        if (write && regular && req.hashKey == 0 && !DirectFds.isDirect(req.fd)) {
            req.markSideState(Request.SIDE_IO);
            req.hashKey = Files.inodeHashKey(sc.stat());
        }
    }

    @Override
    public final int issue(Request req, boolean nonBlocking) {
        req.pageMiss = false;
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0 || (req.opFlags & ~RWF_VALID) != 0 || req.off < -1) {
            int bad = issueChecks(req, nonBlocking);
            if (bad != 0) {
                return bad;
            }
        }
        if (nonBlocking && DirectFds.isDirect(req.fd)) {
            // O_DIRECT would wait for the device even with RWF_NOWAIT: hand it to the device
            // through native AIO, or to io-wq (vectors, file position, no AIO).
            int r = issueDirect(req);
            return r == 0 ? ISSUE_QUEUED : r;
        }
        SysCallContext sc = req.sys(nonBlocking);
        long total = length(req);
        long skip = req.done;
        MemorySegment iov = iovecsFor(req, sc, nonBlocking);
        int n = fillIovecs(req, iov, skip);
        if (n < 0) {
            return req.resultAfter(n);
        }
        long off = req.off == -1 ? -1 : req.off + skip;
        int rwf = req.opFlags;
        long r;
        if (nonBlocking) {
            r = transfer(sc, req, iov, n, off, rwf, true);
            if (r == -Errno.EOPNOTSUPP && (rwf & FileCalls.RWF_NOWAIT) == 0) {
                return -Errno.EAGAIN;   // the file cannot do NOWAIT: io-wq will block for it
            }
            if (r == -Errno.EAGAIN) {
                // A read's NOWAIT miss started the read of its pages (filemap readahead).
                req.pageMiss = !write;
                return (rwf & FileCalls.RWF_NOWAIT) != 0 ? req.resultAfter(r) : (int) r;
            }
            if (r > 0 && skip + r < total && (rwf & FileCalls.RWF_NOWAIT) == 0 && Files.isRegular(req.fd)) {
                req.markSideState(Request.SIDE_IO);
                req.done = skip + r;   // partial page-cache hit: the rest waits, or goes to io-wq
                req.pageMiss = !write;
                return -Errno.EAGAIN;
            }
        } else {
            // rwf holds RWF_NOWAIT only if the caller asked for it (the inline attempt adds its
            // own): keep it, so such a request ends with -EAGAIN here instead of blocking.
            r = transfer(sc, req, iov, n, off, rwf, false);
        }
        if (r == -Errno.EBADF && req.selectedBid >= 0 && FsCalls.getStatusFlags(sc, req.fd) == -Errno.EBADF) {
            req.selectedEarly = true;   // no such file: Linux's lookup failed before the buffer was taken
        }
        int res = req.resultAfter(r);
        if (res >= 0 && res < total) {
            req.markSideState(Request.SIDE_IO);
            req.failed = true;   // a short read or write breaks a link, as in Linux
        }
        return res;
    }

    /**
     * One preadv2/pwritev2 (the NOWAIT attempt or the blocking call). A stream (pipe,
     * socket, tty) has no position, and io_uring does not refuse one as pread(2) does: Linux
     * hands the offset to the stream's read_iter/write_iter, which ignores it (checked on
     * 6.18: a READ at offset 4096 and a WRITE at offset 100 on a pipe both transfer). So an
     * ESPIPE at any offset is retried at -1 (the stream itself) and remembered.
     */
    private long transfer(SysCallContext sc, Request req, MemorySegment iov, int n, long off, int rwf,
                          boolean nonBlocking) {
        long r = call(sc, req.fd, iov, n, off, rwf, nonBlocking);
        if (r == -Errno.ESPIPE && off >= 0) {
            req.off = -1;
            r = call(sc, req.fd, iov, n, -1, rwf, nonBlocking);
        }
        return r;
    }

    private long call(SysCallContext sc, int fd, MemorySegment iov, int n, long off, int rwf, boolean nonBlocking) {
        if (nonBlocking) {
            return write ? FileCalls.pwritev2Nowait(sc, fd, iov, n, off, rwf)
                         : FileCalls.preadv2Nowait(sc, fd, iov, n, off, rwf);
        }
        return write ? FileCalls.pwritev2(sc, fd, iov, n, off, rwf)
                     : FileCalls.preadv2(sc, fd, iov, n, off, rwf);
    }

    /** A buffered read of a regular file or block device whose NOWAIT attempt missed the page cache. */
    @Override
    public final boolean waitsForPages(Request req) {
        return req.pageMiss;
    }

    @Override
    public final boolean nowait(Request req) {
        return (req.opFlags & FileCalls.RWF_NOWAIT) != 0;
    }

    /**
     * A write's failure from the file itself (EAGAIN of RWF_NOWAIT, EPIPE, ENOSPC, EIO...)
     * completes through task work, as Linux's kiocb_done does for a negative write_iter
     * result (checked on 6.18: a NOP after it in the same submit completes first); failures
     * found before the file is asked (EBADF, EINVAL, EOPNOTSUPP) complete at once.
     */
    @Override
    public final boolean failsThroughTaskWork(Request req, int res) {
        return write && res != -Errno.EBADF && res != -Errno.EINVAL && res != -Errno.EOPNOTSUPP
                && res != -Errno.ESPIPE && res != -Errno.ENOBUFS;
    }

    /**
     * A pipe, socket or character device can be polled: a read that would block waits for
     * POLLIN (a write for POLLOUT) instead of a worker. Regular files and block devices go
     * to io-wq. One fstat, on the EAGAIN path only.
     */
    @Override
    public final int pollMask(Request req) {
        if ((req.opFlags & FileCalls.RWF_NOWAIT) != 0) {
            return 0;   // the caller wants -EAGAIN, not a wait
        }
        int type = FsCalls.fileType(SysCallContext.current(), req.fd);
        if (type == Structs.Stat.S_IFIFO || type == Structs.Stat.S_IFSOCK || type == Structs.Stat.S_IFCHR) {
            return write ? io.jring.sys.PollCalls.EPOLLOUT : io.jring.sys.PollCalls.EPOLLIN;
        }
        return 0;
    }

    /** A pipe, socket or character device (Linux's io_file_can_poll). */
    private static boolean canPoll(int fd) {
        int type = FsCalls.fileType(SysCallContext.current(), fd);
        return type == Structs.Stat.S_IFIFO || type == Structs.Stat.S_IFSOCK || type == Structs.Stat.S_IFCHR;
    }

    /** 0 if the device took it, -EAGAIN for io-wq, or -errno. */
    int issueDirect(Request req) {
        return -Errno.EAGAIN;
    }

    private MemorySegment iovecsFor(Request req, SysCallContext sc, boolean nonBlocking) {
        int count = iovecCount(req);
        if (count == 1) {
            return sc.singleIovec();
        }
        if (count <= SysCallContext.IOVEC_CAPACITY) {
            return sc.iovecs();
        }
        return req.ring.resources().largeIovecs(count, nonBlocking && !req.inWorker());
    }
}
