package io.jring.channel;

import io.jring.Errno;
import io.jring.sys.FsCalls;
import io.jring.sys.SockAddrs;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.BindException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * The synchronous socket calls of the socket channels: creating a TCP socket of the family
 * the JDK would pick (IPv6 dual stack where IPv6 works and {@code java.net.preferIPv4Stack}
 * is not set, else IPv4), bind, listen, addresses, shutdown, and errno as the exceptions
 * {@code sun.nio.ch} reports (BindException, ConnectException...). The sockets are blocking:
 * the rings try each request without waiting and poll for readiness, as io_uring does.
 */
public final class NetSockets {
    private NetSockets() {}

    private static final class Family {
        static final int DEFAULT = pick();

        private static int pick() {
            if (Boolean.getBoolean("java.net.preferIPv4Stack")) {
                return SockAddrs.AF_INET;
            }
            SysCallContext ctx = SysCallContext.current();
            int fd = SocketCalls.socket(ctx, SockAddrs.AF_INET6, SocketCalls.SOCK_STREAM | SocketCalls.SOCK_CLOEXEC, 0);
            if (fd < 0) {
                return SockAddrs.AF_INET;
            }
            FsCalls.close(ctx, fd);
            return SockAddrs.AF_INET6;
        }
    }

    /** {@return the family of the sockets this JVM's channels use: AF_INET6 (dual stack) or AF_INET} */
    public static int family() {
        return Family.DEFAULT;
    }

    /**
     * A new blocking TCP socket of {@link #family()}, dual stack if IPv6.
     *
     * @return the descriptor
     * @throws IOException if the socket cannot be made (EMFILE...)
     */
    public static int openStream() throws IOException {
        SysCallContext ctx = SysCallContext.current();
        int fd = SocketCalls.socket(ctx, family(), SocketCalls.SOCK_STREAM | SocketCalls.SOCK_CLOEXEC, 0);
        if (fd < 0) {
            throw socketError(-fd);
        }
        if (family() == SockAddrs.AF_INET6) {
            SocketCalls.setIntOption(ctx, fd, SocketCalls.IPPROTO_IPV6, SocketCalls.IPV6_V6ONLY, 0);
        }
        return fd;
    }

    /**
     * Checks an address as {@code sun.nio.ch.Net.checkAddress}.
     *
     * @param sa the address
     * @return it, as an InetSocketAddress
     * @throws NullPointerException if null
     * @throws UnsupportedAddressTypeException if not an InetSocketAddress, or IPv6 on an IPv4-only JVM
     * @throws UnresolvedAddressException if unresolved
     */
    public static InetSocketAddress check(SocketAddress sa) {
        Objects.requireNonNull(sa, "address");
        if (!(sa instanceof InetSocketAddress isa)) {
            throw new UnsupportedAddressTypeException();
        }
        if (isa.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        if (family() == SockAddrs.AF_INET && isa.getAddress() instanceof Inet6Address) {
            throw new UnsupportedAddressTypeException();
        }
        return isa;
    }

    /**
     * Encodes {@code address} for a socket of {@link #family()}: an IPv4 address becomes an
     * IPv4-mapped IPv6 address on a dual-stack socket, except the IPv4 wildcard, which becomes
     * the IPv6 wildcard (as the JDK binds it: a socket bound to 0.0.0.0 takes both families).
     *
     * @param address a checked address
     * @param dst at least {@link SockAddrs#STORAGE_SIZE} bytes
     * @return the sockaddr's length
     */
    public static int encode(InetSocketAddress address, MemorySegment dst) {
        if (family() == SockAddrs.AF_INET6 && address.getAddress() instanceof Inet4Address v4) {
            dst.set(JAVA_SHORT_UNALIGNED, 0, (short) SockAddrs.AF_INET6);
            dst.set(JAVA_BYTE, 2, (byte) (address.getPort() >>> 8));
            dst.set(JAVA_BYTE, 3, (byte) address.getPort());
            dst.set(JAVA_INT_UNALIGNED, 4, 0);                   // sin6_flowinfo
            dst.set(JAVA_LONG_UNALIGNED, 8, 0L);                 // ::ffff:a.b.c.d
            dst.set(JAVA_SHORT_UNALIGNED, 16, (short) 0);
            if (v4.isAnyLocalAddress()) {
                dst.set(JAVA_SHORT_UNALIGNED, 18, (short) 0);
                dst.set(JAVA_INT_UNALIGNED, 20, 0);
            } else {
                dst.set(JAVA_SHORT_UNALIGNED, 18, (short) -1);
                MemorySegment.copy(v4.getAddress(), 0, dst, JAVA_BYTE, 20, 4);
            }
            dst.set(JAVA_INT_UNALIGNED, 24, 0);                  // sin6_scope_id
            return SockAddrs.SOCKADDR_IN6_SIZE;
        }
        return SockAddrs.encode(address, dst);
    }

    /**
     * Binds {@code fd} to {@code address}.
     *
     * @param fd the socket
     * @param address a checked address
     * @throws IOException a BindException (EADDRINUSE, EADDRNOTAVAIL, EACCES) or SocketException
     */
    public static void bind(int fd, InetSocketAddress address) throws IOException {
        SysCallContext ctx = SysCallContext.current();
        int len = encode(address, ctx.sockaddr());
        int r = SocketCalls.bind(ctx, fd, ctx.sockaddr(), len);
        if (r < 0) {
            throw bindError(-r);
        }
    }

    /**
     * listen(2).
     *
     * @param fd a bound socket
     * @param backlog the backlog; less than 1 means 50, as the JDK's
     * @throws IOException if listen fails
     */
    public static void listen(int fd, int backlog) throws IOException {
        int r = SocketCalls.listen(SysCallContext.current(), fd, backlog < 1 ? 50 : backlog);
        if (r < 0) {
            throw socketError(-r);
        }
    }

    /**
     * The local address, or null if the socket is not bound.
     *
     * @param fd the socket
     * @return the address (IPv4-mapped addresses as Inet4Address)
     * @throws IOException if getsockname fails
     */
    public static InetSocketAddress localAddress(int fd) throws IOException {
        SysCallContext ctx = SysCallContext.current();
        int len = SocketCalls.getsockname(ctx, fd);
        if (len < 0) {
            throw socketError(-len);
        }
        return SockAddrs.decode(ctx.sockaddr(), len);
    }

    /**
     * The peer's address.
     *
     * @param fd a connected socket
     * @return the address, or null if it is not connected
     */
    public static InetSocketAddress remoteAddress(int fd) {
        SysCallContext ctx = SysCallContext.current();
        int len = SocketCalls.getpeername(ctx, fd);
        return len < 0 ? null : SockAddrs.decode(ctx.sockaddr(), len);
    }

    /**
     * shutdown(2); ENOTCONN (the peer already went) is not an error, as in the JDK.
     *
     * @param fd the socket
     * @param how SHUT_RD or SHUT_WR
     * @throws IOException if shutdown fails otherwise
     */
    public static void shutdown(int fd, int how) throws IOException {
        int r = SocketCalls.shutdown(SysCallContext.current(), fd, how);
        if (r < 0 && r != -Errno.ENOTCONN) {
            throw socketError(-r);
        }
    }

    /**
     * The failure of a connect, as the JDK reports it.
     *
     * @param errno the positive errno
     * @return ConnectException, NoRouteToHostException, BindException or SocketException
     */
    public static IOException connectError(int errno) {
        return switch (errno) {
            case Errno.ECONNREFUSED -> new ConnectException("Connection refused");
            case Errno.ETIMEDOUT -> new ConnectException("Connection timed out");
            case Errno.EHOSTUNREACH -> new NoRouteToHostException("No route to host");
            case Errno.ENETUNREACH -> new ConnectException("Network is unreachable");
            case Errno.EADDRNOTAVAIL -> new BindException("Cannot assign requested address");
            default -> socketError(errno);
        };
    }

    /**
     * The failure of a bind.
     *
     * @param errno the positive errno
     * @return a BindException for the bind errors, else a SocketException
     */
    public static IOException bindError(int errno) {
        return switch (errno) {
            case Errno.EADDRINUSE -> new BindException("Address already in use");
            case Errno.EADDRNOTAVAIL -> new BindException("Cannot assign requested address");
            case Errno.EACCES -> new BindException("Permission denied");
            default -> socketError(errno);
        };
    }

    /**
     * The failure of a read or write on a connected socket.
     *
     * @param errno the positive errno
     * @return an IOException whose message is strerror's
     */
    public static IOException ioError(int errno) {
        return switch (errno) {
            case Errno.ECONNRESET -> new IOException("Connection reset by peer");
            case Errno.EPIPE -> new IOException("Broken pipe");
            case Errno.ETIMEDOUT -> new IOException("Connection timed out");
            case Errno.ENOTCONN -> new IOException("Transport endpoint is not connected");
            default -> IoErrors.io(errno);
        };
    }

    /**
     * Any other socket call's failure.
     *
     * @param errno the positive errno
     * @return a SocketException
     */
    public static SocketException socketError(int errno) {
        return new SocketException(switch (errno) {
            case Errno.EMFILE -> "Too many open files";
            case Errno.ENFILE -> "Too many open files in system";
            case Errno.EINVAL -> "Invalid argument";
            case Errno.ENOTCONN -> "Transport endpoint is not connected";
            case Errno.EBADF -> "Bad file descriptor";
            case Errno.EAFNOSUPPORT -> "Address family not supported by protocol";
            default -> Errno.name(errno);
        });
    }
}
