package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

/**
 * BIND (Linux's io_bind): {@code bind(fd, addr, addrlen)} with the address copied at prep
 * ({@link SockAddrArg}: {@code addr} and its length in {@code off}, the kernel's addr2).
 * As io_bind_prep, {@code len}, a buffer index, op flags or a file index (the kernel's
 * splice_fd_in) fail at prep with -EINVAL, and so does a bad address length; the file is
 * looked up when issued (FIXED_FILE: a slot, which a linked SOCKET may have just filled):
 * -EBADF, -ENOTSOCK, or bind(2)'s own error (-EADDRINUSE, -EINVAL...). Never blocks, so it
 * runs inline.
 */
final class BindOp extends OpDef {
    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.len != 0 || req.bufIndex != 0 || req.bufGroup != 0 || req.opFlags != 0 || req.fileIndex != 0) {
            return -Errno.EINVAL;
        }
        int r = SockAddrArg.copyIn(req);
        if (r != 0) {
            return r;
        }
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        int len = SockAddrArg.load(req, sc);
        return SocketCalls.bind(sc, req.fd, sc.sockaddr(), len);
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
