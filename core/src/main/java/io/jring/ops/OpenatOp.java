package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.DirectFds;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/**
 * OPENAT: path in the SQE's argument, flags in op flags, mode in len. Always in io-wq. With
 * a file index (liburing's io_uring_prep_openat_direct: slot + 1, or
 * {@code IORING_FILE_INDEX_ALLOC} for any free slot) the file goes into the fixed-file table
 * instead of being returned: res is 0 (the slot for ALLOC) or the install's -errno. jring
 * needs a descriptor for it where Linux needs none: the worker opens one close-on-exec and
 * the table takes it in the request's task (the posting right owns the table).
 */
final class OpenatOp extends OpDef {
    /** O_LARGEFILE, forced by io_uring's openat as by open(2) on 64-bit (x86_64 / aarch64 values). */
    private static final int O_LARGEFILE = "aarch64".equals(System.getProperty("os.arch")) ? 0400000 : 0100000;

    @Override
    public boolean forceAsync(Request req) {
        return true;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // As Linux: ioprio (io_init_req) and buf_index (io_openat_prep) are refused first.
        if (req.ioprio != 0 || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        if ((req.flags & SqeFlags.FIXED_FILE) != 0) {
            return -Errno.EBADF;   // as Linux: the dirfd cannot be a fixed file
        }
        if (!(req.arg instanceof String path)) {
            return -Errno.EFAULT;
        }
        if (path.length() >= SysCallContext.PATH_CAPACITY) {
            return -Errno.ENAMETOOLONG;
        }
        // A fixed file has no descriptor for close-on-exec to apply to.
        return req.fileIndex != 0 && (req.opFlags & FsCalls.O_CLOEXEC) != 0 ? -Errno.EINVAL : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (nonBlocking) {
            return -Errno.EAGAIN;
        }
        boolean fixed = req.fileIndex != 0;
        int flags = req.opFlags | O_LARGEFILE | (fixed ? FsCalls.O_CLOEXEC : 0);
        int fd = FsCalls.openat(SysCallContext.current(), req.fd, (String) req.arg, flags, req.len);
        if (fd < 0) {
            return fd;
        }
        DirectFds.opened(fd, req.opFlags);
        return fixed ? req.ring.completeOpenDirect(req, fd) : fd;
    }
}
