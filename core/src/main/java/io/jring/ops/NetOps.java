package io.jring.ops;

import io.jring.core.Request;
import io.jring.sys.FsCalls;
import io.jring.sys.PollCalls;
import io.jring.sys.SysCallContext;

/** Helpers shared by the socket operations. */
final class NetOps {
    private NetOps() {}

    static final int POLLIN = PollCalls.EPOLLIN;
    static final int POLLOUT = PollCalls.EPOLLOUT;

    /** The syscall scratch for an attempt: the ring's inline one, or the worker thread's. */
    static SysCallContext sys(Request req, boolean nonBlocking) {
        return req.sys(nonBlocking);
    }

    /** True if the fd's file is O_NONBLOCK (then connect/accept never block); false on error. */
    static boolean isNonBlocking(SysCallContext sc, int fd) {
        int fl = FsCalls.getStatusFlags(sc, fd);
        return fl >= 0 && (fl & FsCalls.O_NONBLOCK) != 0;
    }

    /** Readiness of a blocking fd right now (poll with timeout 0): true if {@code events} are ready. */
    static boolean readyNow(SysCallContext sc, int fd, int events) {
        int r = PollCalls.pollOne(sc, fd, events, 0);
        return r != 0;
    }
}
