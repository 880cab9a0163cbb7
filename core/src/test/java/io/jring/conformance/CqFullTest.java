package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.assertNoCqe;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.jring.Cqe;
import io.jring.IoUring;
import io.jring.testkit.RingTestSupport.Completion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A full CQ (liburing test/cq-full.c): a 4-entry SQ gets the default 8-entry CQ; twelve
 * NOPs submitted without reaping fill it (exactly 8 visible) and the other 4 wait, none
 * dropped (Linux has IORING_FEAT_NODROP, so its overflow counter stays 0 and the old
 * test's "4 overflowed" became "4 delivered later").
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CqFullTest {

    private static IoUring fourEntryRing(int setup) {
        IoUring ring = IoUring.builder().entries(4).flags(setup).build();
        assertEquals(4, ring.sqEntries());
        assertEquals(8, ring.cqEntries(), "the CQ defaults to twice the SQ");
        return ring;
    }

    private static void queueNops(IoUring ring, long firstUd, int n) {
        for (int i = 0; i < n; i++) {
            sqe(ring).prepNop().userData(firstUd + i);
        }
        assertEquals(n, ring.submit());
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFullCqShowsItsSizeAndLosesNothing(int setup) {
        try (IoUring ring = fourEntryRing(setup)) {
            queueNops(ring, 0, 4);
            queueNops(ring, 4, 4);
            queueNops(ring, 8, 4);
            assertEquals(8, ring.cqReady());
            List<Completion> want = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                want.add(cqe(i, 0));
            }
            assertEquals(want, next(ring, 12));
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void peekAndWaitOnAFullCqReturnItsHeadAtOnce(int setup) {
        try (IoUring ring = fourEntryRing(setup)) {
            queueNops(ring, 0, 4);
            queueNops(ring, 4, 4);
            queueNops(ring, 8, 4);
            Cqe c = ring.peekCqe();
            assertNotNull(c);
            assertEquals(0, c.userData());
            long start = System.nanoTime();
            Cqe w = ring.waitCqe(Duration.ofSeconds(5));
            assertNotNull(w);
            assertEquals(0, w.userData(), "waiting does not consume");
            assertEquals(true, System.nanoTime() - start < Duration.ofSeconds(2).toNanos());
            ring.cqeSeen(w);
            assertEquals(cqe(1, 0), next(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void reapingHalfMakesRoomForTheWaitingHalf(int setup) {
        try (IoUring ring = fourEntryRing(setup)) {
            for (int i = 0; i < 16; i += 4) {
                queueNops(ring, i, 4);
            }
            assertEquals(8, ring.cqReady());
            List<Completion> got = new ArrayList<>(next(ring, 8));
            got.addAll(next(ring, 8));
            for (int i = 0; i < 16; i++) {
                assertEquals(cqe(i, 0), got.get(i));
            }
            assertNoCqe(ring);
        }
    }
}
