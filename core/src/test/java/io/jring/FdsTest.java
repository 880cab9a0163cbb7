package io.jring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link Fds}: the public descriptor helpers. */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)   // a blocked read must fail, not hang
class FdsTest {
    @TempDir
    Path dir;

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void pipeCarriesBytesAndReadsEofAfterWriterCloses() {
        int[] p = Fds.pipe();
        assertEquals(5, Fds.write(p[1], ascii("hello")));
        byte[] dst = new byte[16];
        assertEquals(5, Fds.read(p[0], dst));
        assertArrayEquals(ascii("hello"), Arrays.copyOf(dst, 5));
        Fds.close(p[1]);
        assertEquals(0, Fds.read(p[0], dst));
        Fds.close(p[0]);
    }

    @Test
    void socketPairIsBidirectional() {
        int[] s = Fds.socketPair();
        try {
            Fds.write(s[0], ascii("a"));
            Fds.write(s[1], ascii("bc"));
            byte[] dst = new byte[4];
            assertEquals(1, Fds.read(s[1], dst));
            assertEquals(2, Fds.read(s[0], dst));
        } finally {
            Fds.close(s[0]);
            Fds.close(s[1]);
        }
    }

    @Test
    void openCreatesAndWritesAFile() throws Exception {
        Path file = dir.resolve("out");
        int fd = Fds.open(file, OpenFlags.WRONLY | OpenFlags.CREAT | OpenFlags.TRUNC, 0644);
        byte[] big = new byte[200_000];
        Arrays.fill(big, (byte) 'x');
        assertEquals(big.length, Fds.write(fd, big));
        Fds.close(fd);
        assertEquals(big.length, Files.size(file));
    }

    @Test
    void openOfMissingFileThrowsWithErrno() {
        IoUringException e = assertThrows(IoUringException.class,
                () -> Fds.open(dir.resolve("missing"), OpenFlags.RDONLY, 0));
        assertEquals(Errno.ENOENT, e.errno());
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void closeOfBadFdThrowsEbadf() {
        assertEquals(Errno.EBADF, assertThrows(IoUringException.class, () -> Fds.close(-1)).errno());
    }

    @Test
    void listenOnPortZeroThenConnectOverIpv4AndIpv6() throws Exception {
        for (String host : new String[] {"127.0.0.1", "::1"}) {
            InetAddress ip = InetAddress.getByName(host);
            int listener = Fds.listenTcp(new InetSocketAddress(ip, 0), 4);
            InetSocketAddress bound = Fds.localAddress(listener);
            assertEquals(ip, bound.getAddress());
            assertTrue(bound.getPort() > 0);
            int client = Fds.connectTcp(bound);
            assertEquals(ip, Fds.localAddress(client).getAddress());
            Fds.close(client);
            Fds.close(listener);
        }
    }

    @Test
    void listenOnBusyPortThrowsEaddrinuse() {
        int listener = Fds.listenTcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
        try {
            InetSocketAddress bound = Fds.localAddress(listener);
            IoUringException e = assertThrows(IoUringException.class, () -> Fds.listenTcp(bound, 1));
            assertEquals(Errno.EADDRINUSE, e.errno());
        } finally {
            Fds.close(listener);
        }
    }

    @Test
    void connectToClosedPortThrowsEconnrefused() {
        int listener = Fds.listenTcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
        InetSocketAddress address = Fds.localAddress(listener);
        Fds.close(listener);
        assertEquals(Errno.ECONNREFUSED,
                assertThrows(IoUringException.class, () -> Fds.connectTcp(address)).errno());
        assertEquals(Errno.EINVAL, assertThrows(IoUringException.class,
                () -> Fds.connectTcp(InetSocketAddress.createUnresolved("example.invalid", 80))).errno());
    }

    @Test
    void localAddressOfUnixSocketIsEafnosupport() {
        int[] s = Fds.socketPair();
        try {
            assertEquals(Errno.EAFNOSUPPORT,
                    assertThrows(IoUringException.class, () -> Fds.localAddress(s[0])).errno());
        } finally {
            Fds.close(s[0]);
            Fds.close(s[1]);
        }
    }

    @Test
    void constantsHaveLinuxValues() {
        assertEquals(2, Fds.AF_INET);
        assertEquals(10, Fds.AF_INET6);
        assertEquals(04000, Fds.SOCK_NONBLOCK);
        assertEquals(02000000, Fds.SOCK_CLOEXEC);
        assertEquals(-100, Fds.AT_FDCWD);
    }
}
