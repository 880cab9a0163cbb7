package io.jring.core;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Opcode;
import io.jring.Timeout;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * TIMEOUT, TIMEOUT_REMOVE and LINK_TIMEOUT (the kernel's timeout.c). A TIMEOUT completes
 * with -ETIME when its timer expires, or with 0 once {@code count} CQEs were posted after it
 * was issued (count 0: a pure timer). With {@code Timeout.MULTISHOT} it fires every interval
 * instead, posting -ETIME with MORE and re-arming, {@code count} times (0: until removed),
 * the last CQE without MORE; with {@code Timeout.ETIME_SUCCESS} its -ETIME is no failure
 * (a chain after it goes on). TIMEOUT_REMOVE with {@code Timeout.UPDATE} moves a TIMEOUT's
 * expiry (it stops counting CQEs, as Linux's), with {@code Timeout.LINK_TIMEOUT_UPDATE} too
 * an armed LINK_TIMEOUT's. A LINK_TIMEOUT guards the request before it in a chain: its timer
 * starts when that request is issued; on expiry the request is cancelled and the timeout
 * completes -ETIME (or with the cancel's error), and if the request completes first the
 * timeout completes -ECANCELED.
 *
 * <p>The count is Linux's (io_flush_timeouts): the CQ tail minus {@link #cqTimeouts}, the
 * TIMEOUTs that expired (counted when the timer fires) or completed by their count (when
 * that is found). So no TIMEOUT's -ETIME or count completion counts, while a removed
 * TIMEOUT's -ECANCELED, TIMEOUT_REMOVE's CQE and every LINK_TIMEOUT CQE do. Counts are
 * checked when a batch of completions is flushed (the end of a submit call or of a task-work
 * run), against the value of the last check, in u32 arithmetic: a TIMEOUT completion whose
 * CQE is skipped leaves the count one below that value, which reads as "reached" for every
 * counting TIMEOUT, as on Linux 6.18. TIMEOUTs completed by their count post through task
 * work, in the order of their targets.
 *
 * <p>Posting right only, except {@link #cqTimeouts} and the timers' heap ({@link Timers}, locked).
 */
public final class Timeouts {
    /** Task work of a request whose timer expired. */
    static final TaskWorkFunc FIRED = (req, cancel) -> req.ring.timeouts.fired(req, cancel);

    private static final VarHandle CQ_TIMEOUTS;

    static {
        try {
            CQ_TIMEOUTS = MethodHandles.lookup().findVarHandle(Timeouts.class, "cqTimeouts", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RingContext ring;
    /** The ring's timer thread and heap, for TIMEOUT and LINK_TIMEOUT (its own lock). */
    final Timers timers;
    /**
     * Linux's timeout_list: the TIMEOUTs alive (armed, or fired with their task work queued),
     * counting ones first by target (equal targets in arrival order), then the others in
     * arrival order.
     */
    private Request head;
    private Request tail;
    /** CQEs posted (Linux's cached_cq_tail, u32). */
    private int cqTail;
    /**
     * TIMEOUTs that expired or completed by their count (Linux's cq_timeouts, u32). Added to
     * by the timer thread at expiry (under the timers' lock, before it queues the task work)
     * and by the posting side, hence atomic adds ({@link #CQ_TIMEOUTS} getAndAdd); the
     * posting side reads it with getAcquire, so an expiry it learnt of (its task work ran,
     * or a cancel under the timers' lock found it fired) is counted.
     */
    @SuppressWarnings("unused")   // through CQ_TIMEOUTS only
    private int cqTimeouts;
    /** The count at the last check (Linux's cq_last_tm_flush). */
    private int lastFlush;
    /**
     * {@link #cqTail} at the last flush, and whether a CQE was skipped since: only a flush
     * that follows a completion checks counts, as Linux's.
     */
    private int flushedTail;
    private boolean skippedSinceFlush;
    /** Alive TIMEOUTs with a count: only then is the list checked. */
    private int counting;
    /** True inside a submit call; {@link #batchTail} is the CQ tail when it began. */
    private boolean inBatch;
    private int batchTail;

    Timeouts(RingContext ring) {
        this.ring = ring;
        this.timers = new Timers(ring);
    }

    /**
     * Issue of a TIMEOUT: {@code nanos} (relative, or absolute with {@link Timeout#ABS}),
     * {@code count} CQEs (with {@link Timeout#MULTISHOT}: the number of expiries, kept in
     * {@code req.off}).
     */
    public void arm(Request req, long nanos, int count, int flags) {
        req.markSideState(Request.SIDE_TIMEOUT);
        if (count == 0 || (flags & Timeout.MULTISHOT) != 0) {
            req.targetSeq = -1;
            append(req);
        } else {
            // Like Linux, whose completions of a submit batch reach the CQ when the batch is
            // flushed, a TIMEOUT issued in a batch counts from the CQ as it was when the batch began.
            int base = (inBatch ? batchTail : cqTail) - (int) CQ_TIMEOUTS.getAcquire(this);
            req.targetSeq = (base + count) & 0xFFFFFFFFL;
            lastFlush = base;
            insertCounting(req, count, base);
            counting++;
        }
        timers.arm(req, Timers.deadlineOf(nanos, flags));
    }

    /** LINK_TIMEOUT prep: it guards the chain member before it (-EINVAL if there is none). */
    public int attachLink(Request lt) {
        Request prev = ring.links.lastMember();
        if (prev == null || prev.opcode == Opcode.LINK_TIMEOUT) {
            return -Errno.EINVAL;
        }
        lt.markSideState(Request.SIDE_LINK);
        lt.timeoutTarget = prev;
        return 0;
    }

    /** A chain's request was issued: start the timer of the LINK_TIMEOUT that guards it. */
    void armLink(Request lt) {
        timers.arm(lt, Timers.deadlineOf(lt.addr2, lt.opFlags));
    }

    /** The timer thread, under the timers' lock: a TIMEOUT's timer fired (Linux's io_timeout_fn). */
    void expired() {
        CQ_TIMEOUTS.getAndAdd(this, 1);
    }

    /**
     * TIMEOUT_REMOVE (Linux's io_timeout_remove): removes the TIMEOUT with {@code userData},
     * or with {@code Timeout.UPDATE} moves its expiry (with LINK_TIMEOUT_UPDATE too: an armed
     * LINK_TIMEOUT's) to {@code nanos}. As in Linux, LINK_TIMEOUT_UPDATE without UPDATE is a
     * plain removal.
     */
    public int timeoutRemove(long userData, int flags, long nanos) {
        if ((flags & Timeout.UPDATE) == 0) {
            return remove(userData);
        }
        if ((flags & Timeout.LINK_TIMEOUT_UPDATE) != 0) {
            return updateLink(userData, nanos, flags);
        }
        return update(userData, nanos, flags);
    }

    /**
     * TIMEOUT_REMOVE with {@link Timeout#UPDATE}: the TIMEOUT with {@code userData} expires
     * at {@code nanos} ({@link Timeout#ABS} in {@code flags}: absolute, on that timeout's own
     * clock) and no longer counts CQEs. 0, or -ENOENT.
     */
    int update(long userData, long nanos, int flags) {
        Request r = extract(userData);
        if (r == null) {
            return -Errno.ENOENT;
        }
        append(r);   // Linux re-adds it at the tail, without a count
        timers.arm(r, Timers.updatedDeadline(r, nanos, flags));
        return 0;
    }

    /** TIMEOUT_REMOVE with {@link Timeout#LINK_TIMEOUT_UPDATE}: see {@link Timers#rearmLinkTimeout}. */
    int updateLink(long userData, long nanos, int flags) {
        return timers.rearmLinkTimeout(userData, nanos, flags);
    }

    /** Every posted CQE (Linux's cached_cq_tail++). */
    void posted() {
        cqTail++;
    }

    /** A completion whose CQE was skipped (CQE_SKIP_SUCCESS): it still makes the flush check counts. */
    void skipped() {
        skippedSinceFlush = true;
    }

    /** A submit call begins. */
    void beginBatch() {
        inBatch = true;
        batchTail = cqTail;
    }

    /** The submit call ended; its completions are flushed next. */
    void endBatch() {
        inBatch = false;
    }

    /**
     * Completions are flushed (Linux's io_commit_cqring_flush): if any came since the last
     * flush, the counting TIMEOUTs reached complete, in the order of their targets.
     */
    void flush() {
        int t = cqTail;
        if (t == flushedTail && !skippedSinceFlush) {
            return;
        }
        flushedTail = t;
        skippedSinceFlush = false;
        if (counting > 0) {
            checkCounts();
        }
    }

    private void checkCounts() {
        int seq = cqTail - (int) CQ_TIMEOUTS.getAcquire(this);
        int got = seq - lastFlush;
        for (Request r = head; r != null && r.targetSeq >= 0; ) {
            Request next = r.timeoutNext;
            if (Integer.compareUnsigned(got, (int) r.targetSeq - lastFlush) < 0) {
                break;
            }
            if (timers.cancel(r)) {   // else it fired: its task work posts -ETIME
                CQ_TIMEOUTS.getAndAdd(this, 1);
                remove(r);
                ring.issuer.completeInTask(r, 0, 0, CompletionPoster.COMPLETE, false, false);
            }
            r = next;
        }
        lastFlush = seq;
    }

    /** TIMEOUT_REMOVE: 0 (the timeout completes -ECANCELED), or -ENOENT. */
    int remove(long userData) {
        Request r = extract(userData);
        if (r == null) {
            return -Errno.ENOENT;
        }
        completeCancelled(r);
        return 0;
    }

    /**
     * Linux's io_timeout_extract: the oldest TIMEOUT with {@code userData} whose timer has
     * not fired (a fired one left Linux's list), off its timer and this list; or null.
     */
    private Request extract(long userData) {
        for (Request r = head; r != null; r = r.timeoutNext) {
            if (r.userData == userData && timers.cancel(r)) {
                remove(r);
                return r;
            }
        }
        return null;
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
            if (match.test(r) && timers.cancel(r)) {
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
        ring.issuer.completeInTask(r, -Errno.ECANCELED, 0, CompletionPoster.COMPLETE, false, false);
    }

    /** Task work: a timer expired (the timer thread counted it in {@link #cqTimeouts}). */
    private void fired(Request req, boolean cancel) {
        if (req.opcode == Opcode.LINK_TIMEOUT) {
            linkFired(req, cancel);
            return;
        }
        remove(req);
        // An expiry posts -ETIME even when the owner is gone (Linux's io_timeout_complete does not look at cancel).
        if (ring.isClosing()) {
            ring.poster.postAndFree(req, -Errno.ECANCELED, 0);
            return;
        }
        if ((req.opFlags & Timeout.MULTISHOT) != 0 && !lastExpiry(req)) {
            ring.poster.post(req.userData, -Errno.ETIME, CqeFlags.MORE);
            append(req);   // Linux re-adds it at the tail
            timers.arm(req, Timers.deadlineOf(req.addr2, 0));
            return;
        }
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
        int r = cancel ? -Errno.ECANCELED : ring.asyncCancel.cancelTarget(target);
        ring.poster.finishQuietly(lt, r == 0 ? -Errno.ETIME : r, skip);
    }

    /**
     * Linux's insertion sort of a counting TIMEOUT: after the last counting one whose target
     * is not beyond its own (u32 distances from {@code base}), else at the head.
     */
    private void insertCounting(Request r, int count, int base) {
        Request after = tail;
        while (after != null && (after.targetSeq < 0
                || Integer.compareUnsigned(count, (int) after.targetSeq - base) < 0)) {
            after = after.timeoutPrev;
        }
        r.timeoutPrev = after;
        r.timeoutNext = after == null ? head : after.timeoutNext;
        if (after == null) {
            head = r;
        } else {
            after.timeoutNext = r;
        }
        if (r.timeoutNext == null) {
            tail = r;
        } else {
            r.timeoutNext.timeoutPrev = r;
        }
    }

    private void append(Request r) {
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
