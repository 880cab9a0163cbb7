package io.jring.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link WorkSpin}: budget from recent waits, exponential back-off after misses. */
class WorkSpinTest {
    private static final long LIMIT = 50_000L;

    @BeforeEach
    void needsTwoCpus() {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "spinning needs two CPUs");
    }

    @Test
    void aFreshWaiterTriesOneSpinOfTheLimit() {
        assertEquals(LIMIT, new WorkSpin(LIMIT).budget());
    }

    @Test
    void shortWaitsGiveABudgetOfTwiceTheirMeanButAtLeastTheMinimum() {
        WorkSpin s = new WorkSpin(LIMIT);
        for (int i = 0; i < 200; i++) {
            s.hit(3_000L);
        }
        assertEquals(6_000L, s.budget(), 1_000L);
        for (int i = 0; i < 200; i++) {
            s.hit(100L);
        }
        assertEquals(WorkSpin.MIN_NANOS, s.budget());
    }

    @Test
    void longWaitsCapTheBudgetAtTheLimitWithoutStoppingTheSpin() {
        WorkSpin s = new WorkSpin(LIMIT);
        for (int i = 0; i < 200; i++) {
            s.slept(5_000_000L);
        }
        assertEquals(LIMIT, s.budget(), "a long mean alone never stops spinning: misses do");
    }

    @Test
    void missesInARowDoubleTheWaitsThatSleepAtOnceAndAHitEndsTheBackOff() {
        WorkSpin s = new WorkSpin(LIMIT);
        for (int misses = 1; misses <= 8; misses++) {
            s.miss();
            int skipped = 0;
            while (s.budget() == 0L) {
                skipped++;
            }
            assertEquals(1 << Math.min(misses, 6), skipped, "after " + misses + " misses in a row");
        }
        s.hit(1_000L);
        s.miss();
        int skipped = 0;
        while (s.budget() == 0L) {
            skipped++;
        }
        assertEquals(2, skipped, "a hit reset the back-off");
    }

    @Test
    void aZeroLimitNeverSpins() {
        WorkSpin s = new WorkSpin(0L);
        s.hit(1_000L);
        assertEquals(0L, s.budget());
    }
}
