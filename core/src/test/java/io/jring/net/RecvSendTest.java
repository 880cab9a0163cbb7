package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.MSG_DONTWAIT;
import static io.jring.net.NetTestSupport.MSG_WAITALL;
import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.assertQuiet;
import static io.jring.net.NetTestSupport.byUserData;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.later;
import static io.jring.net.NetTestSupport.laterCall;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.readFully;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.segment;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_RECV and IORING_OP_SEND, plus READ on pipes (liburing test/send_recv.c,
 * test/recv-msgall.c; kernel io_uring/net.c io_recv/io_send). A recv that finds no data and a
 * send that finds no buffer space wait (poll-armed retry) instead of failing; MSG_DONTWAIT
 * makes them fail with -EAGAIN instead; MSG_WAITALL keeps a recv going until the buffer is
 * full or EOF. EOF is 0, a send to a closed peer -EPIPE (never a SIGPIPE: io_uring sends with
 * MSG_NOSIGNAL), a TCP reset -ECONNRESET.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecvSendTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvWaitsForDataWrittenLater(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepRecv(s[0], buf, 0).userData(30);
            assertEquals(1, ring.submit());
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(s[1], ascii("hello")))) {
                assertEquals(cqe(30, 5), withoutNonEmptyHint(next(ring)));
            }
            assertEquals("hello", NetTestSupport.ascii(buf, 5));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvTakesWhatFitsAndLeavesTheRest(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            Fds.write(s[1], ascii("0123456789"));
            MemorySegment small = arena.allocate(4);
            sqe(ring).prepRecv(s[0], small, 0).userData(31);
            assertEquals(cqe(31, 4), withoutNonEmptyHint(submitAndNext(ring)));
            assertEquals("0123", NetTestSupport.ascii(small, 4));
            MemorySegment big = arena.allocate(64);
            sqe(ring).prepRecv(s[0], big, 0).userData(32);
            assertEquals(cqe(32, 6), submitAndNext(ring), "all read: no SOCK_NONEMPTY");
            assertEquals("456789", NetTestSupport.ascii(big, 6));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvWithWaitallCompletesOnlyWhenTheBufferIsFull(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(10);
            sqe(ring).prepRecv(s[0], buf, MSG_WAITALL).userData(33);
            ring.submit();
            Fds.write(s[1], ascii("abcd"));
            assertQuiet(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(s[1], ascii("efghij")))) {
                assertEquals(cqe(33, 10), withoutNonEmptyHint(next(ring)));
            }
            assertEquals("abcdefghij", NetTestSupport.ascii(buf, 10));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvWithWaitallReturnsWhatItGotAtEof(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(10);
            sqe(ring).prepRecv(s[0], buf, MSG_WAITALL).userData(34);
            ring.submit();
            Fds.write(s[1], ascii("abcd"));
            assertQuiet(ring);
            sqe(ring).prepShutdown(s[1], Fds.SHUT_WR).userData(36);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(36, 0), done.get(36L));
            assertEquals(cqe(34, 4), withoutNonEmptyHint(done.get(34L)), "the partial count, not 0");
            assertEquals("abcd", NetTestSupport.ascii(buf, 4));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvOfAClosedPeerIsEof(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(64);
            int[] closed = fds.socketPair();
            fds.close(closed[1]);
            sqe(ring).prepRecv(closed[0], buf, 0).userData(1);
            assertEquals(cqe(1, 0), withoutNonEmptyHint(submitAndNext(ring)));

            int[] closing = fds.socketPair();
            sqe(ring).prepRecv(closing[0], buf, 0).userData(2);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> c = later("closer", () -> fds.close(closing[1]))) {
                assertEquals(cqe(2, 0), withoutNonEmptyHint(next(ring)));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvAndSendWithDontwaitFailWithEagainInsteadOfWaiting(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepRecv(s[0], buf, MSG_DONTWAIT).userData(1);
            assertEquals(cqe(1, -Errno.EAGAIN), submitAndNext(ring));
            long filled = fill(ring, s[0], arena);
            assertTrue(filled > 0);
            sqe(ring).prepSend(s[0], segment(arena, "more"), MSG_DONTWAIT).userData(2);
            assertEquals(cqe(2, -Errno.EAGAIN), submitAndNext(ring));
        }
    }

    /** Fills the send buffer of {@code fd} with MSG_DONTWAIT sends until -EAGAIN; returns the bytes sent. */
    private static long fill(IoUring ring, int fd, Arena arena) {
        MemorySegment chunk = arena.allocate(65536);
        chunk.fill((byte) 'f');
        long total = 0;
        for (int i = 0; i < 1000; i++) {
            sqe(ring).prepSend(fd, chunk, MSG_DONTWAIT).userData(40);
            Completion c = submitAndNext(ring);
            if (c.res() <= 0) {
                assertEquals(cqe(40, -Errno.EAGAIN), c, "a full socket with MSG_DONTWAIT");
                return total;
            }
            total += c.res();
        }
        throw new AssertionError("sent " + total + " bytes without ever filling the socket buffer");
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void sendWaitsForBufferSpace(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            long filled = fill(ring, s[0], arena);
            byte[] tail = new byte[100];
            for (int i = 0; i < tail.length; i++) {
                tail[i] = (byte) ('a' + i % 26);
            }
            MemorySegment last = arena.allocate(tail.length);
            MemorySegment.copy(tail, 0, last, ValueLayout.JAVA_BYTE, 0, tail.length);
            sqe(ring).prepSend(s[0], last, 0).userData(41);
            ring.submit();
            assertNoCqe(ring);
            // A reader drains everything; the waiting send then goes out whole.
            try (Later<byte[]> reader = laterCall("drainer", () -> readFully(s[1], (int) filled + tail.length))) {
                assertEquals(cqe(41, tail.length), next(ring));
                byte[] all = reader.join();
                assertArrayEquals(tail, Arrays.copyOfRange(all, (int) filled, all.length));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void sendToAClosedPeerIsEpipeAndRaisesNoSigpipe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            fds.close(s[1]);
            sqe(ring).prepSend(s[0], segment(arena, "x"), 0).userData(39);
            assertEquals(cqe(39, -Errno.EPIPE), submitAndNext(ring));
            // Still alive and working: the JVM got no fatal SIGPIPE.
            sqe(ring).prepNop().userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
        }
    }

    /** A TCP pair over IPv4 loopback: [client, server]. */
    private static int[] tcpPair(OpenFds fds, IoUring ring) {
        int listener = fds.listen(IPV4, 4);
        int client = fds.connect(Fds.localAddress(listener));
        sqe(ring).prepAccept(listener, 0).userData(99);
        Completion accepted = withoutNonEmptyHint(submitAndNext(ring));
        assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
        return new int[] {client, fds.add(accepted.res())};
    }

    /**
     * Closing a TCP socket with unread data resets the connection. Waits (through a poll on
     * the server) until the data is there, so the close does send a RST.
     */
    private static void resetFromServer(OpenFds fds, IoUring ring, int client, int server) {
        Fds.write(client, ascii("unread"));
        sqe(ring).prepPollAdd(server, Poll.IN).userData(98);
        assertEquals(cqe(98, Poll.IN), submitAndNext(ring));
        fds.close(server);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvOfAResetTcpConnectionIsEconnresetThenSendIsEpipe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] tcp = tcpPair(fds, ring);
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepRecv(tcp[0], buf, 0).userData(52);
            ring.submit();
            assertNoCqe(ring);
            resetFromServer(fds, ring, tcp[0], tcp[1]);
            assertEquals(cqe(52, -Errno.ECONNRESET), next(ring));
            // The recv took the pending error; what is left is a dead connection.
            sqe(ring).prepSend(tcp[0], segment(arena, "x"), 0).userData(53);
            assertEquals(cqe(53, -Errno.EPIPE), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void sendOnAResetTcpConnectionIsEconnresetOnceThenEpipe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] tcp = tcpPair(fds, ring);
            sqe(ring).prepPollAdd(tcp[0], Poll.IN).userData(54);
            ring.submit();
            assertNoCqe(ring);
            resetFromServer(fds, ring, tcp[0], tcp[1]);
            Completion hup = next(ring);
            assertEquals(54, hup.userData());
            // The exact mask depends on which wakeup (state change or error report) runs the
            // poll first; POLLERR is in both.
            assertTrue((hup.res() & Poll.ERR) != 0, "poll after a reset: " + hup);

            MemorySegment x = segment(arena, "x");
            sqe(ring).prepSend(tcp[0], x, 0).userData(55);
            assertEquals(cqe(55, -Errno.ECONNRESET), submitAndNext(ring), "the first send reports the reset");
            sqe(ring).prepSend(tcp[0], x, 0).userData(56);
            assertEquals(cqe(56, -Errno.EPIPE), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void manyRecvsCompleteInTheOrderTheirDataArrives(int setup) {
        int n = 16;
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[][] pairs = new int[n][];
            MemorySegment[] bufs = new MemorySegment[n];
            for (int i = 0; i < n; i++) {
                pairs[i] = fds.socketPair();
                bufs[i] = arena.allocate(64);
                sqe(ring).prepRecv(pairs[i][0], bufs[i], 0).userData(100 + i);
            }
            assertEquals(n, ring.submit());
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> {
                for (int i = n - 1; i >= 0; i--) {
                    Fds.write(pairs[i][1], ascii("m" + i));
                }
            })) {
                Map<Long, Completion> got = byUserData(next(ring, n));
                for (int i = 0; i < n; i++) {
                    String m = "m" + i;
                    assertEquals(cqe(100 + i, m.length()), withoutNonEmptyHint(got.get(100L + i)));
                    assertEquals(m, NetTestSupport.ascii(bufs[i], m.length()));
                }
            }
        }
    }

    @Test
    void recvAndSendOnAPipeAreEnotsock() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRecv(p[0], arena.allocate(8), 0).userData(60);
            assertEquals(cqe(60, -Errno.ENOTSOCK), submitAndNext(ring));
            sqe(ring).prepSend(p[1], segment(arena, "x"), 0).userData(61);
            assertEquals(cqe(61, -Errno.ENOTSOCK), submitAndNext(ring));
        }
    }

    @Test
    void recvIntoAHeapOrClosedSegmentFailsWithoutTouchingTheData() {
        // API.md: buffers must be native; a heap segment gives -EINVAL, a closed one -EFAULT.
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            int[] s = fds.socketPair();
            Fds.write(s[1], ascii("kept"));
            sqe(ring).prepRecv(s[0], MemorySegment.ofArray(new byte[8]), 0).userData(1);
            assertEquals(cqe(1, -Errno.EINVAL), submitAndNext(ring));
            Arena closed = Arena.ofConfined();
            MemorySegment gone = closed.allocate(8);
            closed.close();
            sqe(ring).prepRecv(s[0], gone, 0).userData(2);
            assertEquals(cqe(2, -Errno.EFAULT), submitAndNext(ring));
            byte[] got = new byte[8];
            assertEquals(4, Fds.read(s[0], got), "the failed recvs consumed nothing");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void readOfAnEmptyPipeWaitsForALaterWriteFromAnotherThread(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepRead(p[0], buf, -1).userData(62);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(p[1], ascii("later")))) {
                assertEquals(cqe(62, 5), next(ring));
            }
            assertEquals("later", NetTestSupport.ascii(buf, 5));

            sqe(ring).prepRead(p[0], buf, -1).userData(63);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> c = later("closer", () -> fds.close(p[1]))) {
                assertEquals(cqe(63, 0), next(ring), "EOF once the writer is gone");
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void echoRoundTripsOverOneTcpConnection(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] tcp = tcpPair(fds, ring);
            MemorySegment in = arena.allocate(64);
            MemorySegment out = arena.allocate(64);
            for (int round = 0; round < 50; round++) {
                // The server's recv is armed before the client sends; the server echoes back.
                sqe(ring).prepRecv(tcp[1], in, 0).userData(1);
                ring.submit();
                String msg = "round-" + round;
                MemorySegment m = segment(arena, msg);
                sqe(ring).prepSend(tcp[0], m, 0).userData(2);
                ring.submit();
                Map<Long, Completion> step = byUserData(next(ring, 2));
                assertEquals(cqe(2, msg.length()), step.get(2L));
                assertEquals(cqe(1, msg.length()), withoutNonEmptyHint(step.get(1L)));
                MemorySegment.copy(in, 0, out, 0, msg.length());
                sqe(ring).prepSend(tcp[1], out.asSlice(0, msg.length()), 0).userData(3);
                sqe(ring).prepRecv(tcp[0], in.asSlice(0, msg.length()), MSG_WAITALL).userData(4);
                ring.submit();
                step = byUserData(next(ring, 2));
                assertEquals(cqe(3, msg.length()), step.get(3L));
                assertEquals(cqe(4, msg.length()), withoutNonEmptyHint(step.get(4L)));
                assertEquals(msg, NetTestSupport.ascii(in, msg.length()));
            }
        }
    }
}
