package io.jring.tool.fio;

/**
 * fio's block sizes per direction ({@code min_bs[]} and {@code max_bs[]}): {@code bs=4k}, or
 * {@code bs=8k,32k} for reads then writes (an empty value keeps the default, {@code bs=,8k});
 * {@code bsrange=1k-4k} or {@code bsrange=1k-4k,2k-8k} for a range, each I/O then drawing its
 * size between them as fio's {@code get_next_buflen} does. {@code bs=1k-4k} is read as
 * {@code bsrange=1k-4k} (fio 3.33 itself takes it as 1k reads and 4k writes). A third
 * value (fio's trims) is accepted and not used.
 */
record BlockSizes(int readMin, int readMax, int writeMin, int writeMax) {

    /** fio's default: 4096 both ways. */
    static final BlockSizes DEFAULT = new BlockSizes(4096, 4096, 4096, 4096);

    /** The largest size a job's buffers must hold: 64 MiB at most. */
    static final long LIMIT = 64L << 20;

    BlockSizes {
        if (readMin < 1 || writeMin < 1 || readMax < readMin || writeMax < writeMin) {
            throw new IllegalArgumentException("block sizes must be >= 1 with min <= max");
        }
    }

    int min(int ddir) {
        return ddir == Ddir.WRITE ? writeMin : readMin;
    }

    int max(int ddir) {
        return ddir == Ddir.WRITE ? writeMax : readMax;
    }

    /** Whether every I/O of {@code rw} has the same size (no range, one size for the directions used). */
    boolean fixed(Rw rw) {
        return smallest(rw) == largest(rw);
    }

    /** The largest I/O the directions of {@code rw} issue: the size of a job's buffers. */
    int largest(Rw rw) {
        return Math.max(rw.hasReads() ? readMax : 0, rw.hasWrites() ? writeMax : 0);
    }

    /** fio's rw_min_bs: the smallest I/O of the directions of {@code rw}, the unit of offsets and of the random map. */
    int smallest(Rw rw) {
        return Math.min(rw.hasReads() ? readMin : Integer.MAX_VALUE, rw.hasWrites() ? writeMin : Integer.MAX_VALUE);
    }

    /** fio's "bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B" (trims shown as writes). */
    String describe() {
        String r = Num2Str.of(readMin, true, Num2Str.BYTE) + "-" + Num2Str.of(readMax, true, Num2Str.BYTE);
        String w = Num2Str.of(writeMin, true, Num2Str.BYTE) + "-" + Num2Str.of(writeMax, true, Num2Str.BYTE);
        return "(R) " + r + ", (W) " + w + ", (T) " + w;
    }

    /** {@code bs=}: one size or a range, then optionally the writes' after a comma. */
    static BlockSizes parseBs(String text) {
        return parse(text, "bs");
    }

    /** {@code bsrange=}: ranges (a plain size is a range of one). */
    static BlockSizes parseRange(String text) {
        return parse(text, "bsrange");
    }

    private static BlockSizes parse(String text, String option) {
        String[] parts = text.split(",", -1);
        if (parts.length > 3) {
            throw new IllegalArgumentException(option + "=" + text + ": at most read,write,trim sizes");
        }
        long[] read = range(parts[0], option, text, new long[] {DEFAULT.readMin, DEFAULT.readMax});
        // As fio: a single value is for every direction; a value not followed by one applies to the rest.
        long[] write = parts.length > 1 ? range(parts[1], option, text, new long[] {DEFAULT.writeMin, DEFAULT.writeMax}) : read;
        return new BlockSizes((int) read[0], (int) read[1], (int) write[0], (int) write[1]);
    }

    private static long[] range(String part, String option, String text, long[] whenEmpty) {
        String p = part.trim();
        if (p.isEmpty()) {
            return whenEmpty;
        }
        int dash = p.indexOf('-');
        long lo = size(dash < 0 ? p : p.substring(0, dash), option, text);
        long hi = dash < 0 ? lo : size(p.substring(dash + 1), option, text);
        if (hi < lo) {
            long t = lo;
            lo = hi;
            hi = t;
        }
        return new long[] {lo, hi};
    }

    private static long size(String s, String option, String text) {
        long v = FioUnits.parseSize(s);
        if (v < 1 || v > LIMIT) {
            throw new IllegalArgumentException(option + "=" + text + ": each size must be between 1 and 64m");
        }
        return v;
    }
}
