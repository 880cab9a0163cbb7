package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Mirrors {@link Ticks}. */
class TicksTest {

    @Test
    void linearTicksAreRoundStepsFromZeroToTheFirstAtOrAboveTheMax() {
        assertArrayEquals(new double[] {0, 100_000, 200_000, 300_000, 400_000}, Ticks.linear(356_200));
        assertArrayEquals(new double[] {0, 20_000, 40_000, 60_000, 80_000}, Ticks.linear(68_100));
        assertArrayEquals(new double[] {0, 20_000, 40_000, 60_000, 80_000, 100_000}, Ticks.linear(100_000));
        assertArrayEquals(new double[] {0, 1}, Ticks.linear(Double.NaN));
    }

    @Test
    void logTicksAreDecadesWithTwoAndFiveWhenTheRangeIsNarrow() {
        assertArrayEquals(new double[] {1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5}, Ticks.log(1036, 46_850), 1e-6);
        assertArrayEquals(new double[] {1e4, 1e5, 1e6, 1e7, 1e8}, Ticks.log(11_535, 17.9e6), 1e-3);
        assertArrayEquals(new double[] {1e3, 2e3, 5e3, 1e4}, Ticks.log(1000, 1000), 1e-6);
        assertArrayEquals(new double[] {1, 10}, Ticks.log(Double.POSITIVE_INFINITY, 0));
    }

    @Test
    void labelsAreShortWithoutNeedlessDecimals() {
        assertEquals("0", Ticks.si(0));
        assertEquals("950", Ticks.si(950));
        assertEquals("50K", Ticks.si(50_000));
        assertEquals("1.5M", Ticks.si(1_500_000));
        assertEquals("500ns", Ticks.time(500));
        assertEquals("20us", Ticks.time(20_000));
        assertEquals("1ms", Ticks.time(1e6));
        assertEquals("2.5s", Ticks.time(2.5e9));
    }
}
