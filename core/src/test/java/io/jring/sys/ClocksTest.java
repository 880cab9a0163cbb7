package io.jring.sys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link Clocks}: the kernel's clocks read through clock_gettime, and their conversion to nanoTime. */
class ClocksTest {

    @Test
    void realtimeIsTheEpochClock() {
        try (SysCallContext sc = SysCallContext.confined()) {
            Instant i = Instant.now();
            long javaNow = i.getEpochSecond() * 1_000_000_000L + i.getNano();
            long now = Clocks.now(sc, Clocks.CLOCK_REALTIME);
            assertTrue(Math.abs(now - javaNow) < 1_000_000_000L, "CLOCK_REALTIME " + now + " vs Instant " + javaNow);
        }
    }

    @Test
    void monotonicIsNanoTimesClockAndBoottimeIsAtLeastIt() {
        try (SysCallContext sc = SysCallContext.confined()) {
            long before = System.nanoTime();
            long mono = Clocks.now(sc, Clocks.CLOCK_MONOTONIC);
            long after = System.nanoTime();
            assertTrue(mono >= before && mono <= after, "CLOCK_MONOTONIC is System.nanoTime's clock");
            assertTrue(Clocks.now(sc, Clocks.CLOCK_BOOTTIME) >= mono, "boot time includes suspend, never less");
        }
    }

    @Test
    void anAbsoluteRealtimeDeadlineBecomesTheSameDistanceOnNanoTime() {
        try (SysCallContext sc = SysCallContext.confined()) {
            long inOneSecond = Clocks.now(sc, Clocks.CLOCK_REALTIME) + 1_000_000_000L;
            long deadline = Clocks.toNanoTime(sc, Clocks.CLOCK_REALTIME, inOneSecond);
            long left = deadline - System.nanoTime();
            assertTrue(left > 900_000_000L && left <= 1_000_000_000L, "left " + left);
        }
    }
}
