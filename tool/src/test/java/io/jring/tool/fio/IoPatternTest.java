package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link IoPattern}: fio's offsets, sizes, passes, directions and fsync cadence. */
class IoPatternTest {

    private static IoPattern pattern(long threadNumber, String... args) {
        return new IoPattern(FioOptionsTest.parse(args), threadNumber);
    }

    @Test
    void randomOffsetsAreBlockAlignedInsideTheRegionAndAPassUsesEveryBlockOnce() {
        IoPattern p = pattern(1, "--size=64k", "--bs=4k", "--rw=randread", "--offset=8k");
        boolean[] seen = new boolean[16];
        for (int i = 0; i < 16; i++) {
            long off = p.next(Ddir.READ);
            assertEquals(0, (off - 8192) % 4096);
            assertTrue(off >= 8192 && off < 8192 + 65536, "offset " + off);
            int block = (int) ((off - 8192) / 4096);
            assertFalse(seen[block], "block " + block + " twice");
            seen[block] = true;
            assertEquals(4096, p.length());
        }
        assertEquals(-1, p.next(Ddir.READ), "the map is full: the pass is over");
        p.startPass();
        assertTrue(p.next(Ddir.READ) >= 8192, "a new pass starts over");
    }

    @Test
    void aTimeBasedJobStartsOverWhenTheRegionIsDoneAndSaysSo() {
        IoPattern p = pattern(1, "--size=16k", "--bs=4k", "--rw=randread", "--time_based", "--runtime=1");
        for (int i = 0; i < 4; i++) {
            assertTrue(p.next(Ddir.READ) >= 0);
            assertFalse(p.takeWrapped());
        }
        assertTrue(p.next(Ddir.READ) >= 0, "never over while time based");
        assertTrue(p.takeWrapped(), "fio invalidates again here");
        assertFalse(p.takeWrapped());
    }

    @Test
    void norandommapLetsBlocksRepeatWithinAPassOfARegionsWorth() {
        IoPattern p = pattern(1, "--size=64k", "--bs=4k", "--rw=randread", "--norandommap");
        boolean[] seen = new boolean[16];
        boolean repeated = false;
        for (int i = 0; i < 16; i++) {
            int block = (int) (p.next(Ddir.READ) / 4096);
            repeated |= seen[block];
            seen[block] = true;
        }
        assertTrue(repeated, "16 uniform draws over 16 blocks repeat one (this seed does)");
        assertEquals(-1, p.next(Ddir.READ), "a region's worth is a pass");
    }

    @Test
    void sequentialOffsetsEndThePassAtTheEndOfTheRegion() {
        IoPattern p = pattern(1, "--rw=read", "--size=10k", "--bs=4k");
        assertEquals(0, p.next(Ddir.READ));
        assertEquals(4096, p.next(Ddir.READ));
        assertEquals(-1, p.next(Ddir.READ), "the partial last block is not used");
        IoPattern t = pattern(1, "--rw=read", "--size=8k", "--bs=4k", "--time_based", "--runtime=1");
        t.next(Ddir.READ);
        t.next(Ddir.READ);
        assertEquals(0, t.next(Ddir.READ), "time based: back to the start");
        assertTrue(t.takeWrapped());
    }

    @Test
    void randrepeatGivesTheSameOffsetsEveryPassAndEveryRunButEachThreadItsOwn() {
        List<Long> first = offsets(pattern(3, "--size=1m", "--rw=randread", "--norandommap"), 50);
        IoPattern again = pattern(3, "--size=1m", "--rw=randread", "--norandommap");
        assertEquals(first, offsets(again, 50), "another run");
        again.startPass();
        assertEquals(first, offsets(again, 50), "another pass");
        assertNotEquals(first, offsets(pattern(4, "--size=1m", "--rw=randread", "--norandommap"), 50), "another thread");
        IoPattern noRepeat = pattern(3, "--size=1m", "--rw=randread", "--norandommap", "--randrepeat=0", "--randseed=7");
        List<Long> a = offsets(noRepeat, 50);
        noRepeat.startPass();
        assertNotEquals(a, offsets(noRepeat, 50), "randrepeat=0: the next pass goes on with the stream");
    }

    private static List<Long> offsets(IoPattern p, int n) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(p.next(Ddir.READ));
        }
        return out;
    }

    @Test
    void sizesFromARangeAreMultiplesOfTheMinimumWithinTheRange() {
        IoPattern p = pattern(1, "--size=64m", "--rw=randread", "--bsrange=4k-64k");
        boolean small = false;
        boolean large = false;
        for (int i = 0; i < 2000; i++) {
            long off = p.next(Ddir.READ);
            int len = p.length();
            assertEquals(0, off % 4096);
            assertEquals(0, len % 4096, "len " + len);
            assertTrue(len >= 4096 && len <= 65536, "len " + len);
            assertTrue(off + len <= 64L << 20);
            small |= len <= 16384;
            large |= len == 65536;
        }
        assertTrue(small && large, "sizes spread over the range");
    }

    @Test
    void withARangeEveryBlockIsStillUsedOnceAPassThoughSomeIosAreCutShort() {
        IoPattern p = pattern(1, "--size=256k", "--rw=randread", "--bsrange=4k-32k");
        boolean[] used = new boolean[64];
        long off;
        while ((off = p.next(Ddir.READ)) >= 0) {
            for (long b = off / 4096; b < (off + p.length()) / 4096; b++) {
                assertFalse(used[(int) b], "block " + b + " twice");
                used[(int) b] = true;
            }
        }
        for (boolean u : used) {
            assertTrue(u);
        }
    }

    @Test
    void mixFollowsRwmixreadAndFsyncFollowsEveryNWrites() {
        IoPattern p = pattern(3, "--size=1m", "--rw=randrw", "--rwmixread=75", "--fsync=4");
        int reads = 0;
        int writes = 0;
        int syncs = 0;
        int writesSinceSync = 0;
        for (int i = 0; i < 40_000; i++) {
            switch (p.nextDir()) {
                case Ddir.READ -> reads++;
                case Ddir.WRITE -> {
                    writes++;
                    writesSinceSync++;
                    assertTrue(writesSinceSync <= 4, "an fsync comes after every 4 writes");
                }
                default -> {
                    assertEquals(4, writesSinceSync);
                    writesSinceSync = 0;
                    syncs++;
                }
            }
        }
        double readShare = (double) reads / (reads + writes);
        assertTrue(readShare > 0.72 && readShare < 0.78, "read share " + readShare);
        assertEquals(writes / 4, syncs, 1);
    }

    @Test
    void fdatasyncFollowsEveryNWritesAndAnFsyncDueAtTheSameWriteWinsAsInFio() {
        IoPattern p = pattern(1, "--size=1m", "--rw=write", "--fsync=6", "--fdatasync=4");
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            int dir = p.nextDir();
            seen.append(dir == Ddir.WRITE ? "w" : p.dataSync() ? "D" : "F");
        }
        // writes 4 and 8: fdatasync; 6: fsync; 12: both due, the fsync wins.
        assertEquals("wwwwDwwFwwDwwwwF", seen.toString());
    }
}
