package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertErrno;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.byUserData;
import static io.jring.net.NetTestSupport.closedPort;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.laterCall;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.segment;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_SOCKET, CONNECT, ACCEPT (single shot) and SHUTDOWN over IPv4 and IPv6 loopback
 * and socket pairs (liburing test/socket.c, test/connect.c, test/accept.c, test/shutdown.c;
 * kernel io_uring/net.c). Results are those of the syscalls: a new fd, 0, or -errno.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SocketOpsTest {

    private static int family(InetAddress address) {
        return address.getAddress().length == 4 ? Fds.AF_INET : Fds.AF_INET6;
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("io.jring.net.NetTestSupport#ringKindsAndLoopbacks")
    void socketConnectAcceptSendAndRecvOverLoopback(int setup, InetAddress loopback) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int listener = fds.listen(loopback, 8);
            InetSocketAddress address = Fds.localAddress(listener);

            sqe(ring).prepAccept(listener, 0).userData(1);
            assertEquals(1, ring.submit());
            assertNoCqe(ring);

            sqe(ring).prepSocket(family(loopback), Fds.SOCK_STREAM | Fds.SOCK_CLOEXEC, 0).userData(2);
            Completion socket = submitAndNext(ring);
            assertEquals(2, socket.userData());
            assertTrue(socket.res() >= 0, "SOCKET: " + socket);
            assertEquals(0, socket.flags());
            int client = fds.add(socket.res());

            sqe(ring).prepConnect(client, address).userData(3);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(3, 0), done.get(3L));
            Completion accepted = withoutNonEmptyHint(done.get(1L));
            assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
            assertEquals(0, accepted.flags(), "ACCEPT: " + accepted);
            int server = fds.add(accepted.res());

            assertEquals(address, Fds.localAddress(server));
            assertEquals(loopback, Fds.localAddress(client).getAddress());

            MemorySegment ping = segment(arena, "ping");
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepSend(client, ping, 0).userData(4);
            assertEquals(cqe(4, 4), submitAndNext(ring));
            sqe(ring).prepRecv(server, buf, 0).userData(5);
            assertEquals(cqe(5, 4), withoutNonEmptyHint(submitAndNext(ring)));
            assertEquals("ping", NetTestSupport.ascii(buf, 4));

            // The other direction, through the plain helpers: the fds are ordinary sockets.
            Fds.write(server, ascii("pong"));
            byte[] got = new byte[8];
            assertEquals(4, Fds.read(client, got));
            assertArrayEquals(ascii("pong"), Arrays.copyOf(got, 4));
        }
    }

    @Test
    void socketWithAnUnknownFamilyOrTypeFails() {
        try (IoUring ring = ring(0)) {
            sqe(ring).prepSocket(12345, Fds.SOCK_STREAM, 0).userData(1);
            assertEquals(cqe(1, -Errno.EAFNOSUPPORT), submitAndNext(ring));
            sqe(ring).prepSocket(Fds.AF_INET, 99, 0).userData(2);
            assertEquals(cqe(2, -Errno.EINVAL), submitAndNext(ring));
        }
    }

    /** Linux's SOCKET has no file to look up, so FIXED_FILE is ignored (6.18 + liburing: an fd, whatever sqe->fd). */
    @Test
    void socketIgnoresFixedFileAndGivesAPlainDescriptor() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            sqe(ring).prepSocket(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(1).flags(io.jring.SqeFlags.FIXED_FILE);
            Completion c = submitAndNext(ring);
            assertTrue(c.res() >= 0, "SOCKET: " + c);
            fds.add(c.res());
            assertEquals(0, Fds.localAddress(c.res()).getPort(), "a real, unbound TCP socket");
        }
    }

    @Test
    void socketCreatesDatagramSocketsToo() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            sqe(ring).prepSocket(Fds.AF_INET6, Fds.SOCK_DGRAM | Fds.SOCK_CLOEXEC, 0).userData(1);
            Completion c = submitAndNext(ring);
            assertTrue(c.res() >= 0, "SOCKET: " + c);
            fds.add(c.res());
            // Unbound: the wildcard address, port 0.
            InetSocketAddress local = Fds.localAddress(c.res());
            assertEquals(0, local.getPort());
            assertTrue(local.getAddress().isAnyLocalAddress(), local.toString());
        }
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("io.jring.net.NetTestSupport#ringKindsAndLoopbacks")
    void connectToAClosedPortIsEconnrefused(int setup, InetAddress loopback) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            InetSocketAddress nobody = closedPort(loopback);
            sqe(ring).prepSocket(family(loopback), Fds.SOCK_STREAM | Fds.SOCK_CLOEXEC, 0).userData(1);
            Completion socket = submitAndNext(ring);
            assertTrue(socket.res() >= 0, "SOCKET: " + socket);
            int fd = fds.add(socket.res());
            sqe(ring).prepConnect(fd, nobody).userData(2);
            assertEquals(cqe(2, -Errno.ECONNREFUSED), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void connectOfAConnectedSocketIsEisconn(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.listen(IPV4, 4);
            InetSocketAddress address = Fds.localAddress(listener);
            int client = fds.connect(address);
            sqe(ring).prepConnect(client, address).userData(1);
            assertEquals(cqe(1, -Errno.EISCONN), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("io.jring.net.NetTestSupport#ringKindsAndLoopbacks")
    void acceptWaitsForAClientThatConnectsLater(int setup, InetAddress loopback) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.listen(loopback, 4);
            InetSocketAddress address = Fds.localAddress(listener);
            sqe(ring).prepAccept(listener, 0).userData(6);
            ring.submit();
            assertNoCqe(ring);
            int client;
            try (Later<Integer> c = laterCall("client", () -> Fds.connectTcp(address))) {
                Completion accepted = withoutNonEmptyHint(next(ring));
                client = fds.add(c.join());
                assertEquals(6, accepted.userData());
                assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
                assertEquals(0, accepted.flags());
                int server = fds.add(accepted.res());
                Fds.write(client, ascii("hi"));
                byte[] got = new byte[4];
                assertEquals(2, Fds.read(server, got));
            }
            assertNoCqe(ring);
        }
    }

    @Test
    void acceptWithSockNonblockGivesANonBlockingSocket() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            int listener = fds.listen(IPV4, 4);
            fds.connect(Fds.localAddress(listener));
            sqe(ring).prepAccept(listener, Fds.SOCK_NONBLOCK | Fds.SOCK_CLOEXEC).userData(7);
            Completion accepted = withoutNonEmptyHint(submitAndNext(ring));
            assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
            int server = fds.add(accepted.res());
            // Nothing was sent: a non-blocking read fails with EAGAIN instead of blocking.
            IoUringException e = assertThrows(IoUringException.class, () -> Fds.read(server, new byte[4]));
            assertEquals(Errno.EAGAIN, e.errno());
        }
    }

    @Test
    void acceptOnANonListeningSocketIsEinvalAndOnAPipeEnotsock() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            sqe(ring).prepSocket(Fds.AF_INET, Fds.SOCK_STREAM | Fds.SOCK_CLOEXEC, 0).userData(1);
            Completion socket = submitAndNext(ring);
            assertTrue(socket.res() >= 0, "SOCKET: " + socket);
            int fd = fds.add(socket.res());
            sqe(ring).prepAccept(fd, 0).userData(2);
            assertEquals(cqe(2, -Errno.EINVAL), submitAndNext(ring));

            int[] p = fds.pipe();
            sqe(ring).prepAccept(p[0], 0).userData(3);
            assertEquals(cqe(3, -Errno.ENOTSOCK), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void shutdownOfTheWriteSideGivesThePeerEofAndLaterSendsEpipe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            sqe(ring).prepShutdown(s[0], Fds.SHUT_WR).userData(12);
            assertEquals(cqe(12, 0), submitAndNext(ring));
            assertEquals(0, Fds.read(s[1], new byte[8]), "the peer reads EOF");
            sqe(ring).prepSend(s[0], segment(arena, "x"), 0).userData(13);
            assertEquals(cqe(13, -Errno.EPIPE), submitAndNext(ring));
            // Half-close: the other direction still works.
            Fds.write(s[1], ascii("back"));
            assertEquals(4, Fds.read(s[0], new byte[8]));
        }
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("io.jring.net.NetTestSupport#ringKindsAndLoopbacks")
    void shutdownOverTcpIsAHalfClose(int setup, InetAddress loopback) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int listener = fds.listen(loopback, 4);
            int client = fds.connect(Fds.localAddress(listener));
            sqe(ring).prepAccept(listener, 0).userData(1);
            Completion accepted = withoutNonEmptyHint(submitAndNext(ring));
            assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
            int server = fds.add(accepted.res());

            MemorySegment buf = arena.allocate(16);
            sqe(ring).prepRecv(server, buf, 0).userData(2);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepShutdown(client, Fds.SHUT_WR).userData(3);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(3, 0), done.get(3L));
            assertEquals(cqe(2, 0), withoutNonEmptyHint(done.get(2L)), "the server's recv sees EOF");

            sqe(ring).prepSend(server, segment(arena, "bye"), 0).userData(4);
            assertEquals(cqe(4, 3), submitAndNext(ring));
            sqe(ring).prepRecv(client, buf, 0).userData(5);
            assertEquals(cqe(5, 3), withoutNonEmptyHint(submitAndNext(ring)));
            assertEquals("bye", NetTestSupport.ascii(buf, 3));
        }
    }

    @Test
    void shutdownOfAPipeIsEnotsockAndOfAnUnconnectedSocketEnotconn() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            int[] p = fds.pipe();
            sqe(ring).prepShutdown(p[0], Fds.SHUT_WR).userData(1);
            assertEquals(cqe(1, -Errno.ENOTSOCK), submitAndNext(ring));

            sqe(ring).prepSocket(Fds.AF_INET, Fds.SOCK_STREAM | Fds.SOCK_CLOEXEC, 0).userData(2);
            Completion socket = submitAndNext(ring);
            assertTrue(socket.res() >= 0, "SOCKET: " + socket);
            int fd = fds.add(socket.res());
            sqe(ring).prepShutdown(fd, Fds.SHUT_WR).userData(3);
            assertEquals(cqe(3, -Errno.ENOTCONN), submitAndNext(ring));
        }
    }

    @Test
    void badFdIsEbadf() {
        try (IoUring ring = ring(0)) {
            sqe(ring).prepAccept(-1, 0).userData(1);
            sqe(ring).prepConnect(-1, new InetSocketAddress(IPV4, 9)).userData(2);
            sqe(ring).prepShutdown(-1, Fds.SHUT_RDWR).userData(3);
            Map<Long, Completion> done;
            ring.submit();
            // Without SUBMIT_ALL submission may stop after the first failed SQE; submit again.
            ring.submit();
            ring.submit();
            done = byUserData(next(ring, 3));
            for (long ud = 1; ud <= 3; ud++) {
                assertErrno(Errno.EBADF, done.get(ud));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void socketpairHelperGivesConnectedStreamsTheRingCanUse(int setup) {
        // Fds.socketPair is what most tests here build on: check it with plain reads and writes.
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            assertEquals(3, Fds.write(s[0], ascii("abc")));
            byte[] got = new byte[8];
            assertEquals(3, Fds.read(s[1], got));
            assertEquals("abc", new String(got, 0, 3, java.nio.charset.StandardCharsets.US_ASCII));
            sqe(ring).prepNop().userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
        }
    }
}
