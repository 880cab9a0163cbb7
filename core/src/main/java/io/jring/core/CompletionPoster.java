package io.jring.core;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Opcode;
import io.jring.SqeFlags;
import io.jring.trace.CompleteEvent;
import io.jring.trace.CqeOverflowEvent;
import io.jring.trace.RareEvents;
import io.jring.trace.ReqFailedEvent;
import io.jring.trace.Tracing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The posting side of a ring's CQ (the kernel's {@code io_req_complete_post} and
 * {@code __io_submit_flush_completions}): fills CQEs, honours CQE_SKIP_SUCCESS, frees the
 * request, and publishes a batch at once with one tail store, waking a thread waiting on
 * the ring. Only the holder of the ring's posting right calls it.
 */
public final class CompletionPoster {
    /**
     * A finished request posts its result, also when its owner is gone ({@code cancel}): as
     * Linux's io_req_task_complete, which the fallback runs too, so what a request did (bytes
     * moved, a descriptor made) is never reported as -ECANCELED.
     */
    static final TaskWorkFunc COMPLETE = (req, cancel) -> {
        int res = req.ring.isClosing() ? -Errno.ECANCELED : req.res;
        if (res < 0 && res != -Errno.ECANCELED && req.def != null && req.def.errorIsResult(req, res)) {
            req.ring.poster.postAndFreeSucceeded(req, res);
        } else {
            req.ring.poster.postAndFree(req, res, req.cflags);
        }
    };

    private final RingContext ring;
    private final CompletionQueue cq;
    // The ring's parts every completion touches, held here to save a hop per CQE.
    private final RequestPool pool;
    private final Timeouts timeouts;
    private final DrainQueue drain;
    private final ReentrantLock cqLock;
    /**
     * Task-work runs for this ring and the items they ran, for {@link io.jring.RingStats}:
     * written at the end of each run by the posting right's holder (setOpaque, once per run),
     * read by stats readers with getOpaque.
     */
    private long taskRuns;
    private long taskItems;

    private static final VarHandle TASK_RUNS;
    private static final VarHandle TASK_ITEMS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TASK_RUNS = l.findVarHandle(CompletionPoster.class, "taskRuns", long.class);
            TASK_ITEMS = l.findVarHandle(CompletionPoster.class, "taskItems", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * {@link Tracing#complete} as read when the posting right was last taken
     * ({@link #refreshTracing}): one volatile read per batch, not per CQE. Posting right only
     * (plain); a recording started meanwhile is seen from the next batch on.
     */
    private boolean traceComplete = Tracing.complete;

    CompletionPoster(RingContext ring, CompletionQueue cq) {
        this.ring = ring;
        this.cq = cq;
        this.pool = ring.pool;
        this.timeouts = ring.timeouts;
        this.drain = ring.drain;
        this.cqLock = ring.cqLock;
    }

    /**
     * Posts the request's CQE (unless skipped) and frees it. A request without side state
     * (no buffer, link, failure mark) takes the short path, small enough to inline.
     */
    void postAndFree(Request req, int res, int cflags) {
        if (req.hasSideState()) {
            postAndFreeSide(req, res, cflags);
            return;
        }
        if (res < 0) {
            opFailed(req, res);
            post(req.userData, res, cflags);
        } else if ((req.flags & SqeFlags.CQE_SKIP_SUCCESS) == 0) {
            post(req.userData, res, cflags);
        } else {
            timeouts.skipped();
        }
        pool.releasePlain(req);
        if (drain.active()) {
            drain.flush();
        }
    }

    /**
     * A negative result that is no failure (a TIMEOUT's -ETIME with ETIME_SUCCESS): like a
     * success, CQE_SKIP_SUCCESS holds and a chain after it goes on.
     */
    void postAndFreeSucceeded(Request req, int res) {
        postAndFreeSide(req, res, 0, req.failed);
    }

    /** {@link #postAndFree} of a request with side state: its buffer, failure mark and chain. */
    private void postAndFreeSide(Request req, int res, int cflags) {
        postAndFreeSide(req, res, cflags, res < 0 || req.failed);
    }

    private void postAndFreeSide(Request req, int res, int cflags, boolean failed) {
        // A request that moved data before it failed (cancelled, timed out, interrupted)
        // reports what it moved, still as a failure: Linux's io_sendrecv_fail and io_rw_fail.
        int posted = res < 0 && req.done > 0 ? (int) req.done : res;
        if (req.selectedBid >= 0) {
            cflags |= ring.buffers.complete(req, posted);
        }
        if (res < 0 && failed) {
            opFailed(req, res);
        }
        if (req.hasNotif()) {
            postWithNotif(req, posted, cflags);
        } else if (failed || (req.flags & SqeFlags.CQE_SKIP_SUCCESS) == 0) {
            post(req.userData, posted, cflags);
        } else {
            timeouts.skipped();
        }
        Request next = req.link;
        if (next != null) {
            req.link = null;
            ring.links.completed(req, next, failed);
        }
        release(req);
    }

    /** A request that never ran (a cancelled chain member): its CQE unless skipped, then free. */
    void finishQuietly(Request req, int res, boolean skipCqe) {
        ring.buffers.recycle(req);
        if (req.hasNotif()) {
            postWithNotif(req, res, 0);
        } else if (!skipCqe) {
            post(req.userData, res, 0);
        } else {
            timeouts.skipped();
        }
        release(req);
    }

    private void release(Request req) {
        pool.release(req);
        if (drain.active()) {
            drain.flush();
        }
    }

    /**
     * Why the op about to fail {@link #reasonFor} failed, for its ReqFailed event (an issue
     * check such as O_DIRECT alignment). Posting right only, plain; used by the next
     * {@link #postAndFree} of that request.
     */
    private Request reasonFor;
    private String reason;

    /**
     * Posting right: the issuing op explains the error it is about to return for {@code req};
     * that failure is posted next, so only the failure paths consume the explanation.
     */
    public void explainFailure(Request req, String why) {
        reasonFor = req;
        reason = why;
    }

    private String takeReason(Request req) {
        String why = reasonFor == req ? reason : req.thrown;
        reasonFor = null;
        reason = null;
        req.thrown = null;
        return why;
    }

    /** A request that failed before it was issued. */
    void fail(Request req, int err, String reason) {
        ring.buffers.recycle(req);
        failedEvent(req, err, reason);
        if (req.hasNotif()) {
            postWithNotif(req, err, 0);
        } else {
            post(req.userData, err, 0);
        }
        release(req);
    }

    /**
     * A zero-copy send's two CQEs (Linux's io_send_zc and its notification): the result with
     * MORE, then the notification with NOTIF. Failures too once its prep made the notification
     * (io_sendrecv_fail adds MORE; the cleanup flushes the notification).
     */
    private void postWithNotif(Request req, int res, int cflags) {
        post(req.userData, res, cflags | CqeFlags.MORE);
        post(req.userData, req.notifRes, CqeFlags.NOTIF);
    }

    /** A request that ran completed with {@code err}: a ReqFailed event unless that was an expected outcome. */
    private void opFailed(Request req, int err) {
        String why = takeReason(req);
        if (Tracing.reqFailed && ReqFailedEvent.isFailure(req.opcode, err, req.flags, req.cancelRequested)) {
            failedEvent(req, err, why);
        }
    }

    /** A ReqFailed event (the caller decided it is a failure); built only if a recording takes it. */
    void failedEvent(Request req, int err, String reason) {
        if (!Tracing.reqFailed) {
            return;
        }
        ReqFailedEvent ev = new ReqFailedEvent();
        if (ev.shouldCommit()) {
            ev.ring = ring.id;
            ev.opcode = Opcode.name(req.opcode);
            ev.userData = req.userData;
            ev.errno = Errno.name(err);
            ev.reason = reason;
            ev.commit();
        }
    }

    /** Fills a CQE (published at the next flush); overflows in order when the CQ is full. */
    void post(long userData, int res, int cflags) {
        if (cqLock != null) {
            lockedPost(userData, res, cflags);
            return;
        }
        if (!cq.post(userData, res, cflags)) {
            overflowed(userData, res, cq.overflow.size() == 1);
        }
        if (traceComplete) {
            traceComplete(userData, res, cflags);
        }
        timeouts.posted();
    }

    /** Whoever takes the posting right: reads the completion tracing flag for this batch. */
    void refreshTracing() {
        traceComplete = Tracing.complete;
    }

    /** legacyMsgRing rings: senders post too, so every post and flush takes the CQ lock. */
    private void lockedPost(long userData, int res, int cflags) {
        boolean overflowed;
        boolean episodeStart;
        cqLock.lock();
        try {
            overflowed = !cq.post(userData, res, cflags);
            episodeStart = overflowed && cq.overflow.size() == 1;
        } finally {
            cqLock.unlock();
        }
        if (overflowed) {
            overflowed(userData, res, episodeStart);
        }
        timeouts.posted();
    }

    private void traceComplete(long userData, int res, int cflags) {
        CompleteEvent ev = new CompleteEvent();
        ev.ring = ring.id;
        ev.userData = userData;
        ev.res = res;
        ev.cflags = cflags;
        ev.commit();
    }

    /** A CQE went to the overflow list: logged if it starts an episode (the list was empty), traced always. */
    private void overflowed(long userData, int res, boolean episodeStart) {
        if (episodeStart) {
            RareEvents.cqOverflowStarted(ring.id, cq.entries());
        }
        traceOverflow(userData, res);
    }

    private void traceOverflow(long userData, int res) {
        if (!Tracing.cqeOverflow) {
            return;
        }
        CqeOverflowEvent ov = new CqeOverflowEvent();
        if (ov.shouldCommit()) {
            ov.ring = ring.id;
            ov.userData = userData;
            ov.res = res;
            ov.overflowLength = cq.overflow.size();
            ov.commit();
        }
    }

    /**
     * The end of a batch of completions (a submit call, a task-work run): counting TIMEOUTs
     * that were reached complete, then the CQEs are published.
     */
    void flush() {
        timeouts.flush();
        publish();
    }

    /**
     * Publishes posted CQEs and wakes a thread waiting on this ring if it is not us. Without
     * the posting right (a legacy MSG_RING sender under the CQ lock) only this.
     */
    void publish() {
        boolean published;
        if (cqLock != null) {
            cqLock.lock();
            try {
                published = cq.flush();
            } finally {
                cqLock.unlock();
            }
        } else {
            published = cq.flush();
        }
        if (published) {
            ring.cqWait.wakeIfOther();
        }
    }

    /** Posting right, at the end of a task-work run for this ring: counts it. */
    void countTaskRun(int items) {
        TASK_RUNS.setOpaque(this, taskRuns + 1);
        TASK_ITEMS.setOpaque(this, taskItems + items);
    }

    /** Any thread: task-work runs for this ring so far. */
    long taskRuns() {
        return (long) TASK_RUNS.getOpaque(this);
    }

    /** Any thread: task-work items run for this ring so far. */
    long taskItems() {
        return (long) TASK_ITEMS.getOpaque(this);
    }

    /** Moves overflowed CQEs into room that appeared, then publishes. */
    void flushOverflow() {
        if (cqLock != null) {
            cqLock.lock();
            try {
                cq.flushOverflow();
            } finally {
                cqLock.unlock();
            }
        } else {
            cq.flushOverflow();
        }
        flush();
    }

}
