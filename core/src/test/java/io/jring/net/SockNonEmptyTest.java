package io.jring.net;

import static io.jring.net.NetTestSupport.MSG_WAITALL;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_CQE_F_SOCK_NONEMPTY (kernel io_uring/net.c io_recv_finish, io_accept): a RECV's CQE
 * has it when the socket still holds data after the recv, as its msg_inq says; an ACCEPT's
 * when more connections wait on a TCP listener. Each case was run on Linux 6.18 first: AF_UNIX
 * stream sockets report the bytes left (peeked ones too, none at EOF); TCP reports them too,
 * and 1 once the peer's FIN has arrived, so every EOF recv has the flag (and, on Linux, a
 * short read that found the FIN already in), while one after a reset or after a local
 * SHUT_RD does not.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SockNonEmptyTest {
    private static final int NONEMPTY = CqeFlags.SOCK_NONEMPTY;
    private static final int MSG_PEEK = 0x2;

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) 'x');
        return b;
    }

    private static Completion recv(IoUring ring, int fd, MemorySegment buf, int len, int flags, long ud) {
        sqe(ring).prepRecv(fd, buf.asSlice(0, len), flags).userData(ud);
        return submitAndNext(ring);
    }

    /** A connected loopback TCP pair: {client, accepted}; waits until the accept queue is empty again. */
    private static int[] tcpPair(OpenFds fds, IoUring ring, InetAddress loopback) {
        int listener = fds.listen(loopback, 4);
        int client = fds.connect(Fds.localAddress(listener));
        sqe(ring).prepAccept(listener, 0).userData(99);
        Completion accepted = submitAndNext(ring);
        assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
        return new int[] {client, fds.add(accepted.res())};
    }

    /** Waits until {@code fd} is readable (the peer's bytes or FIN arrived), through a poll. */
    private static void awaitReadable(IoUring ring, int fd) {
        sqe(ring).prepPollAdd(fd, Poll.IN).userData(98);
        assertEquals(98, submitAndNext(ring).userData());
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void unixRecvThatLeavesBytesInTheSocketSetsSockNonEmpty(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(4096);
            Fds.write(s[1], bytes(2955));
            assertEquals(cqe(1, 100, NONEMPTY), recv(ring, s[0], buf, 100, 0, 1), "100 read of 2955");
            assertEquals(cqe(2, 100, NONEMPTY), recv(ring, s[0], buf, 100, MSG_WAITALL, 2), "WAITALL, more queued");
            assertEquals(cqe(3, 2755), recv(ring, s[0], buf, 4096, 0, 3), "the rest: nothing left");
            Fds.write(s[1], bytes(10));
            assertEquals(cqe(4, 10), recv(ring, s[0], buf, 10, 0, 4), "exactly what was queued");
            Fds.write(s[1], bytes(10));
            assertEquals(cqe(5, 0, NONEMPTY), recv(ring, s[0], buf, 0, 0, 5), "a zero-length recv");
        }
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("io.jring.net.NetTestSupport#ringKindsAndLoopbacks")
    void tcpRecvThatLeavesBytesInTheSocketSetsSockNonEmpty(int setup, InetAddress loopback) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] tcp = tcpPair(fds, ring, loopback);
            MemorySegment buf = arena.allocate(4096);
            Fds.write(tcp[1], bytes(2955));
            awaitReadable(ring, tcp[0]);
            assertEquals(cqe(1, 100, NONEMPTY), recv(ring, tcp[0], buf, 100, 0, 1));
            assertEquals(cqe(2, 2855), recv(ring, tcp[0], buf, 4096, 0, 2), "all read, no FIN yet");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void peekedBytesStayQueuedSoAPeekSetsSockNonEmpty(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(100);
            int[] s = fds.socketPair();
            int[] tcp = tcpPair(fds, ring, NetTestSupport.IPV4);
            for (int[] pair : new int[][] {s, tcp}) {
                Fds.write(pair[1], bytes(100));
                awaitReadable(ring, pair[0]);
                assertEquals(cqe(1, 100, NONEMPTY), recv(ring, pair[0], buf, 100, MSG_PEEK, 1));
                assertEquals(cqe(2, 100), recv(ring, pair[0], buf, 100, 0, 2));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void tcpRecvSetsSockNonEmptyOnceThePeersFinArrivedButUnixDoesNotAtEof(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(100);
            int[] tcp = tcpPair(fds, ring, NetTestSupport.IPV4);
            Fds.write(tcp[1], bytes(50));
            sqe(ring).prepShutdown(tcp[1], Fds.SHUT_WR).userData(97);
            assertEquals(cqe(97, 0), submitAndNext(ring));
            awaitReadable(ring, tcp[0]);
            // Linux sets the flag here too (the FIN counts as 1): jring keeps a syscall off
            // every short TCP read instead, and the next recv, the EOF, has it.
            assertEquals(cqe(1, 50), withoutNonEmptyHint(recv(ring, tcp[0], buf, 100, 0, 1)), "data, then FIN");
            assertEquals(cqe(2, 0, NONEMPTY), recv(ring, tcp[0], buf, 100, 0, 2), "EOF");
            assertEquals(cqe(3, 0, NONEMPTY), recv(ring, tcp[0], buf, 100, 0, 3), "EOF again");

            int[] s = fds.socketPair();
            Fds.write(s[1], bytes(50));
            fds.close(s[1]);
            assertEquals(cqe(4, 10, NONEMPTY), recv(ring, s[0], buf, 10, 0, 4), "bytes left after the peer closed");
            assertEquals(cqe(5, 40), recv(ring, s[0], buf, 100, 0, 5));
            assertEquals(cqe(6, 0), recv(ring, s[0], buf, 100, 0, 6), "unix EOF: nothing left");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void tcpRecvAfterAResetOrALocalShutdownHasNoSockNonEmptyOnceEmpty(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(100);
            int[] local = tcpPair(fds, ring, NetTestSupport.IPV4);
            Fds.write(local[1], bytes(10));
            awaitReadable(ring, local[0]);
            sqe(ring).prepShutdown(local[0], Fds.SHUT_RD).userData(97);
            assertEquals(cqe(97, 0), submitAndNext(ring));
            assertEquals(cqe(1, 4, NONEMPTY), recv(ring, local[0], buf, 4, 0, 1), "bytes left");
            assertEquals(cqe(2, 6), recv(ring, local[0], buf, 100, 0, 2), "no FIN came: nothing left");

            int[] reset = tcpPair(fds, ring, NetTestSupport.IPV4);
            Fds.write(reset[0], bytes(6));
            awaitReadable(ring, reset[1]);
            fds.close(reset[1]);   // unread data: the close resets the connection
            awaitReadable(ring, reset[0]);
            assertEquals(cqe(3, -Errno.ECONNRESET), recv(ring, reset[0], buf, 100, 0, 3));
            assertEquals(cqe(4, 0), recv(ring, reset[0], buf, 100, 0, 4), "after a reset: no FIN");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvThatWaitedSetsSockNonEmptyWhenMoreArrivedThanItTook(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(100);
            sqe(ring).prepRecv(s[0], buf, 0).userData(1);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> w = NetTestSupport.later("writer", () -> Fds.write(s[1], bytes(2955)))) {
                assertEquals(cqe(1, 100, NONEMPTY), next(ring));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void acceptSetsSockNonEmptyWhileMoreTcpConnectionsWait(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.listen(NetTestSupport.IPV4, 8);
            fds.connect(Fds.localAddress(listener));
            fds.connect(Fds.localAddress(listener));
            awaitReadable(ring, listener);
            sqe(ring).prepAccept(listener, 0).userData(1);
            Completion first = submitAndNext(ring);
            fds.add(first.res());
            assertEquals(NONEMPTY, first.flags(), "one more waits: " + first);
            sqe(ring).prepAccept(listener, 0).userData(2);
            Completion second = submitAndNext(ring);
            fds.add(second.res());
            assertEquals(0, second.flags(), "none left: " + second);
            assertEquals(cqe(2, second.res()), withoutNonEmptyHint(second));

            for (int i = 0; i < 3; i++) {
                fds.connect(Fds.localAddress(listener));
            }
            awaitReadable(ring, listener);
            sqe(ring).prepMultishotAccept(listener, 0).userData(3);
            ring.submit();
            int[] flags = new int[3];
            for (int i = 0; i < 3; i++) {
                Completion c = next(ring);
                fds.add(c.res());
                flags[i] = c.flags();
            }
            int more = CqeFlags.MORE;
            assertEquals(java.util.List.of(more | NONEMPTY, more | NONEMPTY, more),
                    java.util.List.of(flags[0], flags[1], flags[2]), "multishot: each CQE says whether more wait");
        }
    }
}
