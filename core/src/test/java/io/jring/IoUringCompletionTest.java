package io.jring;

import static io.jring.RingTestSupport.drain;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.reap;
import static io.jring.RingTestSupport.waitCqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.RingTestSupport.Completion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The completion side of {@link IoUring}: peek, wait with and without timeout, cqeSeen,
 * forEachCqe, cqReady, and CQE_SKIP_SUCCESS (liburing's test/skip-cqe.c for the latter).
 * Each test runs for a plain, a SINGLE_ISSUER and a DEFER_TASKRUN ring.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class IoUringCompletionTest {

    private static final int SINGLE = Setup.SINGLE_ISSUER;
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    private static IoUring ring(int setup, int entries) {
        return IoUring.builder().entries(entries).flags(setup).build();
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void peekCqeIsNullWhenNothingIsReady(int setup) {
        try (IoUring ring = ring(setup, 4)) {
            assertNull(ring.peekCqe());
            assertEquals(0, ring.cqReady());
            prepNops(ring, 1, 1, 0);
            ring.submit();
            Cqe c = ring.peekCqe();
            assertNotNull(c);
            assertEquals(1, c.userData());
            assertEquals(0, c.res());
            assertEquals(0, c.flags());
            assertTrue(ring.peekCqe() == c, "peek does not consume");
            ring.cqeSeen(c);
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void waitCqeWithTimeoutReturnsNullWhenNothingCompletes(int setup) {
        try (IoUring ring = ring(setup, 4)) {
            long t0 = System.nanoTime();
            assertNull(ring.waitCqe(Duration.ofMillis(30)));
            assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(30), "returned before the timeout");
            assertNull(ring.waitCqe(Duration.ZERO));
            assertNull(ring.waitCqe(Duration.ofNanos(-5)));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void waitCqeWithTimeoutReturnsACqeThatIsReadyOrCompletesInTime(int setup) {
        try (IoUring ring = ring(setup, 4)) {
            prepNops(ring, 7, 1, 0);
            ring.submit();
            Cqe c = ring.waitCqe(Duration.ZERO);
            assertNotNull(c, "an inline NOP is ready at once");
            assertEquals(7, c.userData());
            ring.cqeSeen(c);

            prepNops(ring, 8, 1, SqeFlags.ASYNC);
            ring.submit();
            c = ring.waitCqe(Duration.ofSeconds(10));
            assertNotNull(c);
            assertEquals(8, c.userData());
            assertEquals(0, c.res());
            ring.cqeSeen(c);

            prepNops(ring, 9, 1, SqeFlags.ASYNC);
            ring.submit();
            c = ring.waitCqe(Duration.ofDays(365 * 1000L));
            assertEquals(9, c.userData());
            ring.cqeSeen(c);
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void cqeSeenAdvancesTheHeadByOne(int setup) {
        try (IoUring ring = ring(setup, 8)) {
            prepNops(ring, 10, 3, 0);
            ring.submit();
            assertEquals(3, ring.cqReady());
            for (long ud = 10; ud < 13; ud++) {
                Cqe c = ring.peekCqe();
                assertEquals(ud, c.userData());
                Cqe w = ring.waitCqe();
                assertEquals(ud, w.userData(), "waitCqe returns the same head CQE");
                ring.cqeSeen(c);
                assertEquals(12 - ud, ring.cqReady());
            }
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void forEachCqeConsumesEveryReadyCqeAndReturnsTheCount(int setup) {
        try (IoUring ring = ring(setup, 8)) {
            assertEquals(0, ring.forEachCqe((ud, res, fl) -> { throw new AssertionError("no CQE expected"); }));
            prepNops(ring, 100, 6, 0);
            ring.submit();
            List<Long> seen = new ArrayList<>();
            assertEquals(6, ring.forEachCqe((ud, res, fl) -> {
                assertEquals(0, res);
                assertEquals(0, fl);
                seen.add(ud);
            }));
            assertEquals(List.of(100L, 101L, 102L, 103L, 104L, 105L), seen);
            assertEquals(0, ring.cqReady());
            assertNull(ring.peekCqe());
            assertEquals(0, ring.forEachCqe((ud, res, fl) -> { throw new AssertionError("no CQE expected"); }));
        }
    }

    /**
     * A handler may reap on the same ring (peek, seen, a nested forEachCqe, submitAndWait):
     * each CQE still reaches the application exactly once, in CQ order, and the outer loop
     * resumes after whatever the handler consumed. Like liburing's for-each, one call covers
     * the CQEs published when it looked at the tail.
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void aHandlerThatReapsInsideForEachCqeSeesEachCqeOnce(int setup) {
        try (IoUring ring = ring(setup, 16)) {
            prepNops(ring, 200, 8, 0);
            ring.submit();
            List<Long> seen = new ArrayList<>();
            int outer = ring.forEachCqe((ud, res, fl) -> {
                seen.add(ud);
                if (ud == 201) {
                    Cqe c = ring.peekCqe();
                    seen.add(c.userData());
                    ring.cqeSeen(c);
                }
                if (ud == 203) {
                    ring.forEachCqe((ud2, res2, fl2) -> {
                        seen.add(ud2);
                        if (ud2 == 205) {
                            prepNops(ring, 300, 2, 0);
                            ring.submitAndWait(2);
                        }
                    });
                }
            });
            assertEquals(List.of(200L, 201L, 202L, 203L, 204L, 205L, 206L, 207L), seen);
            assertEquals(3, outer, "the outer loop delivered 200, 201 and 203 itself");
            assertEquals(2, ring.cqReady(), "CQEs posted during the loop wait for the next call");
            seen.clear();
            assertEquals(2, ring.forEachCqe((ud, res, fl) -> seen.add(ud)));
            assertEquals(List.of(300L, 301L), seen);
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void cqReadyCountsPublishedUnconsumedCqes(int setup) {
        try (IoUring ring = ring(setup, 8)) {
            assertEquals(0, ring.cqReady());
            prepNops(ring, 0, 5, 0);
            assertEquals(0, ring.cqReady(), "prepared is not completed");
            ring.submit();
            assertEquals(5, ring.cqReady(), "inline NOP completions are published by the submit");
            ring.cqeSeen(ring.peekCqe());
            assertEquals(4, ring.cqReady());
            prepNops(ring, 5, 3, SqeFlags.ASYNC);
            ring.submitAndWait(7);
            assertEquals(7, ring.cqReady());
            assertEquals(7, drain(ring).size());
            assertEquals(0, ring.cqReady());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void cqeSkipSuccessOnInlineNopPostsNothing(int setup) {
        try (IoUring ring = ring(setup, 8)) {
            prepNops(ring, 1, 3, SqeFlags.CQE_SKIP_SUCCESS);
            prepNops(ring, 4, 1, 0);
            assertEquals(4, ring.submit());
            assertEquals(List.of(new Completion(4, 0, 0)), drain(ring));
            assertNull(ring.waitCqe(Duration.ofMillis(20)));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void cqeSkipSuccessOnAsyncNopPostsNothing(int setup) {
        try (IoUring ring = ring(setup, 16)) {
            // One worker runs the queue in order, so the skipped NOPs finish before the marker.
            ring.registerIoWqMaxWorkers(1, 1);
            prepNops(ring, 1, 8, SqeFlags.ASYNC | SqeFlags.CQE_SKIP_SUCCESS);
            prepNops(ring, 9, 1, SqeFlags.ASYNC);
            assertEquals(9, ring.submit());
            assertEquals(List.of(new Completion(9, 0, 0)), reap(ring, 1));
            assertNull(ring.peekCqe());
            assertEquals(0, ring.cqReady());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void failingSqeWithCqeSkipSuccessStillPostsItsError(int setup) {
        try (IoUring ring = ring(setup, 8)) {
            ring.getSqe().prepNop().userData(1).opFlags(64).flags(SqeFlags.CQE_SKIP_SUCCESS);
            ring.getSqe().opcode(200).userData(2).flags(SqeFlags.CQE_SKIP_SUCCESS | SqeFlags.ASYNC);
            ring.getSqe().prepNop().userData(3).flags(SqeFlags.CQE_SKIP_SUCCESS | (1 << 7));
            ring.getSqe().prepNop().userData(4).flags(SqeFlags.CQE_SKIP_SUCCESS);
            // Without SUBMIT_ALL each failing SQE ends its submit.
            assertEquals(1, ring.submit());
            assertEquals(1, ring.submit());
            assertEquals(1, ring.submit());
            assertEquals(1, ring.submit());
            assertEquals(List.of(new Completion(1, -Errno.EINVAL, 0), new Completion(2, -Errno.EINVAL, 0),
                    new Completion(3, -Errno.EINVAL, 0)), drain(ring));
            assertNull(ring.waitCqe(Duration.ofMillis(20)), "the valid skipped NOP posts nothing");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void cqeContentsAreStableUntilConsumed(int setup) {
        try (IoUring ring = ring(setup, 4)) {
            prepNops(ring, Long.MIN_VALUE, 1, 0);
            prepNops(ring, -1L, 1, 0);
            ring.submit();
            Cqe c = waitCqe(ring);
            assertEquals(Long.MIN_VALUE, c.userData());
            ring.cqeSeen(c);
            c = waitCqe(ring);
            assertEquals(-1L, c.userData());
            ring.cqeSeen(c);
        }
    }
}
