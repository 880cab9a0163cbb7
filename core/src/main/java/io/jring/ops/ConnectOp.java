package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

/**
 * CONNECT (the kernel's {@code io_connect}): result 0 or -errno (-ECONNREFUSED...). The
 * address is jring's {@code InetSocketAddress} argument or, as liburing's
 * io_uring_prep_connect fills the SQE, a sockaddr at {@code addr} with its length in
 * {@code off} (the kernel's addr2), copied at prep ({@link SockAddrArg}). On an O_NONBLOCK
 * socket the attempt starts the connection, arms poll for POLLOUT on EINPROGRESS, and reads
 * SO_ERROR when the socket is writable. connect(2) has no "don't wait" flag, so a blocking
 * socket's connect runs in io-wq (the unbound account). The file is looked up when issued,
 * as Linux's: a FIXED_FILE slot a linked SOCKET fills just before is the socket connected.
 */
final class ConnectOp extends OpDef {
    /** addr3 states: the socket is blocking, non-blocking, or its connect is in progress. */
    private static final long BLOCKING = 0;
    private static final long NON_BLOCKING = 1;
    private static final long IN_PROGRESS = 2;
    /** The socket's O_NONBLOCK is read at the first attempt (its slot may be filled by then). */
    private static final long UNKNOWN = 3;

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.opFlags != 0 || req.len != 0 || req.bufIndex != 0 || req.bufGroup != 0 || req.fileIndex != 0) {
            return -Errno.EINVAL;
        }
        int r = SockAddrArg.copyIn(req);
        if (r != 0) {
            return r;
        }
        Files.resolveFd(req);
        req.addr3 = UNKNOWN;
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        if (req.addr3 == UNKNOWN) {
            classify(req, sc);
        }
        if (!nonBlocking) {
            return connect(req, sc);
        }
        if (req.addr3 == BLOCKING) {
            return -Errno.EAGAIN;   // pollMask 0: io-wq blocks for it
        }
        if (req.addr3 == IN_PROGRESS) {
            return SocketCalls.pendingError(sc, req.fd);
        }
        int r = connect(req, sc);
        if (r == -Errno.EINPROGRESS) {
            req.addr3 = IN_PROGRESS;
            return -Errno.EAGAIN;
        }
        return r;
    }

    private static int connect(Request req, SysCallContext sc) {
        int len = SockAddrArg.load(req, sc);
        return SocketCalls.connect(sc, req.fd, sc.sockaddr(), len);
    }

    private static void classify(Request req, SysCallContext sc) {
        req.addr3 = NetOps.isNonBlocking(sc, req.fd) ? NON_BLOCKING : BLOCKING;
    }

    @Override
    public int pollMask(Request req) {
        if (req.addr3 == UNKNOWN) {
            classify(req, SysCallContext.current());   // ASYNC: asked by io-wq before any attempt
        }
        return req.addr3 == BLOCKING ? 0 : NetOps.POLLOUT;
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
