package io.jring;

import static io.jring.RingTestSupport.drain;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.waitCqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.RingTestSupport.Completion;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A full CQ and its overflow list (the engine's CompletionQueue and OverflowList; liburing's
 * test/cq-overflow.c): with a 4-entry CQ and 1000 NOPs submitted without reaping, no CQE is
 * lost or duplicated, and inline completions arrive in submission order.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class CqOverflowTest {

    private static final int TOTAL = 1000;
    private static final int SINGLE = Setup.SINGLE_ISSUER;
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    private static IoUring tinyRing(int setup) {
        IoUring ring = IoUring.builder().entries(4).cqEntries(4).flags(setup).build();
        assertEquals(4, ring.sqEntries());
        assertEquals(4, ring.cqEntries());
        return ring;
    }

    /** Submits TOTAL NOPs in batches of 4 (a full SQ) without reaping anything. */
    private static void submitAllWithoutReaping(IoUring ring, int sqeFlags) {
        for (int ud = 0; ud < TOTAL; ud += 4) {
            prepNops(ring, ud, 4, sqeFlags);
            assertEquals(4, ring.submit());
            assertTrue(ring.cqReady() <= 4, "cqReady never exceeds the CQ size");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void inlineNopsOverflowingA4EntryCqAreDeliveredOnceInOrder(int setup) {
        try (IoUring ring = tinyRing(setup)) {
            submitAllWithoutReaping(ring, 0);
            assertEquals(4, ring.cqReady(), "the CQ is full, the rest wait in the overflow list");
            for (long expect = 0; expect < TOTAL; expect++) {
                Cqe c = waitCqe(ring);
                assertEquals(expect, c.userData());
                assertEquals(0, c.res());
                ring.cqeSeen(c);
            }
            assertNull(ring.peekCqe(), "nothing duplicated");
            assertEquals(0, ring.cqReady());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void forEachCqeDrainsTheOverflowListInOrder(int setup) {
        try (IoUring ring = tinyRing(setup)) {
            submitAllWithoutReaping(ring, 0);
            List<Completion> got = new ArrayList<>();
            for (int calls = 0; got.size() < TOTAL; calls++) {
                assertTrue(calls < TOTAL, "forEachCqe made no progress; got " + got.size());
                List<Completion> batch = drain(ring);
                assertTrue(!batch.isEmpty(), "CQEs left in the overflow list were not delivered");
                got.addAll(batch);
            }
            assertEquals(TOTAL, got.size());
            for (int i = 0; i < TOTAL; i++) {
                assertEquals(new Completion(i, 0, 0), got.get(i));
            }
            assertNull(ring.peekCqe());
            assertEquals(0, drain(ring).size());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void overflowingCqeKeepsOrderWhenReapingInterleavesWithSubmits(int setup) {
        try (IoUring ring = tinyRing(setup)) {
            long next = 0;
            long expect = 0;
            while (expect < TOTAL) {
                // Submit 8 per round, reap only 3: the overflow list keeps growing and draining.
                for (int b = 0; b < 2 && next < TOTAL; b++) {
                    prepNops(ring, next, 4, 0);
                    ring.submit();
                    next += 4;
                }
                int reap = next < TOTAL ? 3 : Integer.MAX_VALUE;
                for (int i = 0; i < reap && expect < next; i++) {
                    Cqe c = waitCqe(ring);
                    assertEquals(expect++, c.userData());
                    ring.cqeSeen(c);
                }
            }
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE, DEFER})
    void asyncNopsOverflowingA4EntryCqAreEachDeliveredExactlyOnce(int setup) {
        try (IoUring ring = tinyRing(setup)) {
            submitAllWithoutReaping(ring, SqeFlags.ASYNC);
            BitSet seen = new BitSet(TOTAL);
            for (int n = 0; n < TOTAL; n++) {
                Cqe c = waitCqe(ring);
                long ud = c.userData();
                assertTrue(ud >= 0 && ud < TOTAL, "unexpected user data " + ud);
                assertTrue(!seen.get((int) ud), "duplicate CQE for " + ud);
                assertEquals(0, c.res(), "user data " + ud);
                seen.set((int) ud);
                ring.cqeSeen(c);
            }
            assertEquals(TOTAL, seen.cardinality());
            assertNull(ring.peekCqe());
        }
    }
}
