package io.jring.tool.fio;

/**
 * fio's random map (its {@code axmap}, on by default, off with {@code norandommap}): which
 * blocks of the job's region a random pattern has used in the current pass. A drawn block
 * that was used already is replaced by the next unused one after it, wrapping at the end, so
 * each pass touches every block exactly once; when none is left the pass is over and
 * {@link #take} says so (fio then starts a new pass with a fresh draw). One bit per block,
 * allocated once; the search scans words, which costs little on average (the holes it looks
 * for are many until the very end of a pass). An I/O larger than a block marks a run of
 * blocks ({@link #mark}). Job-thread only.
 */
final class RandomMap {
    private final long[] words;
    private final long blocks;
    private long used;

    RandomMap(long blocks) {
        if (blocks <= 0 || blocks > (1L << 37)) {
            throw new IllegalArgumentException("random map of " + blocks + " blocks");
        }
        this.blocks = blocks;
        this.words = new long[(int) ((blocks + 63) >>> 6)];
    }

    /**
     * Marks {@code block}, or the next unused block after it (wrapping), as used and returns
     * it; -1 if every block is used (the pass is over: {@link #reset} and draw again).
     */
    long take(long block) {
        long b = firstFree(block);
        if (b >= 0) {
            mark(b, 1);
        }
        return b;
    }

    /** {@code block} if unused, else the next unused block after it (wrapping); -1 if every block is used. */
    long firstFree(long block) {
        return isUsed(block) ? nextFree(block) : block;
    }

    /**
     * Marks up to {@code n} blocks from the unused {@code block} on, stopping at the first used
     * one or the end of the map (fio's axmap_set_nr); returns how many it marked, at least 1.
     */
    int mark(long block, int n) {
        int marked = 0;
        for (long b = block; marked < n && b < blocks && !isUsed(b); b++) {
            words[(int) (b >>> 6)] |= 1L << b;
            marked++;
        }
        used += marked;
        return marked;
    }

    /** Starts a new pass: every block unused again. */
    void reset() {
        java.util.Arrays.fill(words, 0L);
        used = 0;
    }

    long used() {
        return used;
    }

    private boolean isUsed(long block) {
        return (words[(int) (block >>> 6)] & (1L << block)) != 0;
    }

    /** The first unused block after {@code block}, wrapping to 0 at the end; -1 if none. */
    private long nextFree(long block) {
        if (used >= blocks) {
            return -1;
        }
        long from = block + 1 == blocks ? 0 : block + 1;
        long b = firstFreeFrom(from);
        return b >= 0 ? b : firstFreeFrom(0);
    }

    /** The first unused block at or after {@code from}, or -1 before the end of the map. */
    private long firstFreeFrom(long from) {
        int w = (int) (from >>> 6);
        long free = ~words[w] & (-1L << from);
        while (free == 0) {
            if (++w == words.length) {
                return -1;
            }
            free = ~words[w];
        }
        long b = ((long) w << 6) + Long.numberOfTrailingZeros(free);
        return b < blocks ? b : -1;
    }
}
