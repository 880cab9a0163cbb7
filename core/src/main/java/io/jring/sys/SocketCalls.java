package io.jring.sys;

import io.jring.Errno;
import io.jring.fault.FaultSite;
import io.jring.fault.Faults;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Sockets: socket, socketpair, bind, listen, accept4, connect, getsockname, getpeername,
 * setsockopt, getsockopt, recv, send, shutdown. Wrappers return {@code >= 0} or
 * {@code -errno} and never throw. {@code recvNowait}/{@code sendNowait}/{@code getsockname}
 * use critical handles: with MSG_DONTWAIT they return -EAGAIN instead of blocking.
 */
public final class SocketCalls {
    private SocketCalls() {}

    public static final int SOCK_STREAM = 1;
    public static final int SOCK_DGRAM = 2;
    public static final int SOCK_NONBLOCK = 04000;
    public static final int SOCK_CLOEXEC = 02000000;
    public static final int SOL_SOCKET = 1;
    public static final int SO_REUSEADDR = 2;
    public static final int SO_ERROR = 4;
    public static final int SO_SNDBUF = 7;
    public static final int SO_RCVBUF = 8;
    public static final int SO_KEEPALIVE = 9;
    public static final int SO_REUSEPORT = 15;
    public static final int IPPROTO_TCP = 6;
    public static final int TCP_NODELAY = 1;
    public static final int IPPROTO_IPV6 = 41;
    public static final int IPV6_V6ONLY = 26;
    public static final int MSG_PEEK = 0x2;
    public static final int MSG_DONTWAIT = 0x40;
    public static final int MSG_WAITALL = 0x100;
    public static final int MSG_NOSIGNAL = 0x4000;
    public static final int SHUT_RD = 0;
    public static final int SHUT_WR = 1;
    public static final int SHUT_RDWR = 2;

    private static final FunctionDescriptor ADDR_CALL = FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);
    private static final FunctionDescriptor NAME_CALL = FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
    private static final FunctionDescriptor XFER = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT);

    /** {@code (capture, int domain, int type, int protocol) -> int}. */
    public static final MethodHandle SOCKET = Libc.downcall("socket",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    /** {@code (capture, int domain, int type, int protocol, int sv[2]) -> int}. */
    public static final MethodHandle SOCKETPAIR = Libc.downcall("socketpair",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    /** {@code (capture, int fd, struct sockaddr *addr, socklen_t len) -> int}. */
    public static final MethodHandle BIND = Libc.downcall("bind", ADDR_CALL);
    public static final MethodHandle CONNECT = Libc.downcall("connect", ADDR_CALL);
    public static final MethodHandle LISTEN = Libc.downcall("listen",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    /** {@code (capture, int fd, struct sockaddr *addr, socklen_t *len, int flags) -> int}. */
    public static final MethodHandle ACCEPT4 = Libc.downcall("accept4",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    /** {@code (capture, int fd, struct sockaddr *addr, socklen_t *len) -> int}. */
    public static final MethodHandle GETSOCKNAME = Libc.downcall("getsockname", NAME_CALL);
    public static final MethodHandle GETSOCKNAME_CRITICAL = Libc.critical("getsockname", NAME_CALL);
    public static final MethodHandle GETPEERNAME = Libc.downcall("getpeername", NAME_CALL);
    /** {@code (capture, int fd, int level, int name, void *value, socklen_t len) -> int}. */
    public static final MethodHandle SETSOCKOPT = Libc.downcall("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    /** {@code (capture, int fd, int level, int name, void *value, socklen_t *len) -> int}. */
    public static final MethodHandle GETSOCKOPT = Libc.downcall("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    /** {@code (capture, int fd, void *buf, long len, int flags) -> long}. */
    public static final MethodHandle RECV = Libc.downcall("recv", XFER);
    public static final MethodHandle SEND = Libc.downcall("send", XFER);
    /** Only with MSG_DONTWAIT. */
    public static final MethodHandle RECV_CRITICAL = Libc.critical("recv", XFER);
    public static final MethodHandle SEND_CRITICAL = Libc.critical("send", XFER);
    private static final FunctionDescriptor XFER_AT = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT);
    /** recv/send on a raw address: provided buffers and checked segments, no slice object per call. */
    public static final MethodHandle RECV_AT = Libc.downcall("recv", XFER_AT);
    public static final MethodHandle SEND_AT = Libc.downcall("send", XFER_AT);
    public static final MethodHandle RECV_AT_CRITICAL = Libc.critical("recv", XFER_AT);
    public static final MethodHandle SEND_AT_CRITICAL = Libc.critical("send", XFER_AT);
    public static final MethodHandle SHUTDOWN = Libc.downcall("shutdown",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));

    /** A new socket took number {@code fd}: whatever kind that number had is forgotten. */
    private static int created(int fd) {
        SocketKinds.forget(fd);
        return fd;
    }

    public static int socket(SysCallContext ctx, int domain, int type, int protocol) {
        try {
            int r = (int) SOCKET.invokeExact(ctx.capture(), domain, type, protocol);
            return r >= 0 ? created(r) : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Writes the two connected fds into {@code fds} (8 bytes, e.g. {@link SysCallContext#scratch()}). */
    public static int socketPair(SysCallContext ctx, int domain, int type, int protocol, MemorySegment fds) {
        int bad = Buffers.check(fds, 8);
        if (bad != 0) {
            return bad;
        }
        try {
            int r = (int) SOCKETPAIR.invokeExact(ctx.capture(), domain, type, protocol, fds);
            if (r < 0) {
                return -ctx.lastErrno();
            }
            created(fds.get(JAVA_INT, 0));
            created(fds.get(JAVA_INT, 4));
            return r;
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static int bind(SysCallContext ctx, int fd, MemorySegment addr, int addrLen) {
        return addressCall(BIND, ctx, fd, addr, addrLen);
    }

    /** Binds to {@code address}, encoded into {@link SysCallContext#sockaddr()}. */
    public static int bind(SysCallContext ctx, int fd, InetSocketAddress address) {
        int len = encode(ctx, address);
        return len < 0 ? len : bind(ctx, fd, ctx.sockaddr(), len);
    }

    public static int listen(SysCallContext ctx, int fd, int backlog) {
        try {
            int r = (int) LISTEN.invokeExact(ctx.capture(), fd, backlog);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Blocking unless {@code fd} is O_NONBLOCK (then -EINPROGRESS; see {@link #pendingError}). */
    public static int connect(SysCallContext ctx, int fd, MemorySegment addr, int addrLen) {
        return addressCall(CONNECT, ctx, fd, addr, addrLen);
    }

    public static int connect(SysCallContext ctx, int fd, InetSocketAddress address) {
        int len = encode(ctx, address);
        return len < 0 ? len : connect(ctx, fd, ctx.sockaddr(), len);
    }

    /** The accepted fd, or -errno; the peer address is not returned. */
    public static int accept4(SysCallContext ctx, int fd, int flags) {
        try {
            int r = (int) ACCEPT4.invokeExact(ctx.capture(), fd, MemorySegment.NULL, MemorySegment.NULL, flags);
            return r >= 0 ? created(r) : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * The accepted fd, or -errno; the peer address is left in {@link SysCallContext#sockaddr()}
     * with its length in {@link SysCallContext#sockaddrLength()} (decode with {@link SockAddrs#decode}).
     */
    public static int accept4WithPeer(SysCallContext ctx, int fd, int flags) {
        try {
            ctx.sockaddrLen().set(JAVA_INT, 0, SockAddrs.STORAGE_SIZE);
            int r = (int) ACCEPT4.invokeExact(ctx.capture(), fd, ctx.sockaddr(), ctx.sockaddrLen(), flags);
            return r >= 0 ? created(r) : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Local address into {@link SysCallContext#sockaddr()}; returns its length or -errno. Critical. */
    public static int getsockname(SysCallContext ctx, int fd) {
        try {
            ctx.sockaddrLen().set(JAVA_INT, 0, SockAddrs.STORAGE_SIZE);
            int r = (int) GETSOCKNAME_CRITICAL.invokeExact(ctx.capture(), fd, ctx.sockaddr(), ctx.sockaddrLen());
            return r >= 0 ? ctx.sockaddrLength() : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Peer address into {@link SysCallContext#sockaddr()}; returns its length or -errno. */
    public static int getpeername(SysCallContext ctx, int fd) {
        try {
            ctx.sockaddrLen().set(JAVA_INT, 0, SockAddrs.STORAGE_SIZE);
            int r = (int) GETPEERNAME.invokeExact(ctx.capture(), fd, ctx.sockaddr(), ctx.sockaddrLen());
            return r >= 0 ? ctx.sockaddrLength() : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Sets an int-valued option (SO_REUSEADDR, TCP_NODELAY...): 0 or -errno. */
    public static int setIntOption(SysCallContext ctx, int fd, int level, int name, int value) {
        try {
            MemorySegment v = ctx.scratch();
            v.set(JAVA_INT, 0, value);
            int r = (int) SETSOCKOPT.invokeExact(ctx.capture(), fd, level, name, v, 4);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Reads a non-negative int-valued option; returns it, or -errno if getsockopt failed. */
    public static int getIntOption(SysCallContext ctx, int fd, int level, int name) {
        try {
            MemorySegment v = ctx.scratch();
            v.set(JAVA_INT, 0, 0);
            ctx.sockaddrLen().set(JAVA_INT, 0, 4);
            int r = (int) GETSOCKOPT.invokeExact(ctx.capture(), fd, level, name, v, ctx.sockaddrLen());
            return r >= 0 ? v.get(JAVA_INT, 0) : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** SO_ERROR as the result of a non-blocking connect: 0, or -errno of the failure (or of getsockopt). */
    public static int pendingError(SysCallContext ctx, int fd) {
        int e = getIntOption(ctx, fd, SOL_SOCKET, SO_ERROR);
        return e <= 0 ? e : -e;
    }

    public static long recv(SysCallContext ctx, int fd, MemorySegment buf, long len, int flags) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) RECV.invokeExact(ctx.capture(), fd, buf, len, flags);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * recv into {@code len} bytes at {@code address}, which the caller keeps alive. With
     * {@code nowait}: {@code flags | MSG_DONTWAIT} on a critical handle (-EAGAIN: arm poll).
     * EINTR is retried (io_uring never shows it in a CQE); carries the fault seam.
     */
    public static long recvAt(SysCallContext ctx, int fd, long address, long len, int flags, boolean nowait) {
        for (;;) {
            long n = len;
            if (Faults.ENABLED) {
                n = SyscallFaults.length(FaultSite.recv(nowait), fd, len);
                if (n == -Errno.EINTR) {
                    continue;
                }
                if (n < 0) {
                    return n;
                }
            }
            long r;
            try {
                r = nowait
                        ? (long) RECV_AT_CRITICAL.invokeExact(ctx.capture(), fd, address, n, flags | MSG_DONTWAIT)
                        : (long) RECV_AT.invokeExact(ctx.capture(), fd, address, n, flags);
            } catch (Throwable t) {
                return Libc.errnoOf(t);
            }
            if (r >= 0) {
                return r;
            }
            int e = ctx.lastErrno();
            if (e != Errno.EINTR) {
                return -e;
            }
        }
    }

    /** send of {@code len} bytes at {@code address}; as {@link #recvAt}. Adds MSG_NOSIGNAL: a dead peer is -EPIPE, never SIGPIPE. */
    public static long sendAt(SysCallContext ctx, int fd, long address, long len, int flags, boolean nowait) {
        for (;;) {
            long n = len;
            if (Faults.ENABLED) {
                n = SyscallFaults.length(FaultSite.send(nowait), fd, len);
                if (n == -Errno.EINTR) {
                    continue;
                }
                if (n < 0) {
                    return n;
                }
            }
            long r;
            try {
                r = nowait
                        ? (long) SEND_AT_CRITICAL.invokeExact(ctx.capture(), fd, address, n, flags | MSG_DONTWAIT | MSG_NOSIGNAL)
                        : (long) SEND_AT.invokeExact(ctx.capture(), fd, address, n, flags | MSG_NOSIGNAL);
            } catch (Throwable t) {
                return Libc.errnoOf(t);
            }
            if (r >= 0) {
                return r;
            }
            int e = ctx.lastErrno();
            if (e != Errno.EINTR) {
                return -e;
            }
        }
    }

    /** The inline attempt: {@code flags | MSG_DONTWAIT}, critical; -EAGAIN means arm poll. */
    public static long recvNowait(SysCallContext ctx, int fd, MemorySegment buf, long len, int flags) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) RECV_CRITICAL.invokeExact(ctx.capture(), fd, buf, len, flags | MSG_DONTWAIT);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long send(SysCallContext ctx, int fd, MemorySegment buf, long len, int flags) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) SEND.invokeExact(ctx.capture(), fd, buf, len, flags);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** The inline attempt: {@code flags | MSG_DONTWAIT}, critical; -EAGAIN means arm poll. */
    public static long sendNowait(SysCallContext ctx, int fd, MemorySegment buf, long len, int flags) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) SEND_CRITICAL.invokeExact(ctx.capture(), fd, buf, len, flags | MSG_DONTWAIT);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static int shutdown(SysCallContext ctx, int fd, int how) {
        try {
            int r = (int) SHUTDOWN.invokeExact(ctx.capture(), fd, how);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Into the context's sockaddr, which throws if the context is closed or not this thread's. */
    private static int encode(SysCallContext ctx, InetSocketAddress address) {
        try {
            return SockAddrs.encode(address, ctx.sockaddr());
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    private static int addressCall(MethodHandle handle, SysCallContext ctx, int fd, MemorySegment addr, int addrLen) {
        int bad = Buffers.check(addr, addrLen);
        if (bad != 0) {
            return bad;
        }
        try {
            int r = (int) handle.invokeExact(ctx.capture(), fd, addr, addrLen);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }
}
