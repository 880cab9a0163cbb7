package io.jring.net;

import static io.jring.net.NetTestSupport.assertQuiet;
import static io.jring.net.NetTestSupport.cancelled;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request waiting for readiness on a socket that is then closed (by CLOSE or
 * {@code Fds.close}) belongs to the closed file, as in Linux, where it holds that file: when
 * the number is reused by a new socket, the new socket's data goes to the request armed on
 * the new socket, never to the old one, which stays pending until cancelled. The same SQEs on
 * the kernel's own io_uring (6.18): new recv {@code res=2}, cancel 0, old recv -ECANCELED.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FdReuseTest {
    static Stream<Arguments> ringKindsAndCloses() {
        return Stream.of(Arguments.of(0, true), Arguments.of(0, false),
                Arguments.of(NetTestSupport.DEFER, true), Arguments.of(NetTestSupport.DEFER, false));
    }

    @ParameterizedTest(name = "setup 0x{0} closeOp={1}")
    @MethodSource("ringKindsAndCloses")
    void aRecvArmedOnAClosedNumberDoesNotTakeTheNewSocketsData(int setup, boolean closeOp) {
        try (IoUring ring = ring(setup, false); Arena arena = Arena.ofConfined()) {
            MemorySegment oldBuf = arena.allocate(64);
            MemorySegment newBuf = arena.allocate(64);
            int[] first = Fds.socketPair();
            sqe(ring).prepRecv(first[0], oldBuf, 0).userData(1);
            ring.submit();
            closeWhilePending(ring, first[0], closeOp);
            int[] second = Fds.socketPair();
            try {
                assertEquals(first[0], second[0], "the new socket takes the closed number (lowest free)");
                sqe(ring).prepRecv(second[0], newBuf, 0).userData(2);
                ring.submit();
                Fds.write(second[1], new byte[] {7, 8});
                assertEquals(cqe(2, 2), withoutNonEmptyHint(next(ring)), "the new recv gets the new socket's data");
                assertEquals(7, newBuf.get(ValueLayout.JAVA_BYTE, 0));
                assertQuiet(ring);
                sqe(ring).prepCancel(1, 0).userData(3);
                ring.submit();
                assertEquals(Set.of(cqe(3, 0), cancelled(1)),
                        Set.of(next(ring), next(ring)), "the old recv was still pending");
            } finally {
                Fds.close(second[0]);
                Fds.close(second[1]);
                Fds.close(first[1]);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0} closeOp={1}")
    @MethodSource("ringKindsAndCloses")
    void aPollArmedOnAClosedNumberDoesNotReportTheNewSocket(int setup, boolean closeOp) {
        try (IoUring ring = ring(setup, false)) {
            int[] first = Fds.socketPair();
            sqe(ring).prepPollAdd(first[0], Poll.IN).userData(1);
            ring.submit();
            closeWhilePending(ring, first[0], closeOp);
            int[] second = Fds.socketPair();
            try {
                sqe(ring).prepPollAdd(second[0], Poll.IN).userData(2);
                ring.submit();
                Fds.write(second[1], new byte[] {1});
                assertEquals(cqe(2, Poll.IN), next(ring));
                assertQuiet(ring);
                sqe(ring).prepCancel(1, 0).userData(3);
                ring.submit();
                assertEquals(Set.of(cqe(3, 0), cancelled(1)), Set.of(next(ring), next(ring)));
            } finally {
                Fds.close(second[0]);
                Fds.close(second[1]);
                Fds.close(first[1]);
            }
        }
    }

    private static void closeWhilePending(IoUring ring, int fd, boolean closeOp) {
        if (closeOp) {
            sqe(ring).prepClose(fd).userData(9);
            ring.submit();
            assertEquals(cqe(9, 0), next(ring));
        } else {
            Fds.close(fd);
        }
        assertQuiet(ring);
    }
}
