package io.jring.core;

import io.jring.Errno;
import io.jring.Opcode;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.ops.OpDef;
import io.jring.ops.OpTable;
import io.jring.trace.SubmitSqeEvent;
import io.jring.trace.Tracing;
import io.jring.tw.TaskContext;

/**
 * The life of a request from SQE to result (DESIGN.md section 2): validate, issue inline
 * without blocking, punt to io-wq on EAGAIN (or always, for ASYNC and ops that block), run
 * in a worker, and hand the result back to the request's task as completion work. Runs in
 * the submitting thread under the ring's posting right, except {@link #runInWorker} and
 * {@link #completeFromElsewhere} which run wherever the op finished.
 */
final class RequestIssuer {
    private final RingContext ring;

    RequestIssuer(RingContext ring) {
        this.ring = ring;
    }

    /**
     * One SQE -> one request, validated and issued. False if it failed before issue. Kept
     * small (error reporting lives in {@link #reject}) so the JIT inlines it into the
     * submit loop.
     */
    boolean submitOne(Sqe sqe, TaskContext tc) {
        Request req = ring.pool.alloc();
        req.init(tc, sqe);
        OpDef def = OpTable.get(req.opcode);
        req.def = def;
        if (Tracing.submitSqe) {
            traceSubmit(req);
        }
        int flags = req.flags;
        int err;
        if (def == null || (flags & ~SqeFlags.VALID) != 0
                || ((flags & SqeFlags.BUFFER_SELECT) != 0 && !def.bufferSelect())) {
            err = -Errno.EINVAL;
        } else {
            err = def.prep(req, sqe);
        }
        if (err != 0) {
            reject(req, err);
            return false;
        }
        if ((flags & SqeFlags.ASYNC) != 0 || def.forceAsync()) {
            punt(req);
        } else {
            issueInline(req);
        }
        return true;
    }

    private void traceSubmit(Request req) {
        SubmitSqeEvent ev = new SubmitSqeEvent();
        ev.ring = ring.id;
        ev.opcode = Opcode.name(req.opcode);
        ev.userData = req.userData;
        ev.flags = req.flags;
        ev.commit();
    }

    /** Fails a request before issue, saying why in the ReqFailed event. */
    private void reject(Request req, int err) {
        OpDef def = req.def;
        String reason;
        if (def == null) {
            reason = "unknown or unsupported opcode " + req.opcode;
        } else if ((req.flags & ~SqeFlags.VALID) != 0) {
            reason = "unknown SQE flag bits 0x" + Integer.toHexString(req.flags & ~SqeFlags.VALID);
        } else if ((req.flags & SqeFlags.BUFFER_SELECT) != 0 && !def.bufferSelect()) {
            reason = "BUFFER_SELECT is not valid for " + Opcode.name(req.opcode);
        } else {
            reason = "invalid SQE for " + Opcode.name(req.opcode);
        }
        ring.poster.fail(req, err, reason);
    }

    private void issueInline(Request req) {
        int r = req.def.issue(req, true);
        if (r == OpDef.ISSUE_QUEUED) {
            return;
        }
        if (r == -Errno.EAGAIN) {
            punt(req);
            return;
        }
        ring.poster.postAndFree(req, r, req.cflags);
    }

    /** Hands a request to io-wq (the kernel's io_queue_iowq). */
    void punt(Request req) {
        req.def.preparePunt(req);
        ring.ioWq().enqueue(req);
    }

    /** io-wq worker: runs the op blocking and hands the result back as completion work. */
    void runInWorker(Request req) {
        int r = ring.isClosing() ? -Errno.ECANCELED : req.def.issue(req, false);
        if (r == OpDef.ISSUE_QUEUED) {
            return;
        }
        completeFromElsewhere(req, r, req.cflags);
    }

    /**
     * Any thread other than the posting right's holder (worker, poller, timer, reaper):
     * completes the request through task work in its task, flagged as completion work.
     */
    void completeFromElsewhere(Request req, int res, int cflags) {
        req.res = res;
        req.cflags = cflags;
        req.taskFunc = RingContext.COMPLETE;
        req.setCompletionWork(true);
        queueTaskWork(req, true);
    }

    /** Queues a request's task work: the ring's local list (DEFER_TASKRUN) or its task's list. */
    void queueTaskWork(Request req, boolean lazy) {
        LocalWorkList local = ring.local;
        if (local != null) {
            local.add(req, lazy, req.task);
        } else {
            req.task.addTaskWork(req, ring.kind);
        }
    }
}
