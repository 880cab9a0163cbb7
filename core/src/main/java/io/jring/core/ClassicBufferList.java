package io.jring.core;

import io.jring.Errno;

import java.lang.foreign.MemorySegment;

/**
 * One classic provided-buffer group (Linux's {@code io_buffer_list} filled by
 * PROVIDE_BUFFERS, io_uring/kbuf.c): a deque of buffers (address, length, id, owning region)
 * in a circular array. A selection takes the first; a buffer given back goes to the head.
 * Posting right only: plain fields.
 */
final class ClassicBufferList {
    private long[] addresses = new long[16];
    private int[] lengths = new int[16];
    private int[] bids = new int[16];
    private MemorySegment[] regions = new MemorySegment[16];
    private int head;
    int size;

    void append(MemorySegment region, int bufLen, int count, int firstBid) {
        ensure(size + count);
        long base = region.address();
        for (int i = 0; i < count; i++) {
            int at = (head + size) & (bids.length - 1);
            set(at, base + (long) i * bufLen, bufLen, firstBid + i, region);
            size++;
        }
    }

    int takeFirst(Request req, int wanted) {
        int at = head;
        MemorySegment region = regions[at];
        if (!region.scope().isAlive()) {
            return -Errno.EFAULT;
        }
        req.markSideState(Request.SIDE_BUFFER);
        req.selectedBid = bids[at];
        req.selectedAddress = addresses[at];
        req.selectedLength = wanted > 0 ? Math.min(wanted, lengths[at]) : lengths[at];
        req.selectedRegion = region;
        req.selectedCapacity = lengths[at];
        regions[at] = null;
        head = (head + 1) & (bids.length - 1);
        size--;
        req.ringSel = size == 0 ? ProvidedBuffers.SEL_EMPTY : 0;   // Linux's REQ_F_BL_EMPTY
        return 0;
    }

    void pushFirst(Request req) {
        ensure(size + 1);
        head = (head - 1) & (bids.length - 1);
        set(head, req.selectedAddress, req.selectedCapacity, req.selectedBid, req.selectedRegion);
        size++;
        req.selectedRegion = null;
    }

    int removeFirst(int count) {
        int n = Math.min(count, size);
        for (int i = 0; i < n; i++) {
            regions[head] = null;
            head = (head + 1) & (bids.length - 1);
        }
        size -= n;
        return n;
    }

    private void set(int at, long address, int length, int bid, MemorySegment region) {
        addresses[at] = address;
        lengths[at] = length;
        bids[at] = bid;
        regions[at] = region;
    }

    private void ensure(int needed) {
        if (needed <= bids.length) {
            return;
        }
        int cap = Integer.highestOneBit(needed - 1) << 1;
        long[] a = new long[cap];
        int[] l = new int[cap];
        int[] b = new int[cap];
        MemorySegment[] r = new MemorySegment[cap];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & (bids.length - 1);
            a[i] = addresses[from];
            l[i] = lengths[from];
            b[i] = bids[from];
            r[i] = regions[from];
        }
        addresses = a;
        lengths = l;
        bids = b;
        regions = r;
        head = 0;
    }
}
