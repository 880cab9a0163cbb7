package io.jring.sys;

import io.jring.Errno;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * {@code sockaddr_in} (16 bytes) and {@code sockaddr_in6} (28 bytes) to and from
 * {@link InetSocketAddress}. The family is in host byte order, port, address and flow info in
 * network byte order, the IPv6 scope id in host order.
 */
public final class SockAddrs {
    private SockAddrs() {}

    public static final int AF_UNIX = 1;
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;

    public static final int SOCKADDR_IN_SIZE = 16;
    public static final int SOCKADDR_IN6_SIZE = 28;
    /** {@code sizeof(struct sockaddr_storage)}: room for any address the kernel returns. */
    public static final int STORAGE_SIZE = 128;

    private static final ValueLayout.OfShort NET_SHORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The address family to create a socket for {@code address}. */
    public static int familyOf(InetSocketAddress address) {
        return address.getAddress() instanceof Inet6Address ? AF_INET6 : AF_INET;
    }

    /**
     * Writes {@code address} at the start of {@code dst}; returns its length (the
     * {@code socklen_t} to pass), or {@code -EINVAL} if it is unresolved or {@code dst} too small.
     */
    public static int encode(InetSocketAddress address, MemorySegment dst) {
        InetAddress ip = address.getAddress();
        if (ip == null) {
            return -Errno.EINVAL;
        }
        byte[] raw = ip.getAddress();
        if (ip instanceof Inet4Address) {
            if (dst.byteSize() < SOCKADDR_IN_SIZE) {
                return -Errno.EINVAL;
            }
            dst.set(JAVA_SHORT_UNALIGNED, 0, (short) AF_INET);
            dst.set(NET_SHORT, 2, (short) address.getPort());
            MemorySegment.copy(raw, 0, dst, JAVA_BYTE, 4, 4);
            dst.set(JAVA_LONG_UNALIGNED, 8, 0L);          // sin_zero
            return SOCKADDR_IN_SIZE;
        }
        if (dst.byteSize() < SOCKADDR_IN6_SIZE) {
            return -Errno.EINVAL;
        }
        dst.set(JAVA_SHORT_UNALIGNED, 0, (short) AF_INET6);
        dst.set(NET_SHORT, 2, (short) address.getPort());
        dst.set(JAVA_INT_UNALIGNED, 4, 0);                // sin6_flowinfo
        MemorySegment.copy(raw, 0, dst, JAVA_BYTE, 8, 16);
        dst.set(JAVA_INT_UNALIGNED, 24, ((Inet6Address) ip).getScopeId());
        return SOCKADDR_IN6_SIZE;
    }

    /** The {@code sa_family} of the address at the start of {@code src}. */
    public static int family(MemorySegment src) {
        return Short.toUnsignedInt(src.get(JAVA_SHORT_UNALIGNED, 0));
    }

    /**
     * The IPv4/IPv6 address of {@code len} bytes at the start of {@code src}, or null if it is
     * another family or truncated.
     */
    public static InetSocketAddress decode(MemorySegment src, int len) {
        if (len < 2) {
            return null;
        }
        int family = family(src);
        int port = Short.toUnsignedInt(src.get(NET_SHORT, 2));
        try {
            if (family == AF_INET && len >= SOCKADDR_IN_SIZE) {
                byte[] raw = new byte[4];
                MemorySegment.copy(src, JAVA_BYTE, 4, raw, 0, 4);
                return new InetSocketAddress(InetAddress.getByAddress(raw), port);
            }
            if (family == AF_INET6 && len >= SOCKADDR_IN6_SIZE) {
                byte[] raw = new byte[16];
                MemorySegment.copy(src, JAVA_BYTE, 8, raw, 0, 16);
                int scope = src.get(JAVA_INT_UNALIGNED, 24);
                InetAddress ip = scope != 0
                        ? Inet6Address.getByAddress(null, raw, scope)
                        : InetAddress.getByAddress(raw);
                return new InetSocketAddress(ip, port);
            }
        } catch (UnknownHostException impossible) {
            // getByAddress only throws for a wrong array length, which cannot happen here.
        }
        return null;
    }
}
