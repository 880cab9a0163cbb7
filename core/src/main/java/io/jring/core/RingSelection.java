package io.jring.core;

import io.jring.CqeFlags;
import io.jring.Errno;

/**
 * A request's selection from a ring-mapped buffer group (Linux's REQ_F_BUFFER_RING state,
 * kbuf.c io_ring_buffer_select, io_ring_buffers_peek, io_kbuf_commit, io_kbuf_recycle_ring,
 * __io_put_kbufs): which buffers it took ({@link Request#selectedBid} and, for a bundle,
 * {@link Request#bundle}), whether the ring's head still waits for it to be committed, and
 * what its CQE says. Posting right only, like the groups.
 */
final class RingSelection {
    private RingSelection() {}

    /** The ring's head buffer for {@code req}, not committed yet: 0, -ENOBUFS, -EFAULT. */
    static int selectOne(Request req, BufRingGroup r, int wanted) {
        if (!r.usable()) {
            return -Errno.EFAULT;
        }
        int head = r.head;
        int tail = r.tail();
        if (tail == head) {
            return -Errno.ENOBUFS;
        }
        int len = r.lenAt(head);
        take(req, r, head, r.bidAt(head));
        req.selectedAddress = r.addrAt(head);
        req.selectedLength = wanted == 0 || wanted > len ? len : wanted;
        if (((head + 1) & 0xFFFF) == tail) {
            req.ringSel |= ProvidedBuffers.SEL_EMPTY;
        }
        return 0;
    }

    private static void take(Request req, BufRingGroup r, int head, int bid) {
        req.markSideState(Request.SIDE_BUFFER);
        req.selectedRing = r;
        req.selectedHead = head;
        req.selectedBid = bid;
        req.ringSel = ProvidedBuffers.SEL_COMMIT;
    }

    /**
     * Maps a bundle's buffers from the head (Linux's io_ring_buffers_peek): with
     * {@code maxLen} as many as hold that many bytes (at most PEEK_MAX_IMPORT), a last one
     * that would pass it cut to fit if it is the first (its entry's length rewritten, as
     * Linux does) or left out otherwise (a partial map); without, as many whole buffers as
     * the request's last bundle mapped, at first one. {@link ProvidedBuffers#SEL_EMPTY} when
     * the walk reached the tail. Without {@code expand} (a send that is no bundle) one
     * buffer. Returns the count or -ENOBUFS.
     */
    static int selectBundle(Request req, BufRingGroup r, BufferBundle b, long maxLen, boolean expand) {
        if (!r.usable()) {
            return -Errno.EFAULT;
        }
        int head = r.head;
        int tail = r.tail();
        int avail = Math.min((tail - head) & 0xFFFF, BufRingGroup.UIO_MAXIOV);
        if (avail == 0) {
            return -Errno.ENOBUFS;
        }
        if (maxLen > 0) {
            int first = r.lenAt(head);
            if (first == 0) {
                return -Errno.ENOBUFS;
            }
            long needed = Math.min((maxLen + first - 1) / first, BufRingGroup.PEEK_MAX_IMPORT);
            avail = (int) Math.min(avail, needed);
        }
        int vec = expand ? b.vec : 1;
        boolean grown = expand && maxLen > 0 && avail > vec;
        int n = grown ? avail : Math.min(vec, avail);
        long left = maxLen > 0 ? maxLen : Integer.MAX_VALUE;
        b.clear();
        int at = head;
        take(req, r, head, r.bidAt(head));
        for (;;) {
            int len = r.lenAt(at);
            if (len > left) {
                len = (int) left;
                if (!r.incremental) {
                    b.partialMap = true;
                    if (b.count() > 0) {
                        break;
                    }
                    r.setLenAt(at, len);
                }
            }
            b.add(r.addrAt(at), len);
            left -= len;
            if (left == 0) {
                break;
            }
            at = (at + 1) & 0xFFFF;
            if (--n == 0) {
                break;
            }
        }
        if (grown) {
            b.vec = b.count();   // Linux keeps the larger iovec array for the request's later bundles
        }
        req.ringSel |= ProvidedBuffers.SEL_BUNDLE | (at == tail ? ProvidedBuffers.SEL_EMPTY : 0);
        req.selectedAddress = r.addrAt(head);
        req.selectedLength = (int) Math.min(b.total(), Integer.MAX_VALUE);
        return b.count();
    }

    /** Commits the selection now ({@code len} bytes used, for an incremental ring). */
    static void commitNow(Request req, int len) {
        int sel = req.ringSel;
        if ((sel & ProvidedBuffers.SEL_COMMIT) == 0) {
            return;
        }
        int nr = (sel & ProvidedBuffers.SEL_BUNDLE) != 0 ? req.bundle.count() : 1;
        boolean full = req.selectedRing.commit(len, nr);
        req.ringSel = (sel & ~ProvidedBuffers.SEL_COMMIT) | (full ? 0 : ProvidedBuffers.SEL_BUF_MORE);
    }

    /**
     * An unused selection goes back: one not committed simply lets go (the head never moved);
     * one committed early for io-wq that no worker used is undone while it is still the last
     * commit (the head right after it, a whole buffer); otherwise it stays consumed, and its
     * CQE reports it.
     */
    static void giveBack(Request req) {
        int sel = req.ringSel;
        if ((sel & ProvidedBuffers.SEL_COMMIT) == 0) {
            BufRingGroup r = req.selectedRing;
            boolean undo = req.selectedEarly && !r.incremental && (sel & ProvidedBuffers.SEL_BUNDLE) == 0
                    && r.head == ((req.selectedHead + 1) & 0xFFFF);
            if (!undo) {
                return;
            }
            r.head = req.selectedHead;
        }
        drop(req);
    }

    /**
     * The CQE flags of a completion with result {@code res}: a selection not committed is
     * committed by what it used, unless the request got nothing ({@code receives}: EOF or a
     * failure; else a failure), when it goes back and the CQE names no buffer.
     */
    static int complete(Request req, int res, boolean receives) {
        int sel = req.ringSel;
        if (req.selectedEarly) {
            giveBack(req);
            if (req.selectedBid < 0) {
                return 0;
            }
        }
        boolean full;
        if ((sel & ProvidedBuffers.SEL_COMMIT) != 0) {
            if (receives ? res <= 0 : res < 0) {
                drop(req);
                return 0;
            }
            int nr = (sel & ProvidedBuffers.SEL_BUNDLE) != 0 ? req.bundle.buffersUsed(res) : 1;
            full = req.selectedRing.commit(res, nr);
        } else {
            full = (sel & ProvidedBuffers.SEL_BUF_MORE) == 0;
        }
        int flags = CqeFlags.BUFFER | (req.selectedBid << CqeFlags.BUFFER_SHIFT) | (full ? 0 : CqeFlags.BUF_MORE);
        drop(req);
        return flags;
    }

    private static void drop(Request req) {
        req.selectedBid = -1;
        req.selectedRing = null;
        req.selectedEarly = false;
        req.ringSel = 0;
    }
}
