package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Cancel;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ASYNC_CANCEL with {@link Cancel#ALL}, {@link Cancel#FD} and {@link Cancel#ANY} over many
 * requests (liburing test/poll-cancel-all.c): FD|ALL cancels every request on that
 * descriptor and nothing else; ANY|ALL cancels everything, plain or ASYNC, polls or reads;
 * the cancel's result is the number cancelled.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PollCancelAllTest {

    /**
     * Lets ASYNC requests reach their resting state (io-wq handed them to poll) before they are
     * cancelled, as poll-cancel-all.c does with usleep(10000): while one is on its way Linux
     * may count it differently (seen: 3 for 4 cancelled).
     */
    private static void settle(IoUring ring) {
        assertEquals(null, ring.waitCqe(java.time.Duration.ofMillis(100)), "nothing completes by itself");
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void fdAllCancelsAllEightPollsOnAPipe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            List<Completion> want = new ArrayList<>();
            for (int i = 1; i <= 8; i++) {
                sqe(ring).prepPollAdd(p[0], Poll.IN).userData(i);
                want.add(cancelled(i));
            }
            assertEquals(8, ring.submit());
            sqe(ring).prepCancelFd(p[0], Cancel.ALL).userData(100);
            ring.submit();
            want.add(cqe(100, 8));
            assertAnyOrder(want, next(ring, 9));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void fdAllCancelsOnlyThatDescriptorsPolls(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p0 = fds.pipe();
            int[] p1 = fds.pipe();
            for (int i = 0; i < 8; i++) {
                sqe(ring).prepPollAdd((i & 1) == 0 ? p0[0] : p1[0], Poll.IN).userData(i & 1);
            }
            assertEquals(8, ring.submit());
            sqe(ring).prepCancelFd(p0[0], Cancel.ALL).userData(100);
            ring.submit();
            assertAnyOrder(List.of(cqe(100, 4), cancelled(0), cancelled(0), cancelled(0), cancelled(0)),
                    next(ring, 5));
            assertQuiet(ring);
            sqe(ring).prepCancelFd(p1[0], Cancel.ALL).userData(100);
            ring.submit();
            assertAnyOrder(List.of(cqe(100, 4), cancelled(1), cancelled(1), cancelled(1), cancelled(1)),
                    next(ring, 5));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anyAllCancelsAsyncAndPlainPolls(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p0 = fds.pipe();
            int[] p1 = fds.pipe();
            List<Completion> want = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                boolean even = (i & 1) == 0;
                sqe(ring).prepPollAdd(even ? p0[0] : p1[0], Poll.IN).userData(i & 1)
                        .flags(even ? SqeFlags.ASYNC : 0);
                want.add(cancelled(i & 1));
            }
            assertEquals(8, ring.submit());
            settle(ring);
            sqe(ring).prepCancel(0, Cancel.ALL | Cancel.ANY).userData(100);
            ring.submit();
            want.add(cqe(100, 8));
            assertAnyOrder(want, next(ring, 9));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anyAllCancelsAsyncReads(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            List<Completion> want = new ArrayList<>();
            for (int i = 1; i <= 8; i++) {
                sqe(ring).prepRead(p[0], arena.allocate(32), 0).userData(i).flags(SqeFlags.ASYNC);
                want.add(cancelled(i));
            }
            assertEquals(8, ring.submit());
            settle(ring);
            sqe(ring).prepCancel(0, Cancel.ALL | Cancel.ANY).userData(100);
            ring.submit();
            want.add(cqe(100, 8));
            assertAnyOrder(want, next(ring, 9));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void fdAllCancelsReadsAndPollsOnTheDescriptorTogether(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(2);
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(3).flags(SqeFlags.ASYNC);
            sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(4);
            assertEquals(4, ring.submit());
            settle(ring);
            sqe(ring).prepCancelFd(p[0], Cancel.ALL).userData(100);
            ring.submit();
            assertAnyOrder(List.of(cancelled(1), cancelled(2), cancelled(3), cancelled(4), cqe(100, 4)),
                    next(ring, 5));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anyAllOnAnIdleRingCancelsNothingAndSaysZero(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepCancel(0, Cancel.ALL | Cancel.ANY).userData(100);
            assertEquals(cqe(100, 0), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void fdFixedCancelsTheRequestsOnThatSlotAndABadSlotIsEbadf(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p0 = fds.pipe();
            int[] p1 = fds.pipe();
            ring.registerFiles(new int[] {p0[0], p1[0]});
            sqe(ring).prepPollAdd(0, Poll.IN).flags(SqeFlags.FIXED_FILE).userData(1);
            sqe(ring).prepRead(1, arena.allocate(8), -1).flags(SqeFlags.FIXED_FILE).userData(2);
            sqe(ring).prepPollAdd(0, Poll.IN).flags(SqeFlags.FIXED_FILE).userData(3);
            assertEquals(3, ring.submit());
            // IORING_ASYNC_CANCEL_FD_FIXED: the fd is a slot, as if the cancel had FIXED_FILE.
            sqe(ring).prepCancelFd(0, Cancel.ALL | Cancel.FD_FIXED).userData(100);
            sqe(ring).prepCancelFd(Integer.MAX_VALUE, Cancel.FD_FIXED).userData(101);
            assertEquals(2, ring.submit());
            assertAnyOrder(List.of(cqe(100, 2), cancelled(1), cancelled(3), cqe(101, -io.jring.Errno.EBADF)),
                    next(ring, 4));
            sqe(ring).prepCancelFd(1, Cancel.FD_FIXED).userData(102);
            ring.submit();
            assertAnyOrder(List.of(cqe(102, 0), cancelled(2)), next(ring, 2));
            assertQuiet(ring);
        }
    }
}
