package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;

import java.net.InetSocketAddress;

/**
 * CONNECT (the kernel's {@code io_connect}): result 0 or -errno (-ECONNREFUSED...). On an
 * O_NONBLOCK socket the attempt starts the connection, arms poll for POLLOUT on
 * EINPROGRESS, and reads SO_ERROR when the socket is writable. connect(2) has no "don't
 * wait" flag, so a blocking socket's connect runs in io-wq (the unbound account).
 */
final class ConnectOp extends OpDef {
    /** addr3 states: the socket is blocking, non-blocking, or its connect is in progress. */
    private static final long BLOCKING = 0;
    private static final long NON_BLOCKING = 1;
    private static final long IN_PROGRESS = 2;

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (!(req.arg instanceof InetSocketAddress a) || a.isUnresolved()) {
            return -Errno.EINVAL;
        }
        if (req.opFlags != 0 || req.len != 0 || req.addr != null || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        Files.resolveFdAtPrep(req);
        req.addr3 = NetOps.isNonBlocking(req.ring.resources().inlineSys(), req.fd) ? NON_BLOCKING : BLOCKING;
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        InetSocketAddress address = (InetSocketAddress) req.arg;
        if (!nonBlocking) {
            return SocketCalls.connect(NetOps.sys(req, false), req.fd, address);
        }
        if (req.addr3 == BLOCKING) {
            return -Errno.EAGAIN;   // pollMask 0: io-wq blocks for it
        }
        if (req.addr3 == IN_PROGRESS) {
            return SocketCalls.pendingError(NetOps.sys(req, true), req.fd);
        }
        int r = SocketCalls.connect(NetOps.sys(req, true), req.fd, address);
        if (r == -Errno.EINPROGRESS) {
            req.addr3 = IN_PROGRESS;
            return -Errno.EAGAIN;
        }
        return r;
    }

    @Override
    public int pollMask(Request req) {
        return req.addr3 == BLOCKING ? 0 : NetOps.POLLOUT;
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
