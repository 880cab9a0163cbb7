package io.jring.sys;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * What kind of socket a descriptor names, as far as io_uring's receives care: whether a
 * MSG_WAITALL transfer is retried for the rest (Linux's io_net_retry: stream and seqpacket
 * sockets) and whether the socket reports what is left to read after a recv (msg_inq: TCP
 * and AF_UNIX stream sockets in Linux 6.18, not MPTCP, SCTP or datagrams). Plus the few
 * cheap queries that answer "what is left".
 *
 * <p>Looked up once per descriptor number (getsockopt SO_DOMAIN, SO_TYPE, SO_PROTOCOL) and
 * kept until jring closes that number or creates a socket on it. A number closed and reused
 * outside jring keeps its old kind; as for polls (see Poller), such a descriptor must be
 * closed through jring (CLOSE, {@code Fds.close}). Numbers beyond {@link #TRACKED} are
 * looked up every time.
 */
public final class SocketKinds {
    /** Not known (not looked up, or the lookup failed). */
    public static final int UNKNOWN = 0;
    public static final int NOT_SOCKET = 1;
    public static final int UNIX_STREAM = 2;
    public static final int TCP = 3;
    /** Another stream or seqpacket socket (unix seqpacket, MPTCP, SCTP...): WAITALL retries, no msg_inq. */
    public static final int OTHER_STREAM = 4;
    /** Datagram, raw and the rest: a WAITALL recv is one datagram. */
    public static final int DATAGRAM = 5;

    public static final int TRACKED = 1 << 16;
    private static final int KIND_MASK = 7;
    private static final int VERSION_ONE = 8;

    private static final int SO_TYPE = 3;
    private static final int SO_PROTOCOL = 38;
    private static final int SO_DOMAIN = 39;
    private static final int SOCK_SEQPACKET = 5;
    private static final int TCP_INFO = 11;
    private static final int FIONREAD = 0x541B;

    /**
     * Per number: the kind in the low 3 bits, a version above. Any thread: a lookup reads the
     * entry opaque (the kind is the whole message, nothing else is published with it) and
     * stores what it found with a CAS from the entry it read, so a {@link #forget} between
     * the read and the store (which bumps the version) wins over a kind learnt about the
     * closed file.
     */
    private static final AtomicIntegerArray ENTRIES = new AtomicIntegerArray(TRACKED);

    /** The queries' handles, bound when first used (every close touches this class). */
    private static final class Calls {
        /** {@code ioctl(fd, FIONREAD, int *)}: critical, it never blocks. */
        static final MethodHandle IOCTL = Libc.criticalVariadic("ioctl",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), 2);
        /** {@code poll(fds, 1, 0)}: critical, a timeout of 0 never blocks. */
        static final MethodHandle POLL_NOW = Libc.critical("poll",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    private SocketKinds() {}

    /** The kind of socket {@code fd} names (see the constants). */
    public static int of(SysCallContext sc, int fd) {
        if (fd < 0 || fd >= TRACKED) {
            return fd < 0 ? NOT_SOCKET : lookUp(sc, fd);
        }
        int e = ENTRIES.getOpaque(fd);
        int kind = e & KIND_MASK;
        if (kind != UNKNOWN) {
            return kind;
        }
        kind = lookUp(sc, fd);
        if (kind != UNKNOWN) {
            ENTRIES.compareAndSet(fd, e, (e & ~KIND_MASK) | kind);
        }
        return kind;
    }

    /** Number {@code fd} was closed, or names a new socket: its kind is looked up again. */
    public static void forget(int fd) {
        if (fd < 0 || fd >= TRACKED) {
            return;
        }
        int e;
        do {
            e = ENTRIES.get(fd);
        } while (!ENTRIES.compareAndSet(fd, e, (e & ~KIND_MASK) + VERSION_ONE));
    }

    /** True for the kinds whose MSG_WAITALL transfers go on after a short one (io_net_retry). */
    public static boolean retriesWaitall(int kind) {
        return kind != DATAGRAM && kind != NOT_SOCKET;
    }

    private static int lookUp(SysCallContext sc, int fd) {
        int type = SocketCalls.getIntOption(sc, fd, SocketCalls.SOL_SOCKET, SO_TYPE);
        if (type < 0) {
            return type == -io.jring.Errno.ENOTSOCK ? NOT_SOCKET : UNKNOWN;
        }
        if (type != SocketCalls.SOCK_STREAM) {
            return type == SOCK_SEQPACKET ? OTHER_STREAM : DATAGRAM;
        }
        int domain = SocketCalls.getIntOption(sc, fd, SocketCalls.SOL_SOCKET, SO_DOMAIN);
        if (domain == SockAddrs.AF_UNIX) {
            return UNIX_STREAM;
        }
        int protocol = SocketCalls.getIntOption(sc, fd, SocketCalls.SOL_SOCKET, SO_PROTOCOL);
        if (domain < 0 || protocol < 0) {
            return UNKNOWN;
        }
        boolean inet = domain == SockAddrs.AF_INET || domain == SockAddrs.AF_INET6;
        return inet && protocol == SocketCalls.IPPROTO_TCP ? TCP : OTHER_STREAM;
    }

    /** Bytes queued for reading ({@code FIONREAD}, Linux's SIOCINQ), or -errno. */
    public static int bytesQueued(SysCallContext sc, int fd) {
        try {
            MemorySegment v = sc.scratch();
            v.set(JAVA_INT, 0, 0);
            int r = (int) Calls.IOCTL.invokeExact(sc.capture(), fd, (long) FIONREAD, v);
            return r >= 0 ? v.get(JAVA_INT, 0) : -sc.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** The poll events of {@code fd} ready now among {@code events} (0 if none), or -errno. */
    public static int readyNow(SysCallContext sc, int fd, int events) {
        try {
            MemorySegment pfd = sc.scratch();
            pfd.set(JAVA_INT, 0, fd);
            pfd.set(JAVA_SHORT, 4, (short) events);
            pfd.set(JAVA_SHORT, 6, (short) 0);
            int r = (int) Calls.POLL_NOW.invokeExact(sc.capture(), pfd, 1L, 0);
            if (r < 0) {
                return -sc.lastErrno();
            }
            return r == 0 ? 0 : pfd.get(JAVA_SHORT, 6) & 0xFFFF;
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * True if the TCP peer's FIN has arrived (Linux's SOCK_DONE): the connection is in a state
     * only a received FIN leads to (CLOSE_WAIT, LAST_ACK, CLOSING, TIME_WAIT). One getsockopt
     * of TCP_INFO's first bytes (tcpi_state is its first byte).
     */
    public static boolean tcpFinReceived(SysCallContext sc, int fd) {
        int info = SocketCalls.getIntOption(sc, fd, SocketCalls.IPPROTO_TCP, TCP_INFO);
        if (info < 0) {
            return false;
        }
        int state = info & 0xFF;
        return state == TCP_CLOSE_WAIT || state == TCP_LAST_ACK || state == TCP_CLOSING || state == TCP_TIME_WAIT;
    }

    private static final int TCP_TIME_WAIT = 6;
    private static final int TCP_CLOSE_WAIT = 8;
    private static final int TCP_LAST_ACK = 9;
    private static final int TCP_CLOSING = 11;
}
