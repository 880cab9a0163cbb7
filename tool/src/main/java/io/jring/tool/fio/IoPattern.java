package io.jring.tool.fio;

/**
 * Where the next I/O of a job goes and which way: fio's {@code get_io_u} decisions for
 * {@code --rw}, {@code --rwmixread} and {@code --fsync}. Random offsets are uniform over the
 * job's blocks, from a fixed seed per job (as fio's {@code randrepeat=1}), and by default go
 * through fio's random map, so each pass over the region uses every block once (reads and
 * writes share it, as in fio); with {@code --norandommap} blocks repeat freely. Sequential
 * offsets wrap at the end of the region. Job-thread only; no allocation per I/O.
 */
final class IoPattern {
    private final Rw rw;
    private final int bs;
    private final long blocks;
    private final long limit;
    private final int mixRead;
    private final int fsyncEvery;
    /** fio's random map, or null with norandommap (or a sequential pattern). */
    private final RandomMap map;

    /** xorshift64* state. */
    private long seed;
    private final long[] nextSeq = new long[2];
    private long writesSinceSync;

    IoPattern(JobSpec spec, int jobNumber) {
        this.rw = spec.rw();
        this.bs = spec.bs();
        this.blocks = spec.size() / spec.bs();
        this.limit = blocks * bs;
        this.mixRead = spec.rwmixread();
        this.fsyncEvery = spec.fsync();
        this.map = spec.randomMap() && rw.isRandom() ? new RandomMap(blocks) : null;
        this.seed = 0x9E3779B97F4A7C15L * (jobNumber + 1) ^ 0x5DEECE66DL;
    }

    /** The direction of the next I/O ({@link Ddir}); counts it as issued. */
    int nextDir() {
        if (fsyncEvery > 0 && writesSinceSync >= fsyncEvery) {
            writesSinceSync = 0;
            return Ddir.SYNC;
        }
        int dir;
        if (rw.isMixed()) {
            dir = Math.floorMod(nextRandom(), 100) < mixRead ? Ddir.READ : Ddir.WRITE;
        } else {
            dir = rw.hasReads() ? Ddir.READ : Ddir.WRITE;
        }
        if (dir == Ddir.WRITE) {
            writesSinceSync++;
        }
        return dir;
    }

    /** The byte offset of the next I/O in direction {@code dir} (READ or WRITE). */
    long nextOffset(int dir) {
        if (rw.isRandom()) {
            long block = Math.unsignedMultiplyHigh(nextRandom(), blocks);
            if (map != null) {
                long b = map.take(block);
                if (b < 0) {
                    // A pass is over (fio: the map is full; a time-based job resets it and draws again).
                    map.reset();
                    b = map.take(Math.unsignedMultiplyHigh(nextRandom(), blocks));
                }
                block = b;
            }
            return block * bs;
        }
        long at = nextSeq[dir];
        long next = at + bs;
        nextSeq[dir] = next >= limit ? 0 : next;
        return at;
    }

    private long nextRandom() {
        long x = seed;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        seed = x;
        return x * 0x2545F4914F6CDD1DL;
    }
}
