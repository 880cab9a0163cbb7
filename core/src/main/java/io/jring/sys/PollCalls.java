package io.jring.sys;

import io.jring.Errno;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * epoll and eventfd, the poller's and the waiters' primitives. Wrappers return {@code >= 0}
 * or {@code -errno} and never throw. epoll_ctl, a zero-timeout epoll_wait and eventfd
 * reads/writes are critical; an epoll_wait that may sleep is not.
 */
public final class PollCalls {
    private PollCalls() {}

    public static final int EPOLL_CLOEXEC = 02000000;
    public static final int EPOLL_CTL_ADD = 1;
    public static final int EPOLL_CTL_DEL = 2;
    public static final int EPOLL_CTL_MOD = 3;
    public static final int EPOLLIN = 0x1;
    public static final int EPOLLPRI = 0x2;
    public static final int EPOLLOUT = 0x4;
    public static final int EPOLLERR = 0x8;
    public static final int EPOLLHUP = 0x10;
    public static final int EPOLLRDHUP = 0x2000;
    public static final int EPOLLEXCLUSIVE = 1 << 28;
    public static final int EPOLLONESHOT = 1 << 30;
    public static final int EPOLLET = 1 << 31;
    public static final int EFD_SEMAPHORE = 1;
    public static final int EFD_NONBLOCK = 04000;
    public static final int EFD_CLOEXEC = 02000000;

    private static final FunctionDescriptor CTL = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS);
    private static final FunctionDescriptor WAIT = FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT);

    public static final MethodHandle EPOLL_CREATE1 = Libc.downcall("epoll_create1",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    /** {@code (capture, int epfd, int op, int fd, struct epoll_event *event) -> int}. */
    public static final MethodHandle EPOLL_CTL = Libc.downcall("epoll_ctl", CTL);
    public static final MethodHandle EPOLL_CTL_CRITICAL = Libc.critical("epoll_ctl", CTL);
    /** {@code (capture, int epfd, struct epoll_event *events, int max, int timeoutMs) -> int}. */
    public static final MethodHandle EPOLL_WAIT = Libc.downcall("epoll_wait", WAIT);
    /** Only with timeout 0. */
    public static final MethodHandle EPOLL_WAIT_CRITICAL = Libc.critical("epoll_wait", WAIT);
    /** {@code (capture, unsigned initval, int flags) -> int}: glibc's eventfd is the eventfd2 syscall. */
    public static final MethodHandle EVENTFD = Libc.downcall("eventfd",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));

    public static int epollCreate(SysCallContext ctx, int flags) {
        try {
            int r = (int) EPOLL_CREATE1.invokeExact(ctx.capture(), flags);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** ADD/MOD/DEL {@code fd} with interest {@code events} and user {@code data}: 0 or -errno. Critical. */
    public static int epollCtl(SysCallContext ctx, int epfd, int op, int fd, int events, long data) {
        try {
            MemorySegment event = ctx.scratch();
            Structs.EpollEvent.set(event, 0, events, data);
            int r = (int) EPOLL_CTL_CRITICAL.invokeExact(ctx.capture(), epfd, op, fd, event);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * Waits up to {@code timeoutMs} (-1 forever) for events into {@code events} (room for
     * {@code maxEvents}, e.g. {@link SysCallContext#epollEvents()}); read them with
     * {@link Structs.EpollEvent}. Returns the count, or -errno (-EINTR on a signal).
     */
    public static int epollWait(SysCallContext ctx, int epfd, MemorySegment events, int maxEvents, int timeoutMs) {
        int bad = checkEvents(events, maxEvents);
        if (bad != 0) {
            return bad;
        }
        try {
            int r = (int) EPOLL_WAIT.invokeExact(ctx.capture(), epfd, events, maxEvents, timeoutMs);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** epoll_wait with timeout 0, critical: what is ready now. */
    public static int epollPoll(SysCallContext ctx, int epfd, MemorySegment events, int maxEvents) {
        int bad = checkEvents(events, maxEvents);
        if (bad != 0) {
            return bad;
        }
        try {
            int r = (int) EPOLL_WAIT_CRITICAL.invokeExact(ctx.capture(), epfd, events, maxEvents, 0);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** {@code poll(struct pollfd *, nfds_t, int timeout)}; may block. */
    public static final MethodHandle POLL = Libc.downcall("poll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

    /** poll(2), critical: only with timeout 0. */
    private static final MethodHandle POLL_CRITICAL = Libc.critical("poll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

    /**
     * poll(2) on one fd with timeout 0, critical: the events of {@code events} (plus POLLERR,
     * POLLHUP, POLLNVAL) that {@code fd} has now, or -errno. A negative fd gives 0, as poll(2)
     * ignores it.
     */
    public static int pollNow(SysCallContext ctx, int fd, int events) {
        try {
            MemorySegment pfd = ctx.scratch();
            pfd.set(JAVA_INT, 0, fd);
            pfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 4, (short) events);
            pfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 6, (short) 0);
            int r = (int) POLL_CRITICAL.invokeExact(ctx.capture(), pfd, 1L, 0);
            if (r < 0) {
                return -ctx.lastErrno();
            }
            return r == 0 ? 0 : pfd.get(java.lang.foreign.ValueLayout.JAVA_SHORT, 6) & 0xFFFF;
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * poll(2) on one fd: the revents (0 on timeout), or -errno. {@code timeoutMs} 0 checks
     * readiness now; -1 waits forever.
     */
    public static int pollOne(SysCallContext ctx, int fd, int events, int timeoutMs) {
        try {
            MemorySegment pfd = ctx.scratch();
            pfd.set(JAVA_INT, 0, fd);
            pfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 4, (short) events);
            pfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 6, (short) 0);
            int r = (int) POLL.invokeExact(ctx.capture(), pfd, 1L, timeoutMs);
            if (r < 0) {
                return -ctx.lastErrno();
            }
            return r == 0 ? 0 : pfd.get(java.lang.foreign.ValueLayout.JAVA_SHORT, 6) & 0xFFFF;
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static int eventfd(SysCallContext ctx, int initialValue, int flags) {
        try {
            int r = (int) EVENTFD.invokeExact(ctx.capture(), initialValue, flags);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * Adds {@code value} to the eventfd counter: 0 or -errno. Critical, so the eventfd must be
     * EFD_NONBLOCK (a blocking one would block here only when the counter is about to overflow).
     */
    public static int eventfdWrite(SysCallContext ctx, int fd, long value) {
        try {
            MemorySegment v = ctx.scratch();
            v.set(JAVA_LONG, 0, value);
            long r = (long) FileCalls.WRITE_CRITICAL.invokeExact(ctx.capture(), fd, v, 8L);
            return r >= 0 ? 0 : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * Reads and resets the counter (or takes 1 with EFD_SEMAPHORE): the value, or -errno
     * (-EAGAIN when it is 0). Critical: the eventfd must be EFD_NONBLOCK.
     */
    public static long eventfdRead(SysCallContext ctx, int fd) {
        try {
            MemorySegment v = ctx.scratch();
            long r = (long) FileCalls.READ_CRITICAL.invokeExact(ctx.capture(), fd, v, 8L);
            return r >= 0 ? v.get(JAVA_LONG, 0) : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    private static int checkEvents(MemorySegment events, int maxEvents) {
        if (maxEvents <= 0) {
            return -Errno.EINVAL;
        }
        return Buffers.check(events, maxEvents * Structs.EpollEvent.SIZE);
    }
}
