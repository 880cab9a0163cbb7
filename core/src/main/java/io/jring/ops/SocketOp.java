package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;

/**
 * SOCKET: {@code socket(domain, type, protocol)} with domain in fd, type in off (its low 32
 * bits, as Linux reads it) and protocol in len, as liburing's prep fills them. Never blocks,
 * so it runs inline; result the new fd, or with a file index (slot + 1, or
 * {@code Sqe.FILE_INDEX_ALLOC}) the socket goes into the fixed-file table as OPENAT's does:
 * res 0 (the slot for ALLOC), posted in order with the submit's other CQEs. As Linux's
 * io_socket_prep, type flags other than SOCK_NONBLOCK | SOCK_CLOEXEC, SOCK_CLOEXEC into a
 * slot, addr, rw flags and a buffer index fail at prep; an unknown domain or type fails when
 * issued. FIXED_FILE is ignored (SOCKET has no file to look up).
 */
final class SocketOp extends OpDef {
    /** Linux's SOCK_TYPE_MASK: the type proper; the bits above are flags. */
    private static final int SOCK_TYPE_MASK = 0xf;

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.addr != null || req.opFlags != 0 || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        int flags = (int) req.off & ~SOCK_TYPE_MASK;
        if (req.fileIndex != 0 && (flags & SocketCalls.SOCK_CLOEXEC) != 0) {
            return -Errno.EINVAL;   // a fixed file has no descriptor for close-on-exec to apply to
        }
        return (flags & ~(SocketCalls.SOCK_NONBLOCK | SocketCalls.SOCK_CLOEXEC)) != 0 ? -Errno.EINVAL : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        boolean fixed = req.fileIndex != 0;
        int type = (int) req.off | (fixed ? SocketCalls.SOCK_CLOEXEC : 0);
        int fd = SocketCalls.socket(NetOps.sys(req, nonBlocking), req.fd, type, req.len);
        return fd >= 0 && fixed ? req.ring.resources().installDirect(req, fd, nonBlocking && !req.inWorker()) : fd;
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
