package io.jring.channel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * A ring's native bounce buffers for heap {@code ByteBuffer}s: the kernel reads and writes
 * native memory only, so a heap buffer's bytes go through one of these. Size classes are
 * powers of two from 4 KiB to 1 MiB, 4 KiB-aligned so that O_DIRECT files take them too;
 * at most {@link #POOLED_BYTES} are ever carved from the pool's arena (kept and reused),
 * buffers beyond that or larger than 1 MiB live in an arena of their own, closed on
 * {@link #giveBack}. Owner thread only: plain fields.
 */
public final class BouncePool {
    static final long ALIGN = 4096;
    private static final int MIN_SHIFT = 12;
    private static final int MAX_SHIFT = 20;
    private static final long POOLED_BYTES = 16L << 20;

    private final Arena arena = Arena.ofShared();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] free = new ArrayDeque[MAX_SHIFT - MIN_SHIFT + 1];
    private long carved;

    /** A lent buffer: its segment (exactly {@code size} bytes) and where it goes back. */
    public record Lent(MemorySegment segment, MemorySegment whole, Arena own) {}

    /**
     * Lends a buffer of at least {@code size} bytes.
     *
     * @param size the bytes needed
     * @return the buffer; give it back with {@link #giveBack}
     */
    public Lent lend(int size) {
        int shift = Math.max(MIN_SHIFT, 64 - Long.numberOfLeadingZeros(Math.max(size, 1) - 1L));
        if (shift <= MAX_SHIFT) {
            ArrayDeque<MemorySegment> q = free[shift - MIN_SHIFT];
            MemorySegment s = q == null ? null : q.poll();
            if (s == null && carved + (1L << shift) <= POOLED_BYTES) {
                s = arena.allocate(1L << shift, ALIGN);
                carved += 1L << shift;
            }
            if (s != null) {
                return new Lent(s.asSlice(0, size), s, null);
            }
        }
        Arena own = Arena.ofConfined();
        MemorySegment s = own.allocate(Math.max(size, 1), ALIGN);
        return new Lent(s.asSlice(0, size), s, own);
    }

    /**
     * Takes a lent buffer back.
     *
     * @param lent what {@link #lend} returned
     */
    public void giveBack(Lent lent) {
        if (lent.own() != null) {
            lent.own().close();
            return;
        }
        int shift = 63 - Long.numberOfLeadingZeros(lent.whole().byteSize());
        ArrayDeque<MemorySegment> q = free[shift - MIN_SHIFT];
        if (q == null) {
            q = free[shift - MIN_SHIFT] = new ArrayDeque<>();
        }
        q.push(lent.whole());
    }

    /** Frees every pooled buffer (the ring has stopped; nothing is lent any more). */
    void close() {
        arena.close();
    }
}
