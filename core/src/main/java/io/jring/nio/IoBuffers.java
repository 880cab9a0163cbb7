package io.jring.nio;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Native bounce buffers for heap ByteBuffers (the ring and the syscalls need native
 * memory): page-aligned, so O_DIRECT files take them too. Buffers up to {@link #POOLED}
 * bytes are reused through a small pool; all come from automatic arenas, so one that is
 * never given back is freed by the GC.
 */
final class IoBuffers {
    static final int POOLED = 64 * 1024;
    private static final int ALIGN = 4096;
    private static final int MAX_POOL = 32;

    private IoBuffers() {}

    /** Any thread; a segment is in the pool or with one user. */
    private static final ConcurrentLinkedQueue<MemorySegment> POOL = new ConcurrentLinkedQueue<>();
    /** Approximate pool size (bounds it; exactness does not matter). */
    private static final AtomicInteger SIZE = new AtomicInteger();

    /** A buffer of at least {@code size} bytes; give it back with {@link #give}. */
    static MemorySegment take(long size) {
        if (size <= POOLED) {
            MemorySegment s = POOL.poll();
            if (s != null) {
                SIZE.decrementAndGet();
                return s;
            }
            return Arena.ofAuto().allocate(POOLED, ALIGN);
        }
        return Arena.ofAuto().allocate(size, ALIGN);
    }

    static void give(MemorySegment s) {
        if (s.byteSize() == POOLED && SIZE.incrementAndGet() <= MAX_POOL) {
            POOL.offer(s);
        } else if (s.byteSize() == POOLED) {
            SIZE.decrementAndGet();
        }
    }
}
