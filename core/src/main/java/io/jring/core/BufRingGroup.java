package io.jring.core;

import io.jring.Errno;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * One ring-mapped provided-buffer group (Linux's {@code io_buffer_list} with IOBL_BUF_RING,
 * io_uring/kbuf.c): an array of {@code struct io_uring_buf {u64 addr; u32 len; u16 bid;
 * u16 resv}} in memory the application shares with the ring, the 16-bit tail in the first
 * entry's {@code resv}, the head private to the ring. A selection reads the entry at the
 * head; the head moves when the buffer is committed (consumed), which happens at completion
 * for a pollable file, at once otherwise (kbuf.c io_should_commit). With IOU_PBUF_RING_INC
 * a buffer is consumed by the bytes used and stays at the head while some of it is left.
 *
 * <p>Memory ordering: the application writes entries with plain stores and then publishes
 * them with a release store of the tail ({@code io.jring.BufRing#advance}); the ring reads
 * the tail with an acquire load, which orders its entry reads after it. The ring writes an
 * entry back only for incremental consumption and a bundle's truncated first buffer (plain
 * stores); the application reads those only after the CQE naming the buffer, which the CQ
 * tail's release store publishes. Everything else here is the posting right's: plain.
 */
public final class BufRingGroup {
    /** {@code sizeof(struct io_uring_buf)}. */
    public static final long ENTRY_SIZE = 16;
    static final long ADDR = 0;
    static final long LEN = 8;
    static final long BID = 12;
    /** The tail: {@code resv} of entry 0 ({@code struct io_uring_buf_ring}'s union). */
    public static final long TAIL = 14;
    /** Linux's PEEK_MAX_IMPORT: a bundle with a length to fill maps at most this many buffers. */
    static final int PEEK_MAX_IMPORT = 256;
    /** Linux's UIO_MAXIOV: a bundle maps at most this many buffers. */
    static final int UIO_MAXIOV = 1024;

    private static final VarHandle U16 = JAVA_SHORT.varHandle();

    final int bgid;
    final MemorySegment memory;
    final int mask;
    final boolean incremental;
    /** The memory jring allocated for IOU_PBUF_RING_MMAP (freed on unregister), else null. */
    private final Arena owned;
    /** Posting right: the next entry to select (16 bits, as Linux's {@code __u16 head}). */
    int head;
    /** Unregistered (or the ring closed): selections still in flight commit nothing. Posting right. */
    boolean dead;

    BufRingGroup(int bgid, MemorySegment memory, int entries, boolean incremental, Arena owned) {
        this.bgid = bgid;
        this.memory = memory;
        this.mask = entries - 1;
        this.incremental = incremental;
        this.owned = owned;
    }

    /** The memory the application fills (the same segment it registered, or the MMAP one). */
    public MemorySegment memory() {
        return memory;
    }

    /** The tail as the application last published it (acquire). */
    int tail() {
        return Short.toUnsignedInt((short) U16.getAcquire(memory, TAIL));
    }

    /** Buffers published and not yet consumed. */
    int available() {
        return (tail() - head) & 0xFFFF;
    }

    /** False if the memory was freed under the ring (its arena closed): selections fail with -EFAULT. */
    boolean usable() {
        return memory.scope().isAlive();
    }

    private long slot(int index) {
        return (index & mask) * ENTRY_SIZE;
    }

    long addrAt(int index) {
        return memory.get(JAVA_LONG, slot(index) + ADDR);
    }

    /** The entry's length, unsigned as Linux reads it, capped at Integer.MAX_VALUE. */
    int lenAt(int index) {
        int len = memory.get(JAVA_INT, slot(index) + LEN);
        return len < 0 ? Integer.MAX_VALUE : len;
    }

    int bidAt(int index) {
        return Short.toUnsignedInt(memory.get(JAVA_SHORT, slot(index) + BID));
    }

    void setLenAt(int index, int len) {
        memory.set(JAVA_INT, slot(index) + LEN, len);
    }

    /**
     * Consumes what a completion used (Linux's io_kbuf_commit): {@code nr} buffers from the
     * head, or with IOU_PBUF_RING_INC {@code len} bytes, a buffer that keeps some bytes
     * staying at the head with its address and length moved on. False if the head buffer
     * was only partly consumed (the CQE then has {@code CqeFlags.BUF_MORE}). A negative
     * {@code len} (a failure) consumes nothing.
     */
    boolean commit(int len, int nr) {
        if (len < 0 || dead) {
            return true;
        }
        if (!incremental) {
            head = (head + nr) & 0xFFFF;
            return true;
        }
        if (len == 0) {
            return false;   // nothing used: the buffer stays whole at the head
        }
        while (len > 0) {
            long at = slot(head);
            int bufLen = lenAt(head);
            int used = Math.min(len, bufLen);
            int left = bufLen - used;
            if (left > 0 || used == 0) {
                memory.set(JAVA_LONG, at + ADDR, memory.get(JAVA_LONG, at + ADDR) + used);
                memory.set(JAVA_INT, at + LEN, left);
                return false;
            }
            head = (head + 1) & 0xFFFF;
            len -= used;
        }
        return true;
    }

    /** Unregistered or closed: nothing commits any more; memory jring allocated is freed. */
    void release() {
        dead = true;
        if (owned != null) {
            owned.close();
        }
    }

    /** An empty ring of {@code entries} for IOU_PBUF_RING_MMAP: page-aligned, zeroed, counted. */
    static BufRingGroup allocate(int bgid, int entries, boolean incremental) {
        Arena arena = io.jring.sys.NativeMemory.shared();
        long size = Math.max(4096, (entries * ENTRY_SIZE + 4095) & ~4095L);
        MemorySegment m = arena.allocate(size, 4096);
        return new BufRingGroup(bgid, m.asSlice(0, entries * ENTRY_SIZE), entries, incremental, arena);
    }

    /** Checks a registration's arguments as Linux's io_register_pbuf_ring: 0 or -errno. */
    static int checkRegistration(MemorySegment memory, int entries, int flags, int validFlags, boolean mmap) {
        if ((flags & ~validFlags) != 0 || entries <= 0 || Integer.bitCount(entries) != 1 || entries >= 65536) {
            return -Errno.EINVAL;
        }
        if (mmap) {
            return 0;
        }
        if (memory != null && !memory.isNative()) {
            return -Errno.EINVAL;   // a heap segment: jring's own misuse, as for every buffer
        }
        if (memory == null || memory.address() == 0) {
            return -Errno.EFAULT;
        }
        if ((memory.address() & 4095) != 0) {
            return -Errno.EINVAL;   // the kernel maps whole pages: the ring starts on one
        }
        if (!memory.scope().isAlive() || memory.byteSize() < entries * ENTRY_SIZE) {
            return -Errno.EFAULT;   // the pages the ring needs are not there
        }
        return 0;
    }
}
