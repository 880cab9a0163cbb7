package io.jring.core;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Mirrors {@link CompletionSpin}: the spin budget follows how long recent waits for the device lasted. */
class CompletionSpinTest {
    private static final long LIMIT = 50_000L;

    @BeforeEach
    void spinningNeedsTwoCpus() {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "a single CPU never spins");
    }

    @Test
    void aFreshWaiterTriesOneSpinOfTheWholeLimit() {
        assertEquals(LIMIT, new CompletionSpin(LIMIT).budget());
    }

    @Test
    void waitsWellWithinTheLimitGiveABudgetOfTwiceTheirMean() {
        CompletionSpin s = new CompletionSpin(LIMIT);
        for (int i = 0; i < 200; i++) {
            s.record(10_000L);
        }
        long b = s.budget();
        assertTrue(b >= 19_000L && b <= 21_000L, "budget " + b);
    }

    @Test
    void aDeviceSlowerThanTheLimitStopsTheSpinningAndAFasterOneStartsItAgain() {
        CompletionSpin s = new CompletionSpin(LIMIT);
        for (int i = 0; i < 50; i++) {
            s.record(2_000_000L);   // 2 ms waits, as a busy disk's
        }
        assertEquals(0L, s.budget(), "waits far over the limit: sleep at once");
        int waits = 0;
        while (s.budget() == 0L) {
            s.record(20_000L);
            waits++;
            assertTrue(waits < 100, "20 us waits should bring the spin back");
        }
        assertTrue(s.budget() <= LIMIT);
    }

    @Test
    void theBudgetNeverExceedsTheLimit() {
        CompletionSpin s = new CompletionSpin(LIMIT);
        for (int i = 0; i < 200; i++) {
            s.record(40_000L);
        }
        assertEquals(LIMIT, s.budget(), "twice 40 us is capped at the limit");
    }

    @Test
    void aZeroLimitNeverSpins() {
        CompletionSpin s = new CompletionSpin(0L);
        assertEquals(0L, s.budget());
        s.record(1_000L);
        assertEquals(0L, s.budget());
    }
}
