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
 * -EBADF, -ENOTSOCK, or bind(2)'s own error (-EADDRINUSE, -EINVAL...). It runs inline,
 * except a bind that would create a file (an AF_UNIX path, not an abstract name): Linux 6.18's
 * io_bind_prep sends that one to io-wq (io_bind_file_create), whatever the descriptor.
 */
final class BindOp extends OpDef {
    private static final int AF_UNIX = 1;
    /** {@code offsetof(struct sockaddr_un, sun_path)}. */
    private static final int SUN_PATH = 2;

    @Override
    public boolean forceAsync(Request req) {
        byte[] sa = (byte[]) req.arg;
        return sa.length > SUN_PATH && ((sa[0] & 0xFF) | (sa[1] & 0xFF) << 8) == AF_UNIX && sa[SUN_PATH] != 0;
    }

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
