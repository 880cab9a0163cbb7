package io.jring.core;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Opcode;
import io.jring.SqeFlags;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A ring's provided-buffer groups (Linux's io_uring/kbuf.c): classic groups that
 * PROVIDE_BUFFERS fills ({@link ClassicBufferList}) and ring-mapped ones the application
 * registers and fills itself ({@link BufRingGroup}); one group id names one or the other,
 * never both (-EEXIST / -EINVAL as Linux). A {@code BUFFER_SELECT} request takes the first
 * buffer of its group (or, a bundle, several) through the same {@link #select} call whatever
 * the kind; the used buffer travels to the application with the CQE ({@code CqeFlags.BUFFER},
 * id in the upper 16 bits).
 *
 * <p>Who keeps a classic buffer follows Linux 6.18 (checked on the kernel): a RECV gives it
 * back before it waits and when it ends with nothing (EOF, an error, a cancel), unless data
 * is in it already (a MSG_WAITALL recv waiting for the rest: REQ_F_BL_NO_RECYCLE); a READ
 * keeps the buffer it took from its first attempt on, through its wait, and uses it up
 * whatever its result, -ECANCELED included. A ring buffer is consumed when it is committed:
 * at completion, by what the transfer used, for a pollable file (a receive that got nothing,
 * a read that failed or must wait consumes nothing); at selection for anything else, for
 * io-wq and for a send (kbuf.c io_should_commit, io_buffers_select). Posting right only:
 * plain fields.
 */
public final class ProvidedBuffers {
    private static final int MAX_GROUPS = 1 << 16;
    /** IOU_PBUF_RING_MMAP and IOU_PBUF_RING_INC. */
    public static final int RING_MMAP = 1;
    public static final int RING_INC = 2;
    /** IORING_RECVSEND_BUNDLE, in a SEND's ioprio. */
    private static final int BUNDLE = 1 << 4;
    /** Linux's IORING_OP_RECVMSG, which gives back an unused buffer as RECV does. */
    private static final int RECVMSG = 10;

    // Request.ringSel bits (SEL_EMPTY for classic selections too).
    /** The ring's head still points at the selection (Linux's REQ_F_BUFFERS_COMMIT). */
    static final int SEL_COMMIT = 1;
    /** An early commit left the buffer partly unconsumed (Linux's REQ_F_BUF_MORE). */
    static final int SEL_BUF_MORE = 2;
    /** The selection took the group's last buffer (Linux's REQ_F_BL_EMPTY; classic groups too). */
    public static final int SEL_EMPTY = 4;
    /** The selection is a bundle: its buffers are in {@link Request#bundle}. */
    public static final int SEL_BUNDLE = 8;

    private ClassicBufferList[] groups = new ClassicBufferList[8];
    private BufRingGroup[] rings = new BufRingGroup[8];

    // ---------------------------------------------------------------- classic groups

    /**
     * PROVIDE_BUFFERS: appends {@code count} buffers of {@code bufLen} bytes cut from
     * {@code region}, ids from {@code firstBid}. 0, or -EINVAL on a ring-mapped group.
     */
    public int provide(int groupId, MemorySegment region, int bufLen, int count, int firstBid) {
        if (ring(groupId) != null) {
            return -Errno.EINVAL;
        }
        group(groupId, true).append(region, bufLen, count, firstBid);
        return 0;
    }

    /**
     * Removes up to {@code count} buffers: how many (0 from a group emptied earlier: groups
     * stay once provided, as in Linux 6.x), -ENOENT for a group never provided, -EINVAL for
     * a ring-mapped group.
     */
    public int remove(int groupId, int count) {
        if (ring(groupId) != null) {
            return -Errno.EINVAL;
        }
        ClassicBufferList g = group(groupId, false);
        if (g == null) {
            return -Errno.ENOENT;
        }
        return g.removeFirst(count);
    }

    // ---------------------------------------------------------------- ring-mapped groups

    /**
     * IORING_REGISTER_PBUF_RING: group {@code bgid} becomes a buffer ring over {@code memory}
     * (or memory of jring's with {@link #RING_MMAP}). 0, or -errno as Linux: EINVAL for bad
     * flags or sizes, EEXIST if the group is a ring or holds classic buffers (an emptied
     * classic group is replaced), EFAULT for memory that is not there.
     */
    public int registerRing(MemorySegment memory, int entries, int bgid, int flags) {
        boolean mmap = (flags & RING_MMAP) != 0;
        int bad = BufRingGroup.checkRegistration(memory, entries, flags, RING_MMAP | RING_INC, mmap);
        if (bad != 0) {
            return bad;
        }
        if (bgid < 0 || bgid >= MAX_GROUPS) {
            return -Errno.EINVAL;
        }
        ClassicBufferList classic = group(bgid, false);
        if (ring(bgid) != null || (classic != null && classic.size > 0)) {
            return -Errno.EEXIST;
        }
        if (classic != null) {
            groups[bgid] = null;
        }
        boolean inc = (flags & RING_INC) != 0;
        BufRingGroup r = mmap ? BufRingGroup.allocate(bgid, entries, inc)
                : new BufRingGroup(bgid, memory, entries, inc, null);
        if (bgid >= rings.length) {
            rings = Arrays.copyOf(rings, Math.max(bgid + 1, rings.length * 2));
        }
        rings[bgid] = r;
        return 0;
    }

    /** IORING_UNREGISTER_PBUF_RING: 0, -ENOENT for no such group, -EINVAL for a classic one. */
    public int unregisterRing(int bgid) {
        BufRingGroup r = ring(bgid);
        if (r == null) {
            return group(bgid, false) != null ? -Errno.EINVAL : -Errno.ENOENT;
        }
        rings[bgid] = null;
        r.release();
        return 0;
    }

    /** IORING_REGISTER_PBUF_STATUS: the ring's head, -ENOENT for no such group, -EINVAL for a classic one. */
    public int ringHead(int bgid) {
        BufRingGroup r = ring(bgid);
        if (r == null) {
            return group(bgid, false) != null ? -Errno.EINVAL : -Errno.ENOENT;
        }
        return r.head;
    }

    /** The memory of ring {@code bgid} (the registered segment, or jring's for RING_MMAP), or null. */
    public MemorySegment ringMemory(int bgid) {
        BufRingGroup r = ring(bgid);
        return r == null ? null : r.memory();
    }

    /** The ring closed: ring memory of jring's is freed. */
    void release() {
        for (int i = 0; i < rings.length; i++) {
            if (rings[i] != null) {
                rings[i].release();
                rings[i] = null;
            }
        }
    }

    private BufRingGroup ring(int id) {
        return id >= 0 && id < rings.length ? rings[id] : null;
    }

    // ---------------------------------------------------------------- selection

    /** {@link #select(Request, int, int, boolean)} for a pollable file (a socket). */
    public int select(Request req, int groupId, int wanted) {
        return select(req, groupId, wanted, true);
    }

    /**
     * Gives {@code req} the group's first buffer ({@code req.selectedBid/Address/Length},
     * the length capped at {@code wanted} when positive). 0, or -ENOBUFS if the group is
     * empty, -EFAULT if the buffer's memory is gone. A ring buffer is committed at once
     * unless the file is {@code pollable} (then at completion).
     */
    public int select(Request req, int groupId, int wanted, boolean pollable) {
        BufRingGroup r = ring(groupId);
        if (r != null) {
            int res = RingSelection.selectOne(req, r, wanted);
            if (res == 0 && !pollable) {
                RingSelection.commitNow(req, req.selectedLength);
            }
            return res;
        }
        ClassicBufferList g = group(groupId, false);
        if (g == null || g.size == 0) {
            return -Errno.ENOBUFS;
        }
        return g.takeFirst(req, wanted);
    }

    /**
     * Buffers for a {@code bundle} (IORING_RECVSEND_BUNDLE) or a send into
     * {@code req.bundle} (Linux's io_buffers_select and io_buffers_peek): from a ring, as many
     * as {@code maxLen} bytes take (0: up to as many as the request's last bundle mapped, at
     * first one; one only when no bundle), committed at once for a {@code send}; from a
     * classic group, its first buffer (a send's whole, whatever {@code maxLen}). Returns how
     * many, or -ENOBUFS (empty), -ENOENT (no such group).
     */
    public int selectBuffers(Request req, int groupId, long maxLen, boolean send, boolean bundle) {
        BufferBundle b = bundleOf(req);
        BufRingGroup r = ring(groupId);
        if (r != null) {
            int n = RingSelection.selectBundle(req, r, b, maxLen, bundle);
            if (n > 0 && send) {
                RingSelection.commitNow(req, (int) Math.min(b.total(), Integer.MAX_VALUE));
            }
            return n;
        }
        ClassicBufferList g = group(groupId, false);
        if (g == null) {
            return -Errno.ENOENT;
        }
        if (g.size == 0) {
            return -Errno.ENOBUFS;
        }
        int res = g.takeFirst(req, send ? 0 : (int) Math.min(maxLen, Integer.MAX_VALUE));
        if (res != 0) {
            return res;
        }
        b.clear();
        b.add(req.selectedAddress, req.selectedLength);
        return 1;
    }

    /** The request's bundle state, made on its first bundle and kept with the pooled request. */
    public static BufferBundle bundleOf(Request req) {
        BufferBundle b = req.bundle;
        if (b == null) {
            b = new BufferBundle();
            req.bundle = b;
        }
        return b;
    }

    /** True if {@code groupId} is a ring-mapped group. */
    public boolean isRing(int groupId) {
        return ring(groupId) != null;
    }

    // ---------------------------------------------------------------- ownership

    /**
     * A selected buffer the request did not use goes back (classic: to the head of its
     * group; ring: the head never moved). A ring buffer committed already stays selected.
     */
    public void recycle(Request req) {
        if (req.selectedBid < 0) {
            return;
        }
        if (req.selectedRing != null) {
            RingSelection.giveBack(req);
            return;
        }
        group(req.bufGroup, true).pushFirst(req);
        req.selectedBid = -1;
        req.selectedEarly = false;
    }

    /**
     * The request is about to wait for readiness: a receive that has nothing in its buffer
     * gives it back (io_recv's io_kbuf_recycle on EAGAIN); a classic read keeps it. A ring
     * buffer not committed yet goes back (nothing consumed), unless a partial transfer is in
     * it: then what it holds is committed and it stays (io_net_kbuf_recyle).
     */
    void beforeArm(Request req) {
        if (req.selectedBid < 0) {
            return;
        }
        if (req.selectedRing != null) {
            if ((req.ringSel & SEL_COMMIT) != 0) {
                if (req.done > 0) {
                    RingSelection.commitNow(req, (int) req.done);
                } else {
                    RingSelection.giveBack(req);
                }
            }
            return;
        }
        if (receives(req) && req.done == 0) {
            recycle(req);
        }
    }

    /**
     * The request goes to io-wq, whose workers may not touch the groups: a BUFFER_SELECT
     * request that has none selects now, as Linux's worker would, which commits a ring
     * buffer at once; until a worker issues it, a cancel gives the buffer back
     * ({@link Request#selectedEarly}). A ring buffer selected inline is committed now.
     */
    void forPunt(Request req) {
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0 && req.selectedBid < 0) {
            if (req.opcode == Opcode.SEND) {
                selectBuffers(req, req.bufGroup, req.len > 0 ? req.len : Integer.MAX_VALUE, true,
                        (req.ioprio & BUNDLE) != 0);
            } else {
                select(req, req.bufGroup, req.len, false);
            }
            if (req.selectedBid >= 0 && req.done == 0) {
                req.selectedEarly = true;
            }
            return;
        }
        if (req.selectedBid < 0) {
            return;
        }
        if (req.selectedRing != null) {
            if ((req.ringSel & SEL_COMMIT) != 0) {
                RingSelection.commitNow(req, req.done > 0 ? (int) req.done : req.selectedLength);
            }
            return;
        }
        if (req.done == 0) {
            req.selectedEarly = true;
        }
    }

    /**
     * Commits what a partial transfer put in the selection and keeps it for the rest
     * (Linux's io_net_kbuf_recyle, a MSG_WAITALL receive going on).
     */
    public void commitPartial(Request req, int len) {
        if (req.selectedRing != null && (req.ringSel & SEL_COMMIT) != 0) {
            RingSelection.commitNow(req, len);
        }
    }

    /**
     * At completion, with the result to post: the buffer goes to the application with the
     * CQE (the returned flags say which, with {@code CqeFlags.BUF_MORE} when a ring buffer
     * was only partly consumed), except a receive's that got nothing (EOF, an error, a
     * cancel before any data), a ring buffer not committed whose request failed, and one the
     * op never used ({@link Request#selectedEarly}), which go back.
     */
    public int complete(Request req, int res) {
        if (req.selectedBid < 0) {
            return 0;
        }
        if (req.selectedRing != null) {
            return RingSelection.complete(req, res, receives(req));
        }
        if (req.selectedEarly || (res <= 0 && receives(req))) {
            recycle(req);
            return 0;
        }
        int flags = CqeFlags.BUFFER | (req.selectedBid << CqeFlags.BUFFER_SHIFT);
        req.selectedBid = -1;
        req.ringSel = 0;
        return flags;
    }

    private static boolean receives(Request req) {
        return req.opcode == Opcode.RECV || req.opcode == RECVMSG;
    }

    private ClassicBufferList group(int id, boolean create) {
        if (id < 0 || id >= MAX_GROUPS) {
            return null;
        }
        if (id >= groups.length) {
            if (!create) {
                return null;
            }
            groups = Arrays.copyOf(groups, Math.max(id + 1, groups.length * 2));
        }
        ClassicBufferList g = groups[id];
        if (g == null && create) {
            g = new ClassicBufferList();
            groups[id] = g;
        }
        return g;
    }
}
