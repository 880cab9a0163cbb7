package io.jring.net;

import static io.jring.net.NetTestSupport.MSG_DONTWAIT;
import static io.jring.net.NetTestSupport.MSG_WAITALL;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A transfer that moved data and then ends without finishing (cancelled by ASYNC_CANCEL or by
 * its LINK_TIMEOUT, or short of MSG_WAITALL) reports the bytes it moved, never -ECANCELED
 * over them: the application must learn about bytes that left the socket (kernel
 * io_uring/net.c io_sendrecv_fail; rw.c io_rw_fail). It still counts as failed: its link
 * breaks and CQE_SKIP_SUCCESS does not hide it. Each case was run on Linux 6.18 first.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PartialTransferCancelTest {
    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** The socket is empty now: a MSG_DONTWAIT recv finds nothing. */
    private static void assertDrained(IoUring ring, int fd, Arena arena) {
        sqe(ring).prepRecv(fd, arena.allocate(16), MSG_DONTWAIT).userData(90);
        assertEquals(cqe(90, -Errno.EAGAIN), submitAndNext(ring), "nothing left in the socket");
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void cancelledWaitallRecvCompletesWithTheBytesItTook(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(4096);
            byte[] sent = pattern(100);
            Fds.write(s[1], sent);
            sqe(ring).prepRecv(s[0], buf, MSG_WAITALL).userData(1);
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            assertEquals(List.of(cqe(2, 0), cqe(1, 100)), next(ring, 2));
            assertArrayEquals(sent, buf.asSlice(0, 100).toArray(ValueLayout.JAVA_BYTE), "the bytes it took are there");
            assertDrained(ring, s[0], arena);

            Fds.write(s[1], sent);
            sqe(ring).prepRecv(s[0], buf, MSG_WAITALL).userData(3);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepCancel(3, 0).userData(4);
            ring.submit();
            assertEquals(List.of(cqe(4, 0), cqe(3, 100)), next(ring, 2), "cancelled while it waited");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void waitallRecvItsLinkTimeoutCancelsReportsTheBytesItTook(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            Fds.write(s[1], pattern(100));
            sqe(ring).prepRecv(s[0], arena.allocate(4096), MSG_WAITALL).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(20_000_000L, 0).userData(2);
            ring.submit();
            assertEquals(List.of(cqe(2, -Errno.ETIME), cqe(1, 100)), next(ring, 2));
            assertDrained(ring, s[0], arena);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void cancelledWaitallRecvStillFailsItsLinkAndIgnoresSkipSuccess(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            Fds.write(s[1], pattern(100));
            sqe(ring).prepRecv(s[0], arena.allocate(4096), MSG_WAITALL).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(3);
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            assertEquals(List.of(cqe(2, 0), cqe(1, 100), cqe(3, -Errno.ECANCELED)), next(ring, 3));

            Fds.write(s[1], pattern(100));
            sqe(ring).prepRecv(s[0], arena.allocate(4096), MSG_WAITALL).userData(4).flags(SqeFlags.CQE_SKIP_SUCCESS);
            sqe(ring).prepCancel(4, 0).userData(5);
            ring.submit();
            assertEquals(List.of(cqe(5, 0), cqe(4, 100)), next(ring, 2), "a failure: not skipped");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void waitallRecvThatEndsShortFailsItsLink(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] eof = fds.socketPair();
            Fds.write(eof[1], pattern(4));
            fds.close(eof[1]);
            sqe(ring).prepRecv(eof[0], arena.allocate(10), MSG_WAITALL).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            ring.submit();
            assertEquals(List.of(cqe(1, 4), cqe(2, -Errno.ECANCELED)), next(ring, 2), "EOF after 4 of 10");

            int[] dontwait = fds.socketPair();
            Fds.write(dontwait[1], pattern(100));
            sqe(ring).prepRecv(dontwait[0], arena.allocate(4096), MSG_WAITALL | MSG_DONTWAIT).userData(3)
                    .flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(4);
            ring.submit();
            assertEquals(List.of(cqe(3, 100), cqe(4, -Errno.ECANCELED)), next(ring, 2), "DONTWAIT after 100");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void cancelledWaitallSendReportsTheBytesThePeerReceives(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment big = arena.allocate(1 << 20);
            sqe(ring).prepSend(s[0], big, MSG_WAITALL).userData(1);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            List<Completion> done = next(ring, 2);
            assertEquals(cqe(2, 0), done.get(0));
            Completion send = done.get(1);
            assertEquals(1, send.userData());
            assertTrue(send.res() > 0 && send.res() < (1 << 20), "a partial count, not -ECANCELED: " + send);
            long received = 0;
            MemorySegment sink = arena.allocate(65536);
            for (;;) {
                sqe(ring).prepRecv(s[1], sink, MSG_DONTWAIT).userData(3);
                Completion c = submitAndNext(ring);
                if (c.res() < 0) {
                    assertEquals(-Errno.EAGAIN, c.res());
                    break;
                }
                received += c.res();
            }
            assertEquals(send.res(), received, "the count is what the peer got");
        }
    }
}
