package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.NEVER;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.Timeout;
import io.jring.testkit.RingTestSupport.Completion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_TIMEOUT and IORING_OP_TIMEOUT_REMOVE (liburing test/timeout.c): a timeout
 * completes with -ETIME when its time is up (never before), or with 0 once {@code count}
 * other requests have completed after it was submitted (requests completed in the same
 * submit before it count too; other timeouts never do); {@link Timeout#ABS} takes a
 * CLOCK_MONOTONIC deadline (System.nanoTime's clock). TIMEOUT_REMOVE completes the timeout
 * with -ECANCELED and itself with 0, or -ENOENT when no pending timeout has that user data.
 * An expiring timeout fails its link; one completed by its count does not.
 */
@org.junit.jupiter.api.Timeout(value = 10, unit = TimeUnit.SECONDS)
class TimeoutTest {

    private static void prepNop(IoUring ring, long ud) {
        sqe(ring).prepNop().userData(ud);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aRelativeTimeoutExpiresWithEtimeNotBeforeItsTime(int setup) {
        try (IoUring ring = ring(setup)) {
            long start = System.nanoTime();
            sqe(ring).prepTimeout(30 * MS, 0, 0).userData(1);
            assertEquals(cqe(1, -Errno.ETIME), submitAndNext(ring));
            assertTrue(System.nanoTime() - start >= 30 * MS, "expired early");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anAbsoluteDeadlineIsOnTheMonotonicClock(int setup) {
        try (IoUring ring = ring(setup)) {
            long deadline = System.nanoTime() + 30 * MS;
            sqe(ring).prepTimeout(deadline, 0, Timeout.ABS).userData(1);
            assertEquals(cqe(1, -Errno.ETIME), submitAndNext(ring));
            assertTrue(System.nanoTime() >= deadline, "expired before its deadline");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anAbsoluteDeadlineInThePastExpiresAtOnce(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(System.nanoTime() - 1000 * MS, 0, Timeout.ABS).userData(1);
            assertEquals(cqe(1, -Errno.ETIME), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aCountCompletesTheTimeoutWithZeroAfterThatManyLaterCompletions(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 1, 0).userData(1);
            ring.submit();
            assertQuiet(ring);
            prepNop(ring, 2);
            ring.submit();
            assertEquals(List.of(cqe(2, 0), cqe(1, 0)), next(ring, 2));

            sqe(ring).prepTimeout(NEVER, 2, 0).userData(3);
            ring.submit();
            prepNop(ring, 4);
            ring.submit();
            assertEquals(cqe(4, 0), next(ring));
            assertQuiet(ring);
            prepNop(ring, 5);
            ring.submit();
            assertEquals(List.of(cqe(5, 0), cqe(3, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void completionsAheadOfTheTimeoutInTheSameSubmitCount(int setup) {
        try (IoUring ring = ring(setup)) {
            prepNop(ring, 1);
            sqe(ring).prepTimeout(NEVER, 1, 0).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anotherTimeoutsExpiryDoesNotCount(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 1, 0).userData(1);
            sqe(ring).prepTimeout(20 * MS, 0, 0).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(cqe(2, -Errno.ETIME), next(ring));
            assertQuiet(ring);
            prepNop(ring, 3);
            ring.submit();
            assertEquals(List.of(cqe(3, 0), cqe(1, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aCountNotReachedInTimeExpires(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(30 * MS, 5, 0).userData(1);
            ring.submit();
            prepNop(ring, 2);
            ring.submit();
            assertEquals(List.of(cqe(2, 0), cqe(1, -Errno.ETIME)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void countZeroIsAPureTimer(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(30 * MS, 0, 0).userData(1);
            prepNop(ring, 2);
            prepNop(ring, 3);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(2, 0), cqe(3, 0), cqe(1, -Errno.ETIME)), next(ring, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aTimeoutCompletedByItsCountDoesNotAlsoExpire(int setup) {
        try (IoUring ring = ring(setup)) {
            // 400 ms: the second submit must come before the deadline even on a loaded machine.
            sqe(ring).prepTimeout(400 * MS, 1, 0).userData(1);
            ring.submit();
            prepNop(ring, 2);
            ring.submit();
            assertEquals(List.of(cqe(2, 0), cqe(1, 0)), next(ring, 2));
            assertEquals(null, ring.waitCqe(java.time.Duration.ofMillis(480)), "no -ETIME after the count");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void timersExpireInDeadlineOrder(int setup) {
        try (IoUring ring = ring(setup)) {
            int n = 10;
            for (int i = 0; i < n; i++) {
                // deadlines 20, 110, 40, 130, 60, ... ms: interleaved, 10 ms apart
                long ms = 20 + 10 * ((i % 2 == 0) ? i : i + n - 1);
                sqe(ring).prepTimeout(ms * MS, 0, 0).userData(ms);
            }
            assertEquals(n, ring.submit());
            List<Completion> got = next(ring, n);
            List<Completion> want = new ArrayList<>();
            got.stream().map(Completion::userData).sorted().forEach(ms -> want.add(cqe(ms, -Errno.ETIME)));
            assertEquals(want, got);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void removeCancelsAPendingTimeout(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(1);
            ring.submit();
            sqe(ring).prepTimeoutRemove(1).userData(2);
            ring.submit();
            assertAnyOrder(List.of(cancelled(1), cqe(2, 0)), next(ring, 2));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void removeInTheSameSubmitAsTheTimeoutCancelsIt(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(1);
            sqe(ring).prepTimeoutRemove(1).userData(2);
            assertEquals(2, ring.submit());
            assertAnyOrder(List.of(cancelled(1), cqe(2, 0)), next(ring, 2));
        }
    }

    /**
     * Linux completes the removed TIMEOUT through task work, so the CQE of the
     * TIMEOUT_REMOVE or ASYNC_CANCEL that removed it comes first (6.18 with liburing:
     * [remove 0] then [timeout -ECANCELED], the same for a cancel by user data).
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void theRemoveOrCancelCqeComesBeforeTheCancelledTimeouts(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(1);
            sqe(ring).prepTimeoutRemove(1).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(2, 0), cancelled(1)), next(ring, 2));
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(3);
            sqe(ring).prepCancel(3, 0).userData(4);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(4, 0), cancelled(3)), next(ring, 2));
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(5);
            ring.submit();
            sqe(ring).prepTimeoutRemove(5).userData(6);
            ring.submit();
            assertEquals(List.of(cqe(6, 0), cancelled(5)), next(ring, 2));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void removeOfAnUnknownOrExpiredTimeoutIsEnoent(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeoutRemove(77).userData(2);
            assertEquals(cqe(2, -Errno.ENOENT), submitAndNext(ring));
            sqe(ring).prepTimeout(MS, 0, 0).userData(3);
            assertEquals(cqe(3, -Errno.ETIME), submitAndNext(ring));
            sqe(ring).prepTimeoutRemove(3).userData(4);
            assertEquals(cqe(4, -Errno.ENOENT), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void removeTakesOneTimeoutPerCall(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(7);
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(7);
            ring.submit();
            sqe(ring).prepTimeoutRemove(7).userData(8);
            ring.submit();
            assertAnyOrder(List.of(cancelled(7), cqe(8, 0)), next(ring, 2));
            assertQuiet(ring);
            sqe(ring).prepTimeoutRemove(7).userData(9);
            ring.submit();
            assertAnyOrder(List.of(cancelled(7), cqe(9, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void pollRemoveDoesNotFindATimeout(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(1);
            ring.submit();
            sqe(ring).prepPollRemove(1).userData(2);
            assertEquals(cqe(2, -Errno.ENOENT), submitAndNext(ring));
            sqe(ring).prepTimeoutRemove(1).userData(3);
            ring.submit();
            assertAnyOrder(List.of(cancelled(1), cqe(3, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anExpiringTimeoutFailsItsLink(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(10 * MS, 0, 0).userData(1).flags(SqeFlags.IO_LINK);
            prepNop(ring, 2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.ETIME), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aTimeoutCompletedByItsCountContinuesItsLink(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 1, 0).userData(1).flags(SqeFlags.IO_LINK);
            prepNop(ring, 2);
            assertEquals(2, ring.submit());
            assertQuiet(ring);
            prepNop(ring, 3);
            ring.submit();
            assertEquals(List.of(cqe(3, 0), cqe(1, 0), cqe(2, 0)), next(ring, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void closingTheRingDoesNotWaitForAPendingTimeout(int setup) {
        long start = System.nanoTime();
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(1);
            sqe(ring).prepTimeout(NEVER, 3, 0).userData(2);
            assertEquals(2, ring.submit());
        }
        assertTrue(System.nanoTime() - start < NEVER / 2, "close waited for the timers");
    }
}
