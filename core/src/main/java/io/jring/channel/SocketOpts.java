package io.jring.channel;

import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Set;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The socket options of the socket channels, as {@code sun.nio.ch.Net} sets and reads them:
 * booleans as ints, SO_SNDBUF/SO_RCVBUF refusing negative sizes, SO_LINGER as
 * {@code struct linger} (negative: off, read back as -1; above 65535: 65535).
 */
public final class SocketOpts {
    private SocketOpts() {}

    private static final int SO_LINGER = 13;

    /** The options of {@code AsynchronousSocketChannel}, plus SO_REUSEPORT and SO_LINGER. */
    public static final Set<SocketOption<?>> STREAM = Set.of(StandardSocketOptions.SO_SNDBUF,
            StandardSocketOptions.SO_RCVBUF, StandardSocketOptions.SO_KEEPALIVE, StandardSocketOptions.SO_REUSEADDR,
            StandardSocketOptions.SO_REUSEPORT, StandardSocketOptions.SO_LINGER, StandardSocketOptions.TCP_NODELAY);

    /** The options of {@code AsynchronousServerSocketChannel}, plus SO_REUSEPORT. */
    public static final Set<SocketOption<?>> LISTENER = Set.of(StandardSocketOptions.SO_RCVBUF,
            StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT);

    /**
     * Checks {@code value} for {@code name} as the JDK does, before the channel's open check.
     *
     * @param supported the channel's options
     * @param name the option
     * @param value its new value
     * @throws NullPointerException if {@code name} is null
     * @throws UnsupportedOperationException if the channel has no such option
     * @throws IllegalArgumentException if the value is null, of the wrong type or out of range
     */
    public static void checkSet(Set<SocketOption<?>> supported, SocketOption<?> name, Object value) {
        checkName(supported, name);
        if (value == null || !name.type().isInstance(value)) {
            throw new IllegalArgumentException("Invalid value '" + value + "'");
        }
        if ((name == StandardSocketOptions.SO_SNDBUF || name == StandardSocketOptions.SO_RCVBUF)
                && (Integer) value < 0) {
            throw new IllegalArgumentException("Invalid send/receive buffer size");
        }
    }

    /**
     * Checks that the channel has {@code name}.
     *
     * @param supported the channel's options
     * @param name the option
     * @throws NullPointerException if {@code name} is null
     * @throws UnsupportedOperationException if the channel has no such option
     */
    public static void checkName(Set<SocketOption<?>> supported, SocketOption<?> name) {
        if (name == null) {
            throw new NullPointerException("'name' is null");
        }
        if (!supported.contains(name)) {
            throw new UnsupportedOperationException("'" + name + "' not supported");
        }
    }

    /**
     * Sets a checked option on {@code fd}.
     *
     * @param fd the socket
     * @param name the option
     * @param value its value
     * @throws IOException if setsockopt fails
     */
    public static void set(int fd, SocketOption<?> name, Object value) throws IOException {
        SysCallContext ctx = SysCallContext.current();
        int r;
        if (name == StandardSocketOptions.SO_LINGER) {
            int secs = (Integer) value;
            MemorySegment v = ctx.scratch();
            v.set(JAVA_INT, 0, secs < 0 ? 0 : 1);
            v.set(JAVA_INT, 4, secs < 0 ? 0 : Math.min(secs, 65535));
            r = raw(ctx, fd, v);
        } else {
            int iv = value instanceof Boolean b ? (b ? 1 : 0) : (Integer) value;
            r = SocketCalls.setIntOption(ctx, fd, level(name), optname(name), iv);
        }
        if (r < 0) {
            throw NetSockets.socketError(-r);
        }
    }

    /**
     * Reads an option of {@code fd}.
     *
     * @param fd the socket
     * @param name a supported option
     * @return its value (Boolean or Integer)
     * @throws IOException if getsockopt fails
     */
    public static Object get(int fd, SocketOption<?> name) throws IOException {
        SysCallContext ctx = SysCallContext.current();
        if (name == StandardSocketOptions.SO_LINGER) {
            MemorySegment v = ctx.scratch();
            v.set(JAVA_INT, 0, 0);
            v.set(JAVA_INT, 4, 0);
            ctx.sockaddrLen().set(JAVA_INT, 0, 8);
            int r;
            try {
                r = (int) SocketCalls.GETSOCKOPT.invokeExact(ctx.capture(), fd, SocketCalls.SOL_SOCKET, SO_LINGER,
                        v, ctx.sockaddrLen());
            } catch (Throwable t) {
                throw new IOException(t);
            }
            if (r < 0) {
                throw NetSockets.socketError(ctx.lastErrno());
            }
            return v.get(JAVA_INT, 0) == 0 ? -1 : v.get(JAVA_INT, 4);
        }
        int r = SocketCalls.getIntOption(ctx, fd, level(name), optname(name));
        if (r < 0) {
            throw NetSockets.socketError(-r);
        }
        return name.type() == Boolean.class ? (Object) (r != 0) : (Object) r;
    }

    private static int raw(SysCallContext ctx, int fd, MemorySegment v) {
        try {
            int r = (int) SocketCalls.SETSOCKOPT.invokeExact(ctx.capture(), fd, SocketCalls.SOL_SOCKET, SO_LINGER, v, 8);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return -io.jring.Errno.EINVAL;
        }
    }

    private static int level(SocketOption<?> name) {
        return name == StandardSocketOptions.TCP_NODELAY ? SocketCalls.IPPROTO_TCP : SocketCalls.SOL_SOCKET;
    }

    private static int optname(SocketOption<?> name) {
        if (name == StandardSocketOptions.SO_SNDBUF) {
            return SocketCalls.SO_SNDBUF;
        }
        if (name == StandardSocketOptions.SO_RCVBUF) {
            return SocketCalls.SO_RCVBUF;
        }
        if (name == StandardSocketOptions.SO_KEEPALIVE) {
            return SocketCalls.SO_KEEPALIVE;
        }
        if (name == StandardSocketOptions.SO_REUSEADDR) {
            return SocketCalls.SO_REUSEADDR;
        }
        if (name == StandardSocketOptions.SO_REUSEPORT) {
            return SocketCalls.SO_REUSEPORT;
        }
        if (name == StandardSocketOptions.TCP_NODELAY) {
            return SocketCalls.TCP_NODELAY;
        }
        throw new UnsupportedOperationException("'" + name + "' not supported");
    }
}
