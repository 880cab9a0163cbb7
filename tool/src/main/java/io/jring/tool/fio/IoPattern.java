package io.jring.tool.fio;

/**
 * Where the next I/O of a job goes and which way: fio's {@code get_io_u} decisions for
 * {@code --rw}, {@code --rwmixread} and {@code --fsync}. Random offsets are uniform over the
 * job's blocks without fio's random map (as fio's {@code norandommap}), from a fixed seed
 * per job (as fio's {@code randrepeat=1}); sequential ones wrap at the end of the region.
 * Job-thread only; no allocation.
 */
final class IoPattern {
    private final Rw rw;
    private final int bs;
    private final long blocks;
    private final long limit;
    private final int mixRead;
    private final int fsyncEvery;

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
            return Math.unsignedMultiplyHigh(nextRandom(), blocks) * bs;
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
