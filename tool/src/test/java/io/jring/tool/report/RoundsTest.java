package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Mirrors {@link Rounds}. */
class RoundsTest {

    @Test
    void medianAndSpreadOfOddAndEvenRounds() {
        Rounds r = Rounds.of(new double[] {12, 10, 11});
        assertEquals(11, r.median());
        assertEquals(2.0 / 11.0, r.spread(), 1e-12);
        assertEquals(10.5, Rounds.of(new double[] {10, 11}).median());
        assertEquals(0.0, Rounds.of(new double[] {5}).spread());
    }
}
