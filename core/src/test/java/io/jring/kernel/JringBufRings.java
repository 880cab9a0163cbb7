package io.jring.kernel;

import io.jring.BufRing;
import io.jring.IoUring;
import io.jring.IoUringException;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/** jring's buffer rings through its public API: {@link IoUring#registerBufRing} and {@link BufRing}. */
final class JringBufRings implements BufRings {
    private final IoUring ring;
    private final Map<Integer, BufRing> rings = new HashMap<>();
    private final Map<Integer, Integer> pending = new HashMap<>();

    JringBufRings(IoUring ring) {
        this.ring = ring;
    }

    @Override
    public int register(MemorySegment memory, int entries, int bgid, int flags) {
        try {
            BufRing r = (flags & BufRing.MMAP) != 0 ? BufRing.setup(ring, entries, bgid, flags)
                    : BufRing.register(ring, memory, entries, bgid, flags);
            rings.put(bgid, r);
            pending.put(bgid, 0);
            return 0;
        } catch (IoUringException e) {
            return -e.errno();
        }
    }

    @Override
    public int unregister(int bgid) {
        try {
            ring.unregisterBufRing(bgid);
            rings.remove(bgid);
            return 0;
        } catch (IoUringException e) {
            return -e.errno();
        }
    }

    @Override
    public int head(int bgid) {
        try {
            return ring.bufRingHead(bgid);
        } catch (IoUringException e) {
            return -e.errno();
        }
    }

    @Override
    public void add(int bgid, long addr, int len, int bid) {
        int off = pending.get(bgid);
        rings.get(bgid).add(addr, len, bid, off);
        pending.put(bgid, off + 1);
    }

    @Override
    public void advance(int bgid) {
        rings.get(bgid).advance(pending.get(bgid));
        pending.put(bgid, 0);
    }
}
