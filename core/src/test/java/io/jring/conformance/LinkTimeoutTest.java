package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.NEVER;
import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.userData;
import static io.jring.conformance.ConformanceSupport.writeLater;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.Timeout;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_LINK_TIMEOUT (liburing test/link-timeout.c): a linked timeout bounds the request
 * right before it in its chain. On expiry that request is cancelled (-ECANCELED for one
 * waiting on a pollable file) and the timeout completes with -ETIME; the cancellation also
 * fails the rest of the chain (unless hardlinked). If the request finishes first, the
 * timeout completes with -ECANCELED, after it. A LINK_TIMEOUT with no linked request before
 * it, or after another LINK_TIMEOUT, is -EINVAL before issue: as the last SQE of a submit it
 * ends that submit, inside a chain it fails the chain.
 */
@org.junit.jupiter.api.Timeout(value = 10, unit = TimeUnit.SECONDS)
class LinkTimeoutTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void expiryCancelsAPendingReadNotBeforeItsTime(int setup) {
        for (int flags : new int[] {0, SqeFlags.ASYNC}) {
            try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
                int[] p = fds.pipe();
                long start = System.nanoTime();
                sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_LINK | flags);
                sqe(ring).prepLinkTimeout(20 * MS, 0).userData(2);
                assertEquals(2, ring.submit());
                List<Completion> got = next(ring, 2);
                Completion read = got.stream().filter(c -> c.userData() == 1).findFirst().orElseThrow();
                // -EINTR: an ASYNC read caught running in io-wq is interrupted, not cancelled;
                // its timeout then says -EALREADY, as Linux's io_req_task_link_timeout does when
                // the cancel finds the request running (a loaded machine delays the worker).
                boolean caughtRunning = read.res() == -Errno.EINTR && flags != 0;
                int want = caughtRunning ? -Errno.EINTR : -Errno.ECANCELED;
                int timeout = got.stream().filter(c -> c.userData() == 2).findFirst().orElseThrow().res();
                int wantTimeout = caughtRunning && timeout == -Errno.EALREADY ? -Errno.EALREADY : -Errno.ETIME;
                assertAnyOrder(List.of(cqe(1, want), cqe(2, wantTimeout)), got);
                assertTrue(System.nanoTime() - start >= 20 * MS, "expired early");
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void theRequestFinishingFirstCancelsTheTimeout(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 0), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReadWithDataReadyWins(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            Fds.write(p[1], ascii("hey"));
            sqe(ring).prepRead(p[0], arena.allocate(3), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 3), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReadCompletingLaterBeforeExpiryWins(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment buf = arena.allocate(8);
            sqe(ring).prepRead(p[0], buf, -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(2);
            assertEquals(2, ring.submit());
            assertQuiet(ring);
            try (Later<Void> w = writeLater(p[1], "data")) {
                assertEquals(List.of(cqe(1, 4), cancelled(2)), next(ring, 2));
            }
            assertEquals("data", ConformanceSupport.ascii(buf, 4));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aLinkTimeoutWithoutALinkedRequestIsEinvalAndEndsTheSubmit(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepLinkTimeout(10 * MS, 0).userData(1);
            sqe(ring).prepNop().userData(2);
            assertEquals(1, ring.submit());
            assertEquals(cqe(1, -Errno.EINVAL), next(ring));
            assertEquals(1, ring.submit());
            assertEquals(cqe(2, 0), next(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aLinkTimeoutHeadingAChainFailsTheChain(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepLinkTimeout(10 * MS, 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.EINVAL), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aLinkTimeoutAfterALinkTimeoutIsEinvalAndFailsTheChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(20 * MS, 0).userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(20 * MS, 0).userData(3);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cancelled(1), cancelled(2), cqe(3, -Errno.EINVAL)), next(ring, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void expiryAlsoCancelsTheRestOfTheChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(20 * MS, 0).userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(3);
            assertEquals(3, ring.submit());
            List<Completion> got = next(ring, 3);
            assertAnyOrder(List.of(cancelled(1), cqe(2, -Errno.ETIME), cancelled(3)), got);
            assertTrue(userData(got).indexOf(1L) < userData(got).indexOf(3L), "the chain in order: " + got);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aHardlinkedRequestCancelledByItsTimeoutLetsTheChainGoOn(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_HARDLINK);
            sqe(ring).prepLinkTimeout(20 * MS, 0).userData(2).flags(SqeFlags.IO_HARDLINK);
            sqe(ring).prepNop().userData(3);
            assertEquals(3, ring.submit());
            List<Completion> got = next(ring, 3);
            assertAnyOrder(List.of(cancelled(1), cqe(2, -Errno.ETIME), cqe(3, 0)), got);
            assertEquals(3L, got.get(2).userData(), "the NOP runs after the read: " + got);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void itTimesTheMemberItFollowsNotTheWholeChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(20 * MS, 0).userData(3);
            assertEquals(3, ring.submit());
            List<Completion> got = next(ring, 3);
            assertEquals(cqe(1, 0), got.get(0));
            assertAnyOrder(List.of(cancelled(2), cqe(3, -Errno.ETIME)), got.subList(1, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void itCancelsATimeoutThatWouldExpireLater(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(20 * MS, 0).userData(2);
            assertEquals(2, ring.submit());
            assertAnyOrder(List.of(cancelled(1), cqe(2, -Errno.ETIME)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aTimeoutExpiringFirstDisarmsIt(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(20 * MS, 0, 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.ETIME), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anAbsoluteDeadline(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(System.nanoTime() - 1000 * MS, Timeout.ABS).userData(2);
            assertEquals(2, ring.submit());
            assertAnyOrder(List.of(cancelled(1), cqe(2, -Errno.ETIME)), next(ring, 2)); // a deadline in the past

            long deadline = System.nanoTime() + 30 * MS;
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(3).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(deadline, Timeout.ABS).userData(4);
            assertEquals(2, ring.submit());
            assertAnyOrder(List.of(cancelled(3), cqe(4, -Errno.ETIME)), next(ring, 2));
            assertTrue(System.nanoTime() >= deadline, "expired before its deadline");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void closingTheRingDoesNotWaitForAPendingLinkTimeout(int setup) {
        long start = System.nanoTime();
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofShared()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(2);
            assertEquals(2, ring.submit());
            assertQuiet(ring);
        }
        assertTrue(System.nanoTime() - start < NEVER / 2, "close waited for the timer");
    }
}
