package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;

/**
 * SOCKET: {@code socket(domain, type, protocol)} with domain in fd, type in off and protocol
 * in len, as liburing's prep fills them. Never blocks, so it runs inline; result the new fd.
 */
final class SocketOp extends OpDef {
    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // FIXED_FILE is ignored, as Linux's SOCKET (it has no file to look up): a plain fd results.
        if (req.opFlags != 0 || req.addr != null) {
            return -Errno.EINVAL;
        }
        if (req.off < Integer.MIN_VALUE || req.off > Integer.MAX_VALUE) {
            return -Errno.EINVAL;
        }
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return SocketCalls.socket(NetOps.sys(req, nonBlocking), req.fd, (int) req.off, req.len);
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
