package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RandomMap}: fio's axmap semantics (next unused block after a used one, wrapping; -1 when full). */
class RandomMapTest {

    @Test
    void anUnusedBlockIsTakenAsDrawn() {
        RandomMap m = new RandomMap(100);
        assertEquals(42, m.take(42));
        assertEquals(1, m.used());
    }

    @Test
    void aUsedBlockGivesTheNextUnusedOneAfterIt() {
        RandomMap m = new RandomMap(200);
        for (long b = 60; b <= 130; b++) {
            assertEquals(b, m.take(b));
        }
        assertEquals(131, m.take(60), "skips the used run, across word boundaries");
        assertEquals(132, m.take(131));
    }

    @Test
    void theSearchWrapsAtTheEndOfTheMap() {
        RandomMap m = new RandomMap(70);
        for (long b = 65; b < 70; b++) {
            m.take(b);
        }
        assertEquals(0, m.take(69), "after the last block comes block 0");
        assertEquals(1, m.take(66));
    }

    @Test
    void aPassUsesEveryBlockOnceThenReportsTheEnd() {
        int blocks = 1000;
        RandomMap m = new RandomMap(blocks);
        boolean[] seen = new boolean[blocks];
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int i = 0; i < blocks; i++) {
            long b = m.take(r.nextLong(blocks));
            assertTrue(b >= 0 && b < blocks);
            assertFalse(seen[(int) b], "block " + b + " twice in one pass");
            seen[(int) b] = true;
        }
        assertEquals(-1, m.take(r.nextLong(blocks)), "the pass is over");
        m.reset();
        assertEquals(0, m.used());
        assertEquals(5, m.take(5));
    }

    @Test
    void bitsPastTheLastBlockAreNeverHandedOut() {
        RandomMap m = new RandomMap(3);
        assertEquals(2, m.take(2));
        assertEquals(0, m.take(2));
        assertEquals(1, m.take(0));
        assertEquals(-1, m.take(1));
    }
}
