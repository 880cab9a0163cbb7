package io.jring.tool.echo;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pauses {@link EchoLoad} puts between an echo and a connection's next request. */
class ThinkTimeTest {

    @Test
    void fixedThinkIsTheMeanEveryTime() {
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            assertEquals(50_000_000L, EchoLoad.thinkNanos(50_000_000L, false, random));
        }
        assertEquals(0L, EchoLoad.thinkNanos(0L, true, random));
    }

    /**
     * Exponential: the sample mean is the mean and the standard deviation equals it too (a
     * fixed or uniform draw would have a much smaller one), and about 1/e of the draws exceed
     * the mean: the memoryless tail that makes a blocked legacy worker wait a whole mean.
     */
    @Test
    void exponentialThinkHasTheMeanAndTheSpreadOfAnExponential() {
        SplittableRandom random = new SplittableRandom(42);
        long mean = 10_000_000L;
        int n = 200_000;
        double sum = 0;
        double sumSq = 0;
        int aboveMean = 0;
        for (int i = 0; i < n; i++) {
            long t = EchoLoad.thinkNanos(mean, true, random);
            assertTrue(t >= 0, "negative pause " + t);
            sum += t;
            sumSq += (double) t * t;
            if (t > mean) {
                aboveMean++;
            }
        }
        double sampleMean = sum / n;
        double sd = Math.sqrt(sumSq / n - sampleMean * sampleMean);
        assertEquals(1.0, sampleMean / mean, 0.02, "sample mean " + sampleMean);
        assertEquals(1.0, sd / mean, 0.03, "standard deviation " + sd);
        assertEquals(Math.exp(-1), (double) aboveMean / n, 0.01, "share above the mean");
    }
}
