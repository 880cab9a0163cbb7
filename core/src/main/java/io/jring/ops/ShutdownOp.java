package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;

/**
 * SHUTDOWN: {@code shutdown(fd, how)} with how in len. It never blocks, but Linux's
 * io_shutdown_prep forces it to io-wq (REQ_F_FORCE_ASYNC), so its CQE follows those the
 * same submit posts inline; jring does the same.
 */
final class ShutdownOp extends OpDef {
    @Override
    public boolean forceAsync(Request req) {
        return true;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.off != 0 || req.addr != null || req.opFlags != 0 || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return SocketCalls.shutdown(NetOps.sys(req, nonBlocking), req.fd, req.len);
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
