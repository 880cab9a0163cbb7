package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SysCallContext;

/**
 * ACCEPT (the kernel's {@code io_accept}): {@code accept4(fd, NULL, NULL, flags)}, the result
 * the new fd. Without a connection waiting it arms poll (POLLIN) on the listening socket.
 * With {@code ACCEPT_MULTISHOT} in ioprio it accepts every waiting connection, one CQE with
 * {@code MORE} each, and stays armed; an error ends it (its CQE has no MORE). A CQE of a
 * TCP listener has {@code SOCK_NONEMPTY} when more connections wait.
 *
 * With a file index (slot + 1, or {@code Sqe.FILE_INDEX_ALLOC}) the connection goes into the
 * fixed-file table instead, as Linux's io_fixed_fd_install: res 0, the slot for ALLOC, or
 * -ENXIO / -ENFILE / -EINVAL (the connection is used up then); a multishot accept must ALLOC.
 *
 * {@code ACCEPT_DONTWAIT} makes "no connection waiting" the result (-EAGAIN) instead of a
 * wait; {@code ACCEPT_POLL_FIRST} waits for readiness before the first attempt (with
 * DONTWAIT, that is -EAGAIN at once: Linux 6.18 makes no attempt then).
 *
 * <p>accept4 has no "don't wait" flag, so on a blocking listening socket the attempt first
 * asks poll(2) whether a connection waits (Linux forces O_NONBLOCK for the attempt instead).
 */
final class AcceptOp extends OpDef {
    /** accept4 flags io_uring passes on: SOCK_NONBLOCK | SOCK_CLOEXEC. */
    private static final int VALID_FLAGS = SocketCalls.SOCK_NONBLOCK | SocketCalls.SOCK_CLOEXEC;
    /** IORING_ACCEPT_DONTWAIT and IORING_ACCEPT_POLL_FIRST, in ioprio. */
    static final int DONTWAIT = 1 << 1;
    static final int POLL_FIRST = 1 << 2;
    private static final int IOPRIO_FLAGS = Sqe.ACCEPT_MULTISHOT | DONTWAIT | POLL_FIRST;

    @Override
    public boolean ioprio() {
        return true;   // ioprio holds the accept flags
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if ((req.opFlags & ~VALID_FLAGS) != 0 || (req.ioprio & ~IOPRIO_FLAGS) != 0
                || req.len != 0 || req.off != 0 || req.addr != null || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        if (req.fileIndex != 0 && ((req.opFlags & SocketCalls.SOCK_CLOEXEC) != 0
                || (multishot(req) && req.fileIndex != Sqe.FILE_INDEX_ALLOC))) {
            return -Errno.EINVAL;   // a slot has no close-on-exec; a multishot one needs a new slot each time
        }
        // Looked up when issued, as Linux's: a slot a linked SOCKET fills first counts.
        Files.resolveFd(req);
        req.addr3 = UNKNOWN;
        return 0;
    }

    /**
     * addr3, set at the first attempt: 1 if the listening socket is O_NONBLOCK (its accept4
     * cannot block), 0 if blocking, -1 if the fd is no socket at all (poll would never report
     * it ready), -2 if there is no file (the request fails when issued: submission goes on).
     */
    private static final long NOT_A_SOCKET = -1;
    private static final long NO_FILE = -2;
    private static final long UNKNOWN = -3;

    private static void classify(Request req, SysCallContext sc) {
        int type = io.jring.sys.FsCalls.fileType(sc, req.fd);
        if (type < 0) {
            req.addr3 = NO_FILE;
        } else if (type != io.jring.sys.Structs.Stat.S_IFSOCK) {
            req.addr3 = NOT_A_SOCKET;
        } else {
            req.addr3 = NetOps.isNonBlocking(sc, req.fd) ? 1 : 0;
        }
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (req.addr3 == UNKNOWN) {
            classify(req, req.sys(nonBlocking));
        }
        int flags = req.ioprio;
        if ((flags & POLL_FIRST) != 0) {
            if ((flags & DONTWAIT) != 0) {
                return -Errno.EAGAIN;   // no attempt and no wait: the result, also from io-wq
            }
            req.ioprio = flags & ~POLL_FIRST;   // wait for readiness first, then accept as usual
            return -Errno.EAGAIN;
        }
        if (!nonBlocking && (flags & DONTWAIT) != 0) {
            // In io-wq only to report "nothing waiting" (pollMask 0): one attempt that does not
            // wait, with this thread's scratch. A multishot one found nothing inline already
            // and cannot post more CQEs from here.
            return multishot(req) ? -Errno.EAGAIN : acceptOnce(req, true, SysCallContext.current(), false);
        }
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        boolean inTask = nonBlocking && !req.inWorker();
        if (!multishot(req)) {
            return acceptOnce(req, nonBlocking, sc, inTask);
        }
        for (;;) {
            int r = acceptOnce(req, true, sc, true);
            if (r < 0) {
                return r;   // -EAGAIN: (stay) armed; else the final CQE
            }
            req.postMore(r, req.cflags);
        }
    }

    /**
     * One accept4. With a file index the connection goes into the fixed-file table (res 0, or
     * the slot for FILE_INDEX_ALLOC, or the install's -errno, the connection then closed: it
     * was taken from the queue, as in Linux); at once when {@code inTask} (the posting right).
     */
    private static int acceptOnce(Request req, boolean nonBlocking, SysCallContext sc, boolean inTask) {
        req.cflags = 0;
        if (req.addr3 == NOT_A_SOCKET) {
            return -Errno.ENOTSOCK;
        }
        if (req.addr3 == NO_FILE) {
            return -Errno.EBADF;
        }
        if (nonBlocking && req.addr3 == 0 && !NetOps.readyNow(sc, req.fd, NetOps.POLLIN)) {
            return -Errno.EAGAIN;
        }
        boolean direct = req.fileIndex != 0;
        int r = SocketCalls.accept4(sc, req.fd, direct ? req.opFlags | SocketCalls.SOCK_CLOEXEC : req.opFlags);
        req.cflags = r >= 0 ? moreWaiting(sc, req.fd) : 0;
        return r >= 0 && direct ? req.ring.resources().installDirect(req, r, inTask) : r;
    }

    /**
     * SOCK_NONEMPTY when more connections wait: Linux 6.18 sets it from the accept queue of
     * TCP listeners (inet_accept's is_empty), not of AF_UNIX ones.
     */
    private static int moreWaiting(SysCallContext sc, int listenFd) {
        if (SocketKinds.of(sc, listenFd) != SocketKinds.TCP) {
            return 0;
        }
        return SocketKinds.readyNow(sc, listenFd, NetOps.POLLIN) > 0 ? io.jring.CqeFlags.SOCK_NONEMPTY : 0;
    }

    private static boolean multishot(Request req) {
        return (req.ioprio & Sqe.ACCEPT_MULTISHOT) != 0;
    }

    @Override
    public boolean nowait(Request req) {
        return (req.ioprio & DONTWAIT) != 0;
    }

    @Override
    public int pollMask(Request req) {
        // DONTWAIT: no wait; io-wq hands -EAGAIN back as the result (as RWF_NOWAIT reads do).
        return (req.ioprio & DONTWAIT) != 0 ? 0 : NetOps.POLLIN;
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
