package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.CallerCompletions;
import io.jring.core.Request;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/**
 * FTRUNCATE (Linux 6.9's io_uring/truncate.c): ftruncate(2) of the file to the SQE's
 * {@code off}; every other argument field must be 0 (-EINVAL). Always in io-wq, as Linux
 * forces it async. Linux's answers then follow from ftruncate itself: -EINVAL for a negative
 * length, a file not open for writing or not a regular file, -EBADF for a bad fd, -EPERM for
 * an append-only inode, -EFBIG past the file-size limit; O_APPEND does not matter. Those
 * errors do not break a link, and CQE_SKIP_SUCCESS hides them, as in Linux (no req_set_fail).
 */
final class FtruncateOp extends OpDef {
    @Override
    public boolean forceAsync(Request req) {
        return true;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.opFlags != 0 || req.addr != null || req.len != 0 || req.bufIndex != 0 || req.bufGroup != 0
                || req.fileIndex != 0 || req.addr3 != 0) {
            return -Errno.EINVAL;
        }
        Files.resolveFd(req);
        return 0;
    }

    /** Linux sets ftruncate's error as the result without failing the request; only a file it could not get (-EBADF) fails. */
    @Override
    public boolean errorIsResult(Request req, int res) {
        return res != -Errno.EBADF;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (nonBlocking) {
            return -Errno.EAGAIN;
        }
        CallerCompletions.awaitDirectIdle(req.fd);   // the file's direct I/O in flight lands first, as with FSYNC
        return FsCalls.ftruncate(SysCallContext.current(), req.fd, req.off);
    }
}
