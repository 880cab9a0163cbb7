package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

/**
 * ACCEPT (the kernel's {@code io_accept}): {@code accept4(fd, NULL, NULL, flags)}, the result
 * the new fd. Without a connection waiting it arms poll (POLLIN) on the listening socket.
 * With {@code ACCEPT_MULTISHOT} in ioprio it accepts every waiting connection, one CQE with
 * {@code MORE} each, and stays armed; an error ends it (its CQE has no MORE).
 *
 * <p>accept4 has no "don't wait" flag, so on a blocking listening socket the attempt first
 * asks poll(2) whether a connection waits (Linux forces O_NONBLOCK for the attempt instead).
 */
final class AcceptOp extends OpDef {
    /** accept4 flags io_uring passes on: SOCK_NONBLOCK | SOCK_CLOEXEC. */
    private static final int VALID_FLAGS = SocketCalls.SOCK_NONBLOCK | SocketCalls.SOCK_CLOEXEC;

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if ((req.opFlags & ~VALID_FLAGS) != 0 || (req.ioprio & ~Sqe.ACCEPT_MULTISHOT) != 0
                || req.len != 0 || req.off != 0 || req.addr != null) {
            return -Errno.EINVAL;
        }
        Files.resolveFdAtPrep(req);
        // addr3: 1 if the listening socket is O_NONBLOCK (its accept4 cannot block), -1 if
        // the fd is no socket at all (poll would never report it ready).
        SysCallContext sc = req.ring.resources().inlineSys();
        int type = io.jring.sys.FsCalls.fileType(sc, req.fd);
        if (type < 0) {
            req.addr3 = NO_FILE;   // fails when issued, as Linux's: submission goes on
            return 0;
        }
        if (type != io.jring.sys.Structs.Stat.S_IFSOCK) {
            req.addr3 = NOT_A_SOCKET;
        } else {
            req.addr3 = NetOps.isNonBlocking(sc, req.fd) ? 1 : 0;
        }
        return 0;
    }

    private static final long NOT_A_SOCKET = -1;
    private static final long NO_FILE = -2;

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (!multishot(req)) {
            return acceptOnce(req, nonBlocking);
        }
        for (;;) {
            int r = acceptOnce(req, true);
            if (r < 0) {
                return r;   // -EAGAIN: (stay) armed; else the final CQE
            }
            req.postMore(r, 0);
        }
    }

    private static int acceptOnce(Request req, boolean nonBlocking) {
        if (req.addr3 == NOT_A_SOCKET) {
            return -Errno.ENOTSOCK;
        }
        if (req.addr3 == NO_FILE) {
            return -Errno.EBADF;
        }
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        if (nonBlocking && req.addr3 == 0 && !NetOps.readyNow(sc, req.fd, NetOps.POLLIN)) {
            return -Errno.EAGAIN;
        }
        int r = SocketCalls.accept4(sc, req.fd, req.opFlags);
        return r;
    }

    private static boolean multishot(Request req) {
        return (req.ioprio & Sqe.ACCEPT_MULTISHOT) != 0;
    }

    @Override
    public int pollMask(Request req) {
        return NetOps.POLLIN;
    }

    @Override
    public boolean pollMultishot(Request req) {
        return multishot(req);
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
