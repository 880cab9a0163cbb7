package io.jring;

import io.jring.core.CallerCompletions;
import io.jring.sys.FileCalls;
import io.jring.sys.DirectFds;
import io.jring.sys.FsCalls;
import io.jring.sys.SockAddrs;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Helpers that create and use plain file descriptors, for tests, tools and setting up what a
 * ring works on. Blocking; thread-safe (each thread uses its own native scratch). Failures
 * throw {@link IoUringException} carrying the errno. Descriptors created here are close-on-exec.
 */
public final class Fds {
    private Fds() {}

    /** IPv4 address family. */
    public static final int AF_INET = 2;
    /** IPv6 address family. */
    public static final int AF_INET6 = 10;
    /** Stream socket type (TCP). */
    public static final int SOCK_STREAM = 1;
    /** Datagram socket type (UDP). */
    public static final int SOCK_DGRAM = 2;
    /** Socket type flag: non-blocking. */
    public static final int SOCK_NONBLOCK = 04000;
    /** Socket type flag: close on exec. */
    public static final int SOCK_CLOEXEC = 02000000;
    /** {@code prepShutdown}: no more receptions. */
    public static final int SHUT_RD = 0;
    /** {@code prepShutdown}: no more transmissions. */
    public static final int SHUT_WR = 1;
    /** {@code prepShutdown}: neither. */
    public static final int SHUT_RDWR = 2;
    /** As the dirfd of openat: relative paths start at the current directory. */
    public static final int AT_FDCWD = -100;

    /**
     * Opens a file, as open(2).
     *
     * @param path the file; a relative path resolves against the current directory, as in Java
     * @param openFlags {@link OpenFlags} bits
     * @param mode with {@link OpenFlags#CREAT}, the new file's permission bits (e.g. 0644), else ignored
     * @return the new descriptor
     */
    public static int open(Path path, int openFlags, int mode) {
        // Absolute, so a relative Path resolves against user.dir as everywhere else in Java.
        String name = path.toAbsolutePath().toString();
        int fd = FsCalls.openat(SysCallContext.current(), AT_FDCWD, name, openFlags, mode);
        check(fd, () -> "cannot open " + name + " (flags 0" + Integer.toOctalString(openFlags) + ")");
        DirectFds.opened(fd, openFlags);
        return fd;
    }

    /** New descriptors that are not O_DIRECT files (their numbers may have been one before). */
    private static int[] notDirect(int[] fds) {
        for (int fd : fds) {
            DirectFds.opened(fd, 0);
        }
        return fds;
    }

    /** {@return a new pipe: {@code [readEnd, writeEnd]}} */
    public static int[] pipe() {
        SysCallContext ctx = SysCallContext.current();
        check(FsCalls.pipe2(ctx, ctx.scratch(), FsCalls.O_CLOEXEC), () -> "cannot create a pipe");
        return notDirect(new int[] {ctx.scratchInt(0), ctx.scratchInt(1)});
    }

    /** {@return two connected AF_UNIX stream sockets} */
    public static int[] socketPair() {
        SysCallContext ctx = SysCallContext.current();
        check(SocketCalls.socketPair(ctx, SockAddrs.AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctx.scratch()),
                () -> "cannot create a socket pair");
        return notDirect(new int[] {ctx.scratchInt(0), ctx.scratchInt(1)});
    }

    /**
     * Two connected AF_UNIX sockets of {@code type}: {@link #SOCK_STREAM}, {@link #SOCK_DGRAM}
     * or SOCK_SEQPACKET (5), with SOCK_NONBLOCK if wanted.
     *
     * @param type the socket type
     * @return the two descriptors
     */
    public static int[] socketPair(int type) {
        SysCallContext ctx = SysCallContext.current();
        check(SocketCalls.socketPair(ctx, SockAddrs.AF_UNIX, type | SOCK_CLOEXEC, 0, ctx.scratch()),
                () -> "cannot create a socket pair of type " + type);
        return notDirect(new int[] {ctx.scratchInt(0), ctx.scratchInt(1)});
    }

    /**
     * A UDP socket bound to {@code address} (IPv4 or IPv6; port 0 picks a free port, see
     * {@link #localAddress}).
     *
     * @param address a resolved address to bind to
     * @return the socket
     */
    public static int bindUdp(InetSocketAddress address) {
        checkResolved(address);
        SysCallContext ctx = SysCallContext.current();
        int fd = check(SocketCalls.socket(ctx, SockAddrs.familyOf(address), SOCK_DGRAM | SOCK_CLOEXEC, 0),
                () -> "cannot create a UDP socket for " + address);
        try {
            check(SocketCalls.bind(ctx, fd, address), () -> "cannot bind to " + address);
            DirectFds.opened(fd, 0);
            return fd;
        } catch (IoUringException e) {
            FsCalls.close(ctx, fd);
            throw e;
        }
    }

    /**
     * Connects a socket to {@code address} (for UDP: sets its default peer), blocking.
     *
     * @param fd the socket
     * @param address a resolved address
     */
    public static void connect(int fd, InetSocketAddress address) {
        checkResolved(address);
        SysCallContext ctx = SysCallContext.current();
        check(SocketCalls.connect(ctx, fd, address), () -> "cannot connect fd " + fd + " to " + address);
    }

    /**
     * Closes {@code fd}. EINTR is not an error: Linux has released the descriptor anyway.
     * An O_DIRECT file's direct I/O in flight through jring finishes first (see
     * {@link #fsync}).
     *
     * @param fd the descriptor
     */
    public static void close(int fd) {
        CallerCompletions.awaitDirectIdle(fd);
        DirectFds.closed(fd);
        int r = FsCalls.close(SysCallContext.current(), fd);
        if (r != -Errno.EINTR) {
            check(r, () -> "cannot close fd " + fd);
        }
    }

    /**
     * fsync(2) of {@code fd}; {@code dataOnly}: fdatasync(2). For an O_DIRECT file jring
     * opened, its direct I/O in flight finishes first (the kernel's inode_dio_wait). If the
     * calling thread owns a ring with {@code callerCompletion(true)}, its pending completions
     * run while it waits, so a write whose completion waits for this thread cannot block it.
     *
     * @param fd the file
     * @param dataOnly true: fdatasync (data and the metadata needed to read it), false: fsync
     */
    public static void fsync(int fd, boolean dataOnly) {
        CallerCompletions.awaitDirectIdle(fd);
        SysCallContext ctx = SysCallContext.current();
        check(dataOnly ? FsCalls.fdatasync(ctx, fd) : FsCalls.fsync(ctx, fd), () -> "cannot fsync fd " + fd);
    }

    /**
     * ftruncate(2) of {@code fd} to {@code length} bytes, after its direct I/O in flight, as {@link #fsync}.
     *
     * @param fd the file, open for writing
     * @param length the new size in bytes
     */
    public static void truncate(int fd, long length) {
        CallerCompletions.awaitDirectIdle(fd);
        check(FsCalls.ftruncate(SysCallContext.current(), fd, length),
                () -> "cannot truncate fd " + fd + " to " + length + " bytes");
    }

    /**
     * Writes all of {@code data}, retrying short writes; returns {@code data.length}, or fewer
     * bytes if a non-blocking fd fills up after some were written (EAGAIN before any is an error).
     *
     * @param fd the descriptor
     * @param data the bytes to write
     * @return how many bytes were written
     */
    public static int write(int fd, byte[] data) {
        SysCallContext ctx = SysCallContext.current();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Math.max(1, data.length));
            MemorySegment.copy(data, 0, buf, JAVA_BYTE, 0, data.length);
            long done = 0;
            while (done < data.length) {
                long n = FileCalls.write(ctx, fd, buf.asSlice(done), data.length - done);
                if (n == -Errno.EINTR) {
                    continue;
                }
                if (n == -Errno.EAGAIN && done > 0) {
                    break;
                }
                done += check(n, () -> "cannot write to fd " + fd);
            }
            return (int) done;
        }
    }

    /**
     * Reads at most {@code dst.length} bytes, blocking until some arrive.
     *
     * @param fd the descriptor
     * @param dst where the bytes go, from index 0
     * @return how many bytes were read; 0 at end of file
     */
    public static int read(int fd, byte[] dst) {
        SysCallContext ctx = SysCallContext.current();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Math.max(1, dst.length));
            long n;
            do {
                n = FileCalls.read(ctx, fd, buf, dst.length);
            } while (n == -Errno.EINTR);
            int count = (int) check(n, () -> "cannot read from fd " + fd);
            MemorySegment.copy(buf, JAVA_BYTE, 0, dst, 0, count);
            return count;
        }
    }

    /**
     * A TCP socket listening on {@code address} (IPv4 or IPv6; port 0 picks a free port, see
     * {@link #localAddress}), with SO_REUSEADDR.
     *
     * @param address a resolved address to bind to
     * @param backlog the listen(2) backlog
     * @return the listening socket
     */
    public static int listenTcp(InetSocketAddress address, int backlog) {
        checkResolved(address);
        SysCallContext ctx = SysCallContext.current();
        int fd = check(SocketCalls.socket(ctx, SockAddrs.familyOf(address), SOCK_STREAM | SOCK_CLOEXEC, 0),
                () -> "cannot create a TCP socket for " + address);
        try {
            check(SocketCalls.setIntOption(ctx, fd, SocketCalls.SOL_SOCKET, SocketCalls.SO_REUSEADDR, 1),
                    () -> "cannot set SO_REUSEADDR");
            check(SocketCalls.bind(ctx, fd, address), () -> "cannot bind to " + address);
            check(SocketCalls.listen(ctx, fd, backlog), () -> "cannot listen on " + address);
            DirectFds.opened(fd, 0);
            return fd;
        } catch (IoUringException e) {
            FsCalls.close(ctx, fd);
            throw e;
        }
    }

    /**
     * The address a socket is bound to (after {@link #listenTcp} on port 0: the port chosen).
     *
     * @param fd an IPv4 or IPv6 socket
     * @return its local address
     */
    public static InetSocketAddress localAddress(int fd) {
        SysCallContext ctx = SysCallContext.current();
        int len = check(SocketCalls.getsockname(ctx, fd), () -> "cannot get the local address of fd " + fd);
        InetSocketAddress address = SockAddrs.decode(ctx.sockaddr(), len);
        if (address == null) {
            throw new IoUringException(Errno.EAFNOSUPPORT, "fd " + fd + " is not an IPv4 or IPv6 socket (family "
                    + SockAddrs.family(ctx.sockaddr()) + ")");
        }
        return address;
    }

    /**
     * A TCP socket connected to {@code address}; blocks until the connection is established or refused.
     *
     * @param address a resolved address
     * @return the connected socket
     */
    public static int connectTcp(InetSocketAddress address) {
        checkResolved(address);
        SysCallContext ctx = SysCallContext.current();
        int fd = check(SocketCalls.socket(ctx, SockAddrs.familyOf(address), SOCK_STREAM | SOCK_CLOEXEC, 0),
                () -> "cannot create a TCP socket for " + address);
        try {
            check(SocketCalls.connect(ctx, fd, address), () -> "cannot connect to " + address);
            DirectFds.opened(fd, 0);
            return fd;
        } catch (IoUringException e) {
            FsCalls.close(ctx, fd);
            throw e;
        }
    }

    private static void checkResolved(InetSocketAddress address) {
        Objects.requireNonNull(address, "address");
        if (address.isUnresolved()) {
            throw new IoUringException(Errno.EINVAL, "address " + address
                    + " is unresolved; pass an IP address, e.g. new InetSocketAddress(\"127.0.0.1\", port)");
        }
    }

    private interface Message {
        String get();
    }

    private static int check(int result, Message what) {
        if (result < 0) {
            throw new IoUringException(-result, what.get());
        }
        return result;
    }

    private static long check(long result, Message what) {
        if (result < 0) {
            throw new IoUringException((int) -result, what.get());
        }
        return result;
    }
}
