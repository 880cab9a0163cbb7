package io.jring.core;

import io.jring.sys.Structs;

import java.lang.foreign.MemorySegment;

/**
 * The buffers one bundle mapped (IORING_RECVSEND_BUNDLE; Linux keeps them in the request's
 * iovec array): addresses and lengths copied at selection, so a transfer that waits and
 * goes on uses the same buffers even if the application refills their ring slots meanwhile.
 * Created on a request's first bundle and kept with the pooled request, so steady state
 * allocates nothing. Owned by whoever owns the request (the hand-offs order it): plain.
 */
public final class BufferBundle {
    private long[] addrs = new long[8];
    private int[] lens = new int[8];
    private int count;
    private long total;
    /**
     * How many buffers a bundle without a length to fill maps: 1 at first, then as many as
     * the request's largest bundle mapped (Linux reuses the iovec array it grew).
     */
    int vec = 1;
    /**
     * A mapping left out a buffer that did not fit (Linux's IORING_RECV_PARTIAL_MAP): a
     * receive does not go on filling more buffers then. Kept until the next multishot round.
     */
    public boolean partialMap;
    /** The request's bytes done when these buffers were mapped (earlier parts of the same CQE). */
    public long base;

    /** A new request's first bundle: nothing mapped, one buffer at first. */
    public void reset() {
        clear();
        vec = 1;
        partialMap = false;
        base = 0;
    }

    void clear() {
        count = 0;
        total = 0;
    }

    void add(long addr, int len) {
        if (count == addrs.length) {
            addrs = java.util.Arrays.copyOf(addrs, count * 2);
            lens = java.util.Arrays.copyOf(lens, count * 2);
        }
        addrs[count] = addr;
        lens[count] = len;
        count++;
        total += len;
    }

    /** Buffers mapped. */
    public int count() {
        return count;
    }

    /** Bytes mapped, all buffers together. */
    public long total() {
        return total;
    }

    /**
     * Writes the iovecs of the mapped buffers from byte {@code skip} on into {@code iov}
     * (room for {@code capacity} entries); returns how many it wrote.
     */
    public int fill(MemorySegment iov, long skip, int capacity) {
        int n = 0;
        long at = 0;
        for (int i = 0; i < count && n < capacity; i++) {
            long end = at + lens[i];
            if (end > skip) {
                long from = Math.max(skip - at, 0);
                Structs.Iovec.set(iov, n++, addrs[i] + from, lens[i] - from);
            }
            at = end;
        }
        return n;
    }

    /**
     * How many of the mapped buffers {@code bytes} reached, 0 for none (Linux's
     * io_bundle_nbufs): those are consumed by the completion.
     */
    public int buffersUsed(long bytes) {
        if (bytes <= 0) {
            return 0;
        }
        int n = 0;
        while (bytes > 0 && n < count) {
            bytes -= lens[n];
            n++;
        }
        return n;
    }
}
