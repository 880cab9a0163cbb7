package io.jring.core;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Opcode;
import io.jring.Timeout;

/**
 * TIMEOUT, TIMEOUT_REMOVE and LINK_TIMEOUT (the kernel's timeout.c). A TIMEOUT completes
 * with -ETIME when its timer expires, or with 0 once {@code count} CQEs were posted after it
 * was issued (count 0: a pure timer). With {@code Timeout.MULTISHOT} it fires every interval
 * instead, posting -ETIME with MORE and re-arming, {@code count} times (0: until removed),
 * the last CQE without MORE; with {@code Timeout.ETIME_SUCCESS} its -ETIME is no failure
 * (a chain after it goes on). TIMEOUT_REMOVE with {@code Timeout.UPDATE} moves a TIMEOUT's
 * expiry (it stops counting CQEs, as Linux's), with {@code Timeout.LINK_TIMEOUT_UPDATE} too
 * an armed LINK_TIMEOUT's. The CQE count is Linux's: every CQE posted, except
 * those of timeouts that expired. A LINK_TIMEOUT guards the request before it in a chain:
 * its timer starts when that request is issued; on expiry the request is cancelled and the
 * timeout completes -ETIME (or with the cancel's error), and if the request completes first
 * the timeout completes -ECANCELED.
 *
 * <p>Posting right only, except the timers' heap ({@link Timers}, locked).
 */
final class Timeouts {
    /** Task work of a request whose timer expired. */
    static final TaskWorkFunc FIRED = (req, cancel) -> req.ring.timeouts.fired(req, cancel);

    private final RingContext ring;
    /** TIMEOUT requests alive (armed, or fired and queued), oldest first. */
    private Request head;
    private Request tail;
    /** CQEs posted that count for TIMEOUT's count. */
    private long seq;
    /** Alive TIMEOUTs with a count: only then does a post look at the list. */
    private int counting;
    /** {@link #seq} when the current submit call began, or -1 outside one. */
    private long batchBase = -1;

    Timeouts(RingContext ring) {
        this.ring = ring;
    }

    /**
     * Issue of a TIMEOUT: {@code nanos} (relative, or absolute with {@link Timeout#ABS}),
     * {@code count} CQEs (with {@link Timeout#MULTISHOT}: the number of expiries, kept in
     * {@code req.off}).
     */
    void arm(Request req, long nanos, int count, int flags) {
        append(req);
        boolean counts = count != 0 && (flags & Timeout.MULTISHOT) == 0;
        long base = batchBase >= 0 ? batchBase : seq;
        req.targetSeq = counts ? base + (count & 0xFFFFFFFFL) : -1;
        if (counts) {
            counting++;
        }
        ring.timers().arm(req, Timers.deadlineOf(nanos, flags));
    }

    /** A chain's request was issued: start the timer of the LINK_TIMEOUT that guards it. */
    void armLink(Request lt) {
        ring.timers().arm(lt, Timers.deadlineOf(lt.addr2, lt.opFlags));
    }

    /**
     * TIMEOUT_REMOVE with {@link Timeout#UPDATE}: the TIMEOUT with {@code userData} expires
     * at {@code nanos} ({@link Timeout#ABS} in {@code flags}: absolute, on that timeout's own
     * clock) and no longer counts CQEs. 0, -ENOENT, or -EALREADY if it is expiring.
     */
    int update(long userData, long nanos, int flags) {
        Request r = find(userData);
        int res = extract(r);
        if (res == 0) {
            append(r);   // Linux re-adds it at the tail
            ring.timers().arm(r, Timers.updatedDeadline(r, nanos, flags));
        }
        return res;
    }

    /** TIMEOUT_REMOVE with {@link Timeout#LINK_TIMEOUT_UPDATE}: see {@link Timers#rearmLinkTimeout}. */
    int updateLink(long userData, long nanos, int flags) {
        return ring.timers().rearmLinkTimeout(userData, nanos, flags);
    }

    /** Every posted CQE: counts it, and completes TIMEOUTs whose count is reached. */
    void posted() {
        seq++;
        if (counting > 0) {
            completeCounted();
        }
    }

    private void completeCounted() {
        if (batchBase >= 0) {
            return;   // the batch's CQEs are "not flushed" yet: endBatch checks
        }
        boolean again = true;
        while (again) {
            again = false;
            for (Request r = head; r != null; r = r.timeoutNext) {
                if (r.targetSeq >= 0 && seq >= r.targetSeq && ring.timers().cancel(r)) {
                    remove(r);
                    ring.poster.postAndFree(r, 0, 0);   // posts: may reach further counts
                    again = true;
                    break;
                }
            }
        }
    }

    /** TIMEOUT_REMOVE: 0 (the timeout completes -ECANCELED), -ENOENT, or -EALREADY if it is expiring. */
    int remove(long userData) {
        Request r = find(userData);
        int res = extract(r);
        if (res == 0) {
            completeCancelled(r);
        }
        return res;
    }

    /** The alive TIMEOUT with {@code userData}, oldest first, or null. */
    private Request find(long userData) {
        for (Request r = head; r != null; r = r.timeoutNext) {
            if (r.userData == userData) {
                return r;
            }
        }
        return null;
    }

    /**
     * Linux's io_timeout_extract: {@code r} (from {@link #find}) off its timer and this list.
     * 0, -ENOENT if there is none, -EALREADY if its timer fired (it is expiring).
     */
    private int extract(Request r) {
        if (r == null) {
            return -Errno.ENOENT;
        }
        if (!ring.timers().cancel(r)) {
            return -Errno.EALREADY;
        }
        remove(r);
        return 0;
    }

    /**
     * ASYNC_CANCEL: cancels alive TIMEOUTs that {@code match} (the first, or all); returns
     * how many it cancelled.
     */
    int cancel(java.util.function.Predicate<Request> match, boolean all) {
        return cancel(match, all, true);
    }

    private int cancel(java.util.function.Predicate<Request> match, boolean all, boolean viaTaskWork) {
        int n = 0;
        for (Request r = head; r != null; ) {
            Request next = r.timeoutNext;
            if (match.test(r) && ring.timers().cancel(r)) {
                remove(r);
                if (viaTaskWork) {
                    completeCancelled(r);
                } else {
                    ring.poster.postAndFree(r, -Errno.ECANCELED, 0);
                }
                n++;
                if (!all) {
                    return n;
                }
            }
            r = next;
        }
        return n;
    }

    /** close(): every armed TIMEOUT completes -ECANCELED, at once (close drops the CQEs anyway). */
    void cancelAll() {
        cancel(r -> true, true, false);
    }

    /**
     * A removed or cancelled TIMEOUT completes -ECANCELED through its task's task work, as
     * Linux's io_req_task_queue_fail: the CQE of the TIMEOUT_REMOVE or ASYNC_CANCEL that
     * removed it comes first (checked on 6.18 with liburing).
     */
    private void completeCancelled(Request r) {
        ring.issuer.completeInTask(r, -Errno.ECANCELED, 0, RingContext.COMPLETE, false, false);
    }

    /** Task work: a timer expired. */
    private void fired(Request req, boolean cancel) {
        if (req.opcode == Opcode.LINK_TIMEOUT) {
            linkFired(req, cancel);
            return;
        }
        // An expiry posts -ETIME even when the owner is gone (Linux's io_timeout_complete does not look at cancel).
        boolean cancelled = ring.isClosing();
        if (!cancelled && (req.opFlags & Timeout.MULTISHOT) != 0 && !lastExpiry(req)) {
            seq--;   // an expired timeout's CQE does not count (Linux's cq_timeouts)
            ring.poster.post(req.userData, -Errno.ETIME, CqeFlags.MORE);
            ring.timers().arm(req, Timers.deadlineOf(req.addr2, 0));
            return;
        }
        remove(req);
        if (cancelled) {
            ring.poster.postAndFree(req, -Errno.ECANCELED, 0);
            return;
        }
        seq--;
        if ((req.opFlags & Timeout.ETIME_SUCCESS) != 0) {
            ring.poster.postAndFreeSucceeded(req, -Errno.ETIME);
        } else {
            ring.poster.postAndFree(req, -Errno.ETIME, 0);
        }
    }

    /**
     * A MULTISHOT timeout expired: true if that was its last expiry (Linux's
     * io_timeout_finish: a count of 0 repeats until removed); counts the expiry down.
     */
    private static boolean lastExpiry(Request req) {
        if (req.off == 0) {
            return false;
        }
        return --req.off == 0;
    }

    /**
     * A LINK_TIMEOUT expired. Its result (-ETIME, or the cancel's error) is not a failure in
     * Linux's eyes, so its own CQE_SKIP_SUCCESS holds.
     */
    private void linkFired(Request lt, boolean cancel) {
        boolean skip = (lt.flags & io.jring.SqeFlags.CQE_SKIP_SUCCESS) != 0;
        Request target = lt.timeoutTarget;
        if (target == null) {
            ring.poster.finishQuietly(lt, -Errno.ETIME, skip);   // the target completed meanwhile
            return;
        }
        lt.timeoutTarget = null;
        target.markSideState(Request.SIDE_LINK);
        target.link = lt.link;   // the chain goes on (or fails) from the target
        lt.link = null;
        int r = cancel ? -Errno.ECANCELED : ring.cancelRequest(target);
        ring.poster.finishQuietly(lt, r == 0 ? -Errno.ETIME : r, skip);
    }

    /**
     * A submit call begins: like Linux, whose completions of a submit batch reach the CQ
     * only when the batch is flushed, a TIMEOUT issued in the batch counts from the CQ as it
     * was when the batch began.
     */
    void beginBatch() {
        batchBase = seq;
    }

    /** The submit call ended: TIMEOUTs whose count the batch reached complete now. */
    void endBatch() {
        batchBase = -1;
        if (counting > 0) {
            completeCounted();
        }
    }

    private void append(Request r) {
        r.markSideState(Request.SIDE_TIMEOUT);
        r.timeoutNext = null;
        r.timeoutPrev = tail;
        if (tail == null) {
            head = r;
        } else {
            tail.timeoutNext = r;
        }
        tail = r;
    }

    private void remove(Request r) {
        if (r.timeoutPrev == null && head != r) {
            return;   // not in the list
        }
        if (r.targetSeq >= 0) {
            counting--;
            r.targetSeq = -1;
        }
        if (r.timeoutPrev == null) {
            head = r.timeoutNext;
        } else {
            r.timeoutPrev.timeoutNext = r.timeoutNext;
        }
        if (r.timeoutNext == null) {
            tail = r.timeoutPrev;
        } else {
            r.timeoutNext.timeoutPrev = r.timeoutPrev;
        }
        r.timeoutNext = null;
        r.timeoutPrev = null;
    }
}
