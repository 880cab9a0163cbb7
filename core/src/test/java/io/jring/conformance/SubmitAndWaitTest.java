package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.BAD_OPCODE;
import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.writeLater;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * submitAndWait (io_uring_enter with IORING_ENTER_GETEVENTS; liburing test/submit-and-wait.c):
 * it returns how many SQEs it submitted, not how many CQEs it waited for; it returns once at
 * least {@code waitNr} CQEs are in the CQ (counting those already there); it waits once, not
 * twice; with nothing to submit it only waits; {@code waitNr} 0 does not wait.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SubmitAndWaitTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void itReturnsTheNumberSubmittedNotTheNumberWaitedFor(int setup) {
        try (IoUring ring = ring(setup)) {
            for (int i = 0; i < 4; i++) {
                sqe(ring).prepNop().userData(i);
            }
            assertEquals(4, ring.submitAndWait(1));
            assertEquals(4, ring.cqReady());
            assertEquals(List.of(cqe(0, 0), cqe(1, 0), cqe(2, 0), cqe(3, 0)), next(ring, 4));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void itBlocksUntilEnoughCompletionsAreThere(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            sqe(ring).prepNop().userData(2);
            try (Later<Void> w = writeLater(p[1], "abc")) {
                assertEquals(2, ring.submitAndWait(2));
            }
            assertEquals(2, ring.cqReady());
            assertEquals(List.of(cqe(2, 0), cqe(1, 3)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void withNothingToSubmitItOnlyWaits(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            assertEquals(1, ring.submit());
            try (Later<Void> w = writeLater(p[1], "x")) {
                assertEquals(0, ring.submitAndWait(1));
            }
            assertEquals(1, ring.cqReady());
            assertEquals(cqe(1, 1), next(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void completionsAlreadyInTheCqCount(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            long start = System.nanoTime();
            assertEquals(0, ring.submitAndWait(2));
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(2).toNanos());
            assertEquals(List.of(cqe(1, 0), cqe(2, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void waitNrZeroDoesNotWait(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            long start = System.nanoTime();
            assertEquals(1, ring.submitAndWait(0));
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(2).toNanos());
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            next(ring, 2);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aNopAndATimeoutForTwoWaitOnceNotTwice(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1);
            sqe(ring).prepTimeout(200 * MS, 0, 0).userData(2);
            long start = System.nanoTime();
            assertEquals(2, ring.submitAndWait(2));
            long took = System.nanoTime() - start;
            assertTrue(took >= 200 * MS && took < 1200 * MS, "waited " + took / MS + " ms for a 200 ms timeout");
            assertEquals(List.of(cqe(1, 0), cqe(2, -Errno.ETIME)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anEarlySubmitFailureCountsAsSubmittedAndTheRestStaysQueued(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1);
            sqe(ring).prepNop().opcode(BAD_OPCODE).userData(2);
            sqe(ring).prepNop().userData(3);
            assertEquals(2, ring.submitAndWait(2));
            assertEquals(List.of(cqe(1, 0), cqe(2, -Errno.EINVAL)), next(ring, 2));
            assertEquals(1, ring.submitAndWait(1));
            assertEquals(cqe(3, 0), next(ring));
        }
    }
}
