package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;

/**
 * LISTEN (Linux's io_listen): {@code listen(fd, backlog)} with the backlog in {@code len}.
 * As io_listen_prep, {@code addr}, {@code off} or {@code addr2} (one field in the kernel's
 * SQE), a buffer index, op flags or a file index fail at prep with -EINVAL; the file is
 * looked up when issued (FIXED_FILE: a slot): -EBADF, -ENOTSOCK, or listen(2)'s own error
 * (-EOPNOTSUPP on a datagram socket, -EINVAL on a connected one). Never blocks: inline.
 */
final class ListenOp extends OpDef {
    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.addr != null || req.off != 0 || req.addr2 != 0 || req.bufIndex != 0 || req.bufGroup != 0
                || req.opFlags != 0 || req.fileIndex != 0) {
            return -Errno.EINVAL;
        }
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return SocketCalls.listen(NetOps.sys(req, nonBlocking), req.fd, req.len);
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
