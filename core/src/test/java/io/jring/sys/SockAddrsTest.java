package io.jring.sys;

import io.jring.Errno;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Mirrors {@link SockAddrs}: byte-exact sockaddr_in / sockaddr_in6. */
class SockAddrsTest {
    @Test
    void ipv4IsFamilyHostOrderPortAndAddressNetworkOrder() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(SockAddrs.STORAGE_SIZE);
            dst.fill((byte) 0x55);
            InetSocketAddress a = new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 0x1f90);
            assertEquals(16, SockAddrs.encode(a, dst));
            assertArrayEquals(new byte[] {2, 0, 0x1f, (byte) 0x90, 10, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0},
                    dst.asSlice(0, 16).toArray(JAVA_BYTE));
            assertEquals(a, SockAddrs.decode(dst, 16));
        }
    }

    @Test
    void ipv6CarriesAddressAndScope() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(SockAddrs.STORAGE_SIZE);
            InetSocketAddress a = new InetSocketAddress(InetAddress.getByName("2001:db8::1"), 443);
            assertEquals(28, SockAddrs.encode(a, dst));
            assertEquals(SockAddrs.AF_INET6, SockAddrs.family(dst));
            byte[] raw = dst.asSlice(0, 28).toArray(JAVA_BYTE);
            assertEquals(0x01, raw[2]);
            assertEquals((byte) 0xbb, raw[3]);
            assertEquals(0x20, raw[8]);
            assertEquals(0x01, raw[23]);
            assertEquals(a, SockAddrs.decode(dst, 28));
        }
    }

    @Test
    void unresolvedOrTruncatedAddressesAreRejected() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(SockAddrs.STORAGE_SIZE);
            assertEquals(-Errno.EINVAL, SockAddrs.encode(InetSocketAddress.createUnresolved("x", 1), dst));
            assertEquals(-Errno.EINVAL, SockAddrs.encode(new InetSocketAddress(InetAddress.getLoopbackAddress(), 1),
                    arena.allocate(8)));
            SockAddrs.encode(new InetSocketAddress(InetAddress.getLoopbackAddress(), 1), dst);
            assertNull(SockAddrs.decode(dst, 8));
        }
    }
}
