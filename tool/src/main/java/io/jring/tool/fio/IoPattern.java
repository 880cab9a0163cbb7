package io.jring.tool.fio;

/**
 * Where the next I/O of a job goes, how long it is and which way: fio's {@code get_io_u}
 * decisions ({@code get_rw_ddir}, {@code get_next_offset}, {@code get_next_buflen},
 * {@code mark_random_map}) for {@code rw}, {@code rwmixread}, {@code bs}/{@code bsrange},
 * {@code fsync}, {@code offset}/{@code size} and the random map.
 *
 * <p>Offsets are relative to the region ({@code offset}, {@code size}) in units of the job's
 * smallest block size (fio's {@code rw_min_bs}). Random offsets are uniform over the region
 * and by default go through fio's random map, so a pass uses every block once (reads and
 * writes share it, as in fio); with a size range an I/O that would cover used blocks is cut
 * short, as fio cuts it. A pass is over when the map is full, the sequential position reached
 * the end of the region, or (norandommap) a region's worth of bytes was issued; a time based
 * job instead starts over at once, the map cleared, and says so through {@link #takeWrapped}
 * (fio then invalidates the cache again). Directions of a mixed pattern follow fio's rwmix
 * cycle. Each random stream has its own generator (offsets, mix, sizes, as fio's
 * {@code rand_seeds}), seeded from the job's seed and thread number, again at every pass with
 * randrepeat. Job-thread only; no allocation per I/O.
 */
final class IoPattern {
    private final Rw rw;
    private final BlockSizes bs;
    private final boolean fixedBs;
    private final long start;
    private final long regionSize;
    private final int unit;
    private final int mixRead;
    private final int fsyncEvery;
    private final int fdatasyncEvery;
    private final boolean timeBased;
    private final boolean reseedEachPass;
    private final long seed;
    /** fio's random map, or null with norandommap (or a sequential pattern). */
    private final RandomMap map;

    // Generator states, xorshift64*: offsets, rwmix, block sizes.
    private long offState;
    private long mixState;
    private long bsState;

    // Per pass.
    private final long[] lastPos = new long[2];
    private long passBytes;
    /** Writes issued this pass, and whether the last I/O issued was a write (fio's io_issues[WRITE], last_ddir_issued). */
    private long writesIssued;
    private boolean lastWasWrite;
    /** The sync {@link #nextDir} returned last is an fdatasync. */
    private boolean dataSync;
    private boolean wrapped;

    // fio's rwmix cycle.
    private final long[] issues = new long[2];
    private int rwmixDir = Ddir.READ;
    private long rwmixIssues;

    /** The length of the I/O {@link #next} placed last. */
    private int length;

    /** @param threadNumber fio's 1-based thread number: each job and clone gets its own streams */
    IoPattern(JobSpec spec, long threadNumber) {
        this.rw = spec.rw();
        this.bs = spec.bs();
        this.fixedBs = bs.fixed(rw);
        this.start = spec.offset();
        this.regionSize = spec.size();
        this.unit = bs.smallest(rw);
        this.mixRead = spec.rwmixread();
        this.fsyncEvery = spec.fsync();
        this.fdatasyncEvery = spec.control().fdatasync();
        this.timeBased = spec.timeBased();
        this.reseedEachPass = spec.randRepeat();
        this.map = spec.randomMap() && rw.isRandom() ? new RandomMap(regionSize / unit) : null;
        // fio's setup_random_seeds: a seed per stream, from the base seed times the thread number.
        long s = spec.randSeed();
        for (int i = 0; i < 4; i++) {
            s *= 0x9e370001L;
        }
        this.seed = s * threadNumber;
        this.rwmixDir = rw.hasReads() ? Ddir.READ : Ddir.WRITE;
        seedStreams();
    }

    /** Starts the next pass over the region: map cleared, positions at the start, seeds again with randrepeat. */
    void startPass() {
        if (map != null) {
            map.reset();
        }
        lastPos[0] = 0;
        lastPos[1] = 0;
        passBytes = 0;
        writesIssued = 0;
        lastWasWrite = false;
        rwmixIssues = 0;
        if (reseedEachPass) {
            seedStreams();
        }
    }

    /** The direction of the next I/O ({@link Ddir}), fio's get_rw_ddir; counts it as issued. */
    int nextDir() {
        // fio's get_rw_ddir: right after the Nth write, fsync=N's fsync, else fdatasync=N's fdatasync.
        if (lastWasWrite) {
            lastWasWrite = false;
            if (fsyncEvery > 0 && writesIssued % fsyncEvery == 0) {
                dataSync = false;
                return Ddir.SYNC;
            }
            if (fdatasyncEvery > 0 && writesIssued % fdatasyncEvery == 0) {
                dataSync = true;
                return Ddir.SYNC;
            }
        }
        int dir;
        if (rw.isMixed()) {
            if (issues[rwmixDir] >= rwmixIssues) {
                long v = 1 + Math.unsignedMultiplyHigh(next(Stream.MIX), 100);   // fio's rand_between(1, 100)
                int drawn = v <= mixRead ? Ddir.READ : Ddir.WRITE;
                if (drawn != rwmixDir) {
                    // fio's set_rwmix_bytes, with the direction it leaves.
                    rwmixIssues = issues[rwmixDir] * (drawn == Ddir.READ ? mixRead : 100 - mixRead) / 100;
                }
                rwmixDir = drawn;
            }
            dir = rwmixDir;
        } else {
            dir = rw.hasReads() ? Ddir.READ : Ddir.WRITE;
        }
        issues[dir]++;
        if (dir == Ddir.WRITE) {
            writesIssued++;
        }
        lastWasWrite = dir == Ddir.WRITE;
        return dir;
    }

    /** Whether the SYNC {@link #nextDir} returned last is an fdatasync (fdatasync=N) rather than an fsync. */
    boolean dataSync() {
        return dataSync;
    }

    /**
     * Places the next I/O in direction {@code dir} (READ or WRITE): its file offset, with
     * {@link #length()} set; -1 when the pass is over (never for a time based job).
     */
    long next(int dir) {
        long rel = rw.isRandom() ? nextRandom(dir) : nextSequential(dir);
        if (rel < 0 && timeBased) {
            // fio's get_next_rand_block / get_next_seq_offset for time_based: start over, invalidate.
            wrapped = true;
            startPass();
            rel = rw.isRandom() ? nextRandom(dir) : nextSequential(dir);
        }
        if (rel < 0) {
            return -1;
        }
        passBytes += length;
        return start + rel;
    }

    int length() {
        return length;
    }

    /** Whether the pattern started over since the last call (a time based wrap). */
    boolean takeWrapped() {
        boolean w = wrapped;
        wrapped = false;
        return w;
    }

    private long nextRandom(int dir) {
        if (map == null && passBytes >= regionSize) {
            return -1;   // norandommap: a region's worth of I/O is a pass
        }
        int minBs = bs.min(dir);
        // fio's last_block: the blocks where an I/O of the direction's smallest size still fits.
        long lastBlock = (regionSize - (minBs - unit)) / unit;
        if (lastBlock <= 0) {
            return -1;
        }
        long block = Math.unsignedMultiplyHigh(next(Stream.OFFSET), lastBlock);
        if (map != null) {
            block = map.firstFree(block);
            if (block < 0) {
                return -1;
            }
        }
        long rel = block * unit;
        int len = buflen(dir, rel);
        if (len == 0) {
            return -1;
        }
        if (map != null) {
            int blocks = (len + unit - 1) / unit;
            int marked = map.mark(block, blocks);
            if ((long) marked * unit < len) {
                len = marked * unit;   // fio: an I/O over used blocks is cut to the free ones
            }
        }
        length = len;
        return rel;
    }

    private long nextSequential(int dir) {
        long rel = lastPos[dir];
        if (rel >= regionSize) {
            return -1;
        }
        int len = buflen(dir, rel);
        if (len == 0) {
            return -1;
        }
        lastPos[dir] = rel + len;
        length = len;
        return rel;
    }

    /** fio's get_next_buflen: the direction's size, or one drawn from its range that fits; 0 if none fits. */
    private int buflen(int dir, long rel) {
        int minBs = bs.min(dir);
        int maxBs = bs.max(dir);
        if (rel + minBs > regionSize) {
            return 0;
        }
        if (fixedBs || minBs == maxBs) {
            return minBs;
        }
        long len;
        do {
            // As fio: min + max * u, rounded down to a multiple of min, at most max.
            len = minBs + Math.unsignedMultiplyHigh(next(Stream.BS), maxBs);
            len -= len % minBs;
            len = Math.min(len, maxBs);
        } while (rel + len > regionSize);
        return (int) len;
    }

    private enum Stream { OFFSET, MIX, BS }

    private long next(Stream stream) {
        return switch (stream) {
            case OFFSET -> offState = xorshift(offState);
            case MIX -> mixState = xorshift(mixState);
            case BS -> bsState = xorshift(bsState);
        } * 0x2545F4914F6CDD1DL;
    }

    private static long xorshift(long x) {
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        return x;
    }

    private void seedStreams() {
        offState = nonZero(seed + 1);
        mixState = nonZero(seed * 0x9e370001L + 2);
        bsState = nonZero(seed * 0x9e370001L * 0x9e370001L + 3);
    }

    private static long nonZero(long s) {
        long z = s ^ 0x5DEECE66DL;
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;   // spread a small seed over all bits
        z ^= z >>> 33;
        return z == 0 ? 1 : z;
    }
}
