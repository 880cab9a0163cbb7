package io.jring.tool.fio;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link IoPattern}: fio's offsets, directions and fsync cadence. */
class IoPatternTest {

    private static JobSpec spec(String... args) {
        FioCommand command = new FioCommand();
        return command.options.toSpec(new CommandLine(command).parseArgs(args));
    }

    @Test
    void randomOffsetsAreBlockAlignedInsideTheRegionAndCoverIt() {
        IoPattern p = new IoPattern(spec("--size=64k", "--bs=4k"), 0);
        boolean[] seen = new boolean[16];
        for (int i = 0; i < 2000; i++) {
            long off = p.nextOffset(Ddir.READ);
            assertEquals(0, off % 4096);
            assertTrue(off >= 0 && off < 65536, "offset " + off);
            seen[(int) (off / 4096)] = true;
        }
        for (boolean s : seen) {
            assertTrue(s, "every block is hit");
        }
    }

    @Test
    void byDefaultEachPassUsesEveryBlockOnceAsFiosRandomMap() {
        IoPattern p = new IoPattern(spec("--size=64k", "--bs=4k"), 0);
        for (int pass = 0; pass < 3; pass++) {
            boolean[] seen = new boolean[16];
            for (int i = 0; i < 16; i++) {
                int block = (int) (p.nextOffset(Ddir.READ) / 4096);
                assertTrue(!seen[block], "block " + block + " twice in pass " + pass);
                seen[block] = true;
            }
        }
    }

    @Test
    void norandommapLetsBlocksRepeatWithinAPass() {
        IoPattern p = new IoPattern(spec("--size=64k", "--bs=4k", "--norandommap"), 0);
        boolean[] seen = new boolean[16];
        boolean repeated = false;
        for (int i = 0; i < 16; i++) {
            int block = (int) (p.nextOffset(Ddir.READ) / 4096);
            repeated |= seen[block];
            seen[block] = true;
        }
        assertTrue(repeated, "16 uniform draws over 16 blocks repeat one (this seed does)");
    }

    @Test
    void sequentialOffsetsWrapAtTheEndOfTheRegion() {
        IoPattern p = new IoPattern(spec("--rw=read", "--size=10k", "--bs=4k"), 0);
        assertEquals(0, p.nextOffset(Ddir.READ));
        assertEquals(4096, p.nextOffset(Ddir.READ));
        assertEquals(0, p.nextOffset(Ddir.READ), "the partial last block is not used");
    }

    @Test
    void mixFollowsRwmixreadAndFsyncFollowsEveryNWrites() {
        IoPattern p = new IoPattern(spec("--rw=randrw", "--rwmixread=75", "--fsync=4"), 3);
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
}
