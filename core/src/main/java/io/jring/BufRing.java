package io.jring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A ring-mapped provided-buffer group (Linux's {@code struct io_uring_buf_ring}, with
 * liburing's {@code io_uring_buf_ring_*} helpers): the application adds buffers at the tail
 * and publishes them with {@link #advance}; requests with {@link SqeFlags#BUFFER_SELECT} on
 * the group ({@link Sqe#bufferSelect}) take them from the head, and each CQE that used one
 * has {@link CqeFlags#BUFFER} with the buffer id ({@link CqeFlags#bufferId}). A used buffer
 * is the application's again: it adds it back when it is done with the data.
 *
 * <p>The memory layout is Linux's, so the same memory works with the kernel's io_uring:
 * {@code entries} slots of 16 bytes, {@code {u64 addr; u32 len; u16 bid; u16 resv}}, the
 * 16-bit tail in the first slot's {@code resv}; the head is the ring's
 * ({@link IoUring#bufRingHead}). With {@link #INC} a buffer is consumed by the bytes each
 * completion used: it stays at the head while some of it is left, and such CQEs have
 * {@link CqeFlags#BUF_MORE}.
 *
 * <p>One thread adds and advances at a time, as with liburing. The slots are written with
 * plain stores and published by the release store of the tail in {@link #advance}; the ring
 * reads the tail with an acquire load before it reads a slot.
 */
public final class BufRing implements AutoCloseable {
    /** {@code IOU_PBUF_RING_MMAP}: the ring allocates the memory ({@link IoUring#mapBufRing}). */
    public static final int MMAP = 1;
    /** {@code IOU_PBUF_RING_INC}: buffers are consumed incrementally ({@link CqeFlags#BUF_MORE}). */
    public static final int INC = 2;
    /** The largest ring: a power of two below 65536, as the 16-bit head and tail need. */
    public static final int MAX_ENTRIES = 32768;
    /** {@code sizeof(struct io_uring_buf)}. */
    public static final long ENTRY_SIZE = 16;
    private static final long TAIL = 14;
    private static final VarHandle U16 = JAVA_SHORT.varHandle();

    private final IoUring ring;
    private final int bgid;
    private final MemorySegment memory;
    private final int mask;
    /** The memory {@link #setup} allocated (freed by {@link #close}), or null. */
    private final Arena arena;
    private boolean closed;

    private BufRing(IoUring ring, int bgid, MemorySegment memory, int entries, Arena arena) {
        this.ring = ring;
        this.bgid = bgid;
        this.memory = memory;
        this.mask = entries - 1;
        this.arena = arena;
    }

    /**
     * Allocates, registers and initialises a buffer ring of {@code entries} for group
     * {@code bgid} (liburing's io_uring_setup_buf_ring); {@code flags} {@link #MMAP} (the
     * ring's own memory) and {@link #INC}. {@link #close} unregisters and frees it.
     *
     * @param ring the io_uring to register the buffer ring with
     * @param entries slots in the ring, a power of two up to {@link #MAX_ENTRIES}
     * @param bgid the buffer group id requests select from ({@link Sqe#bufferSelect})
     * @param flags 0, or {@link #MMAP} and/or {@link #INC}
     * @return the registered, empty buffer ring
     * @throws IoUringException as {@link IoUring#registerBufRing} (EINVAL, EEXIST), EBADFD if
     *         {@code ring} is closed
     */
    public static BufRing setup(IoUring ring, int entries, int bgid, int flags) {
        if ((flags & MMAP) != 0) {
            ring.registerBufRing(null, entries, bgid, flags);
            return new BufRing(ring, bgid, ring.mapBufRing(bgid), entries, null).init();
        }
        if (entries <= 0 || entries > MAX_ENTRIES) {
            throw new IoUringException(Errno.EINVAL, "entries must be a power of two up to " + MAX_ENTRIES
                    + ", got " + entries);
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment m = arena.allocate(size(entries), 4096);
            ring.registerBufRing(m, entries, bgid, flags);
            return new BufRing(ring, bgid, m, entries, arena).init();
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Registers the application's own {@code memory} (native, page-aligned, at least
     * {@link #size}{@code (entries)} bytes, alive until {@link #close}) as group
     * {@code bgid}'s ring and initialises it; {@link #close} unregisters it and leaves the
     * memory to its owner.
     *
     * @param ring the io_uring to register the buffer ring with
     * @param memory native, page-aligned memory of at least {@link #size}{@code (entries)} bytes
     * @param entries slots in the ring, a power of two up to {@link #MAX_ENTRIES}
     * @param bgid the buffer group id requests select from ({@link Sqe#bufferSelect})
     * @param flags 0 or {@link #INC}; {@link #MMAP} is ignored (cleared)
     * @return the registered, empty buffer ring
     * @throws IoUringException as {@link IoUring#registerBufRing} (EINVAL, EEXIST, EFAULT),
     *         EBADFD if {@code ring} is closed
     */
    public static BufRing register(IoUring ring, MemorySegment memory, int entries, int bgid, int flags) {
        ring.registerBufRing(memory, entries, bgid, flags & ~MMAP);
        return new BufRing(ring, bgid, memory, entries, null).init();
    }

    /**
     * Bytes a ring of {@code entries} takes, rounded up to whole 4 KiB pages.
     *
     * @param entries slots in the ring
     * @return {@code 16 * entries} rounded up to a multiple of 4096, at least 4096
     */
    public static long size(int entries) {
        return Math.max(4096, (entries * ENTRY_SIZE + 4095) & ~4095L);
    }

    /**
     * The mask of a ring of {@code entries} (liburing's io_uring_buf_ring_mask).
     *
     * @param entries slots in the ring, a power of two
     * @return {@code entries - 1}
     */
    public static int mask(int entries) {
        return entries - 1;
    }

    /**
     * This ring's mask.
     *
     * @return {@code entries() - 1}
     */
    public int mask() {
        return mask;
    }

    /**
     * Slots in the ring.
     *
     * @return the number of entries the ring was registered with
     */
    public int entries() {
        return mask + 1;
    }

    /**
     * The buffer group this ring feeds.
     *
     * @return the buffer group id ({@code bgid})
     */
    public int groupId() {
        return bgid;
    }

    /**
     * The shared memory (Linux's layout).
     *
     * @return the ring's memory, {@link #entries()} slots of {@link #ENTRY_SIZE} bytes
     */
    public MemorySegment memory() {
        return memory;
    }

    /**
     * Empties the ring: tail 0 (liburing's io_uring_buf_ring_init).
     *
     * @return this buffer ring
     */
    public BufRing init() {
        U16.setRelease(memory, TAIL, (short) 0);
        return this;
    }

    /**
     * Writes buffer {@code buf} (native; its whole size, at most 2^31 - 1 bytes) with id
     * {@code bid} into the slot {@code bufOffset} past the tail (liburing's
     * io_uring_buf_ring_add); the ring sees it after {@link #advance}.
     *
     * @param buf a native segment that stays alive while the ring may hand it out
     * @param bid the buffer id (16 bits) CQEs report ({@link CqeFlags#bufferId})
     * @param bufOffset which slot past the tail, 0 for the first buffer added since the last advance
     * @throws IoUringException EINVAL if {@code buf} is null or not native, or {@code bid} is not 16 bits
     */
    public void add(MemorySegment buf, int bid, int bufOffset) {
        if (buf == null || !buf.isNative()) {
            throw new IoUringException(Errno.EINVAL, "a ring buffer must be a native MemorySegment");
        }
        add(buf.address(), (int) Math.min(buf.byteSize(), Integer.MAX_VALUE), bid, bufOffset);
    }

    /**
     * {@link #add(MemorySegment, int, int)} for a raw address the caller keeps alive.
     *
     * @param address the buffer's native address
     * @param length the buffer's size in bytes
     * @param bid the buffer id (16 bits) CQEs report ({@link CqeFlags#bufferId})
     * @param bufOffset which slot past the tail, 0 for the first buffer added since the last advance
     * @throws IoUringException EINVAL if {@code bid} is not 16 bits
     */
    public void add(long address, int length, int bid, int bufOffset) {
        if (bid < 0 || bid > 0xFFFF) {
            throw new IoUringException(Errno.EINVAL, "a buffer id is 16 bits, got " + bid);
        }
        long at = ((tail() + bufOffset) & mask) * ENTRY_SIZE;
        memory.set(JAVA_LONG, at, address);
        memory.set(JAVA_INT, at + 8, length);
        memory.set(JAVA_SHORT, at + 12, (short) bid);
    }

    /**
     * Publishes {@code count} added buffers (liburing's io_uring_buf_ring_advance): a release store of the tail.
     *
     * @param count how many buffers {@link #add} wrote past the tail
     */
    public void advance(int count) {
        U16.setRelease(memory, TAIL, (short) (tail() + count));
    }

    /**
     * Publishes {@code count} buffers and consumes {@code count} CQEs at once (liburing's
     * io_uring_buf_ring_cq_advance), for the common loop that re-adds each CQE's buffer.
     *
     * @param count how many buffers {@link #add} wrote past the tail, and how many ready CQEs to consume
     * @throws IoUringException as {@link IoUring#cqAdvance}: EINVAL if fewer than {@code count}
     *         CQEs are ready (the buffers are published already)
     */
    public void cqAdvance(int count) {
        advance(count);
        ring.cqAdvance(count);
    }

    /**
     * Buffers published and not yet taken (liburing's io_uring_buf_ring_available).
     *
     * @return the tail minus the ring's head, modulo 2^16
     * @throws IoUringException as {@link IoUring#bufRingHead} (ENOENT once unregistered, EBADFD
     *         if the io_uring is closed)
     */
    public int available() {
        return (tail() - ring.bufRingHead(bgid)) & 0xFFFF;
    }

    /** The tail as this side last wrote it. */
    private int tail() {
        return Short.toUnsignedInt(memory.get(JAVA_SHORT, TAIL));
    }

    /**
     * Unregisters the ring (if its io_uring is still open) and frees memory {@link #setup}
     * allocated (liburing's io_uring_free_buf_ring). Requests still holding one of its
     * buffers complete with it as usual. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            ring.unregisterBufRing(bgid);
        } catch (IoUringException e) {
            if (e.errno() != Errno.EBADFD) {
                throw e;
            }
        } finally {
            if (arena != null) {
                arena.close();
            }
        }
    }

    @Override
    public String toString() {
        return "BufRing[group " + bgid + ", " + entries() + " entries, tail " + tail() + "]";
    }
}
