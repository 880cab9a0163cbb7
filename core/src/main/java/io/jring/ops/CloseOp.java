package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.CallerCompletions;
import io.jring.core.Request;
import io.jring.sys.DirectFds;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/** CLOSE of a plain descriptor. Always in io-wq (a final close may flush and block). */
final class CloseOp extends OpDef {
    @Override
    public boolean forceAsync(Request req) {
        return true;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.off != 0 || req.addr != null || req.len != 0 || req.opFlags != 0) {
            return -Errno.EINVAL;
        }
        // As Linux's io_close_prep: stray fields are -EINVAL, a fixed-file close -EBADF.
        return (req.flags & SqeFlags.FIXED_FILE) != 0 ? -Errno.EBADF : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (nonBlocking) {
            return -Errno.EAGAIN;
        }
        CallerCompletions.awaitDirectIdle(req.fd);   // a worker holds no caller completions: it only waits
        DirectFds.closed(req.fd);
        return FsCalls.close(SysCallContext.current(), req.fd);
    }
}
