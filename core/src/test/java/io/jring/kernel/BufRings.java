package io.jring.kernel;

import java.lang.foreign.MemorySegment;

/**
 * A {@link RingDriver}'s ring-mapped provided-buffer groups, for {@link BufRingScenarios}:
 * the kernel's through raw io_uring_register calls and writes to the shared memory
 * ({@link KernelBufRings}), jring's through {@code IoUring} and {@code BufRing}
 * ({@link JringBufRings}). Results are 0 (or a value) or -errno, never a throw.
 */
interface BufRings {
    /** IORING_REGISTER_PBUF_RING of {@code memory} (null with IOU_PBUF_RING_MMAP): 0 or -errno. */
    int register(MemorySegment memory, int entries, int bgid, int flags);

    /** IORING_UNREGISTER_PBUF_RING: 0 or -errno. */
    int unregister(int bgid);

    /** IORING_REGISTER_PBUF_STATUS: the head, or -errno. */
    int head(int bgid);

    /** Writes a buffer into the next free slot past the tail (published by {@link #advance}). */
    void add(int bgid, long addr, int len, int bid);

    /** Publishes the buffers added since the last advance. */
    void advance(int bgid);
}
