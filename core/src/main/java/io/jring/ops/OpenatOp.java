package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.DirectFds;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/** OPENAT: path in the SQE's argument, flags in op flags, mode in len. Always in io-wq. */
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
        if ((req.flags & SqeFlags.FIXED_FILE) != 0) {
            return -Errno.EBADF;   // as Linux: the dirfd cannot be a fixed file
        }
        if (!(req.arg instanceof String path)) {
            return -Errno.EFAULT;
        }
        if (path.length() >= SysCallContext.PATH_CAPACITY) {
            return -Errno.ENAMETOOLONG;
        }
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (nonBlocking) {
            return -Errno.EAGAIN;
        }
        int fd = FsCalls.openat(SysCallContext.current(), req.fd, (String) req.arg, req.opFlags | O_LARGEFILE, req.len);
        if (fd >= 0) {
            DirectFds.opened(fd, req.opFlags);
        }
        return fd;
    }
}
