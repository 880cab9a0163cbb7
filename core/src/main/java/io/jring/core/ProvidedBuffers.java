package io.jring.core;

import io.jring.CqeFlags;
import io.jring.Errno;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A ring's provided-buffer groups (Linux's classic {@code io_buffer_list}s): PROVIDE_BUFFERS
 * appends buffers to a group, a {@code BUFFER_SELECT} request takes the first one, a request
 * that did not use its buffer puts it back at the head, and a used one travels to the
 * application with the CQE ({@code CqeFlags.BUFFER}, id in the upper 16 bits). Who keeps a
 * buffer follows Linux 6.18 (checked on the kernel): a RECV gives it back before it waits and
 * when it ends with nothing (EOF, an error, a cancel), unless data is in it already (a
 * MSG_WAITALL recv waiting for the rest: REQ_F_BL_NO_RECYCLE); a READ keeps the buffer it
 * took from its first attempt on, through its wait, and uses it up whatever its result,
 * -ECANCELED included (io_req_defer_failed puts it with the CQE). Posting right only: plain
 * fields.
 */
public final class ProvidedBuffers {
    private static final int MAX_GROUPS = 1 << 16;

    private Group[] groups = new Group[8];

    /** Appends {@code count} buffers of {@code bufLen} bytes cut from {@code region}, ids from {@code firstBid}. */
    public void provide(int groupId, MemorySegment region, int bufLen, int count, int firstBid) {
        group(groupId, true).append(region, bufLen, count, firstBid);
    }

    /**
     * Removes up to {@code count} buffers: how many (0 from a group emptied earlier: groups
     * stay once provided, as in Linux 6.x), or -ENOENT for a group never provided.
     */
    public int remove(int groupId, int count) {
        Group g = group(groupId, false);
        if (g == null) {
            return -Errno.ENOENT;
        }
        return g.removeFirst(count);
    }

    /**
     * Gives {@code req} the group's first buffer ({@code req.selectedBid/Address/Length},
     * the length capped at {@code wanted} when positive). 0, or -ENOBUFS if the group is
     * empty, -EFAULT if the buffer's memory is gone.
     */
    public int select(Request req, int groupId, int wanted) {
        Group g = group(groupId, false);
        if (g == null || g.size == 0) {
            return -Errno.ENOBUFS;
        }
        return g.takeFirst(req, wanted);
    }

    /** A selected buffer the request did not use goes back to the head of its group. */
    void recycle(Request req) {
        if (req.selectedBid < 0) {
            return;
        }
        group(req.bufGroup, true).pushFirst(req);
        req.selectedBid = -1;
        req.selectedEarly = false;
    }

    /**
     * The request is about to wait for readiness: a receive that has nothing in its buffer
     * gives it back (io_recv's io_kbuf_recycle on EAGAIN); a read keeps it.
     */
    void beforeArm(Request req) {
        if (req.selectedBid >= 0 && req.opcode == io.jring.Opcode.RECV && req.done == 0) {
            recycle(req);
        }
    }

    /**
     * The request goes to io-wq holding a buffer it has not put data in: Linux has none
     * selected then (it recycles before the punt, or selects in the worker), so until a
     * worker issues it, a cancel gives the buffer back ({@link Request#selectedEarly}).
     */
    void beforePunt(Request req) {
        if (req.selectedBid >= 0 && req.done == 0) {
            req.selectedEarly = true;
        }
    }

    /**
     * At completion, with the result to post: the buffer goes to the application with the
     * CQE (the returned flags say which), except a receive's that got nothing (EOF, an error,
     * a cancel before any data) and one the op never used ({@link Request#selectedEarly}),
     * which go back to the group.
     */
    int complete(Request req, int res) {
        if (req.selectedBid < 0) {
            return 0;
        }
        if (req.selectedEarly || (res <= 0 && req.opcode == io.jring.Opcode.RECV)) {
            recycle(req);
            return 0;
        }
        int flags = CqeFlags.BUFFER | (req.selectedBid << 16);
        req.selectedBid = -1;
        return flags;
    }

    private Group group(int id, boolean create) {
        if (id < 0 || id >= MAX_GROUPS) {
            return null;
        }
        if (id >= groups.length) {
            if (!create) {
                return null;
            }
            groups = Arrays.copyOf(groups, Math.max(id + 1, groups.length * 2));
        }
        Group g = groups[id];
        if (g == null && create) {
            g = new Group();
            groups[id] = g;
        }
        return g;
    }

    /** One group: a deque of buffers (address, length, id, owning region) in a circular array. */
    private static final class Group {
        private long[] addresses = new long[16];
        private int[] lengths = new int[16];
        private int[] bids = new int[16];
        private MemorySegment[] regions = new MemorySegment[16];
        private int head;
        private int size;

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
}
