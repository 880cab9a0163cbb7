package io.jring.core;

import io.jring.poll.Poller;
import io.jring.sys.PollCalls;
import io.jring.sys.SysCallContext;

import io.jring.Errno;
import io.jring.fault.InjectedWorkerDeath;
import io.jring.Opcode;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.iowq.IoWq;
import io.jring.ops.OpDef;
import io.jring.ops.OpTable;
import io.jring.trace.Tracing;
import io.jring.tw.TaskContext;

/**
 * The life of a request from SQE to result (DESIGN.md section 2): validate, issue inline
 * without blocking, on EAGAIN arm poll ({@link PollArming}) or punt to io-wq (always, for
 * ASYNC and ops that block), run in a worker, and hand the result back to the request's
 * task as completion work. Runs in the submitting thread under the ring's posting right,
 * except {@link #runInWorker} and {@link #completeFromElsewhere} which run wherever the op
 * finished.
 */
public final class RequestIssuer {
    /** How long a legacy-async worker blocks in poll(2) before it looks for cancellation. */
    private static final int LEGACY_POLL_MS = 100;

    private final RingContext ring;
    // The ring's parts every submission touches, held here to save a hop per SQE.
    private final RequestPool pool;
    private final CompletionPoster poster;
    private final LinkChains links;
    private final DrainQueue drain;
    private final PollArming polls;
    /** Buffered reads waiting for their pages, and their waiter thread. */
    private final PageWaits pageWaits;

    RequestIssuer(RingContext ring) {
        this.ring = ring;
        this.pool = ring.pool;
        this.poster = ring.poster;
        this.links = ring.links;
        this.drain = ring.drain;
        this.polls = ring.polls;
        this.pageWaits = new PageWaits(ring);
        initializeOnOpen();
    }

    /**
     * The op table, the tracing flags (whose JFR listener loads part of JFR) and the opening
     * thread's task context (its task-work lists; the opener is usually the submitter) are
     * made when a ring opens, not on its first submit: in a fresh JVM that takes 10-20 ms a
     * first TIMEOUT would otherwise add to its deadline (issue 16, cold start).
     */
    private static void initializeOnOpen() {
        OpTable.get(Opcode.NOP);
        Tracing.initialize();
        TaskContext.current();
    }

    /**
     * One SQE -> one request, validated and issued. False if it failed before issue. Kept
     * small (error reporting lives in {@link PrepFailure}) so the JIT inlines it into the
     * submit loop. {@code trace}: {@link Tracing#submitSqe}, read once per submit.
     */
    boolean submitOne(Sqe sqe, TaskContext tc, boolean trace) {
        Request req = pool.alloc();
        req.init(tc, sqe);
        OpDef def = OpTable.get(req.opcode);
        req.def = def;
        if (trace) {
            PrepFailure.traceSubmit(req);
        }
        int flags = req.flags;
        int err;
        // Linux's io_init_req order: opcode and flag bits (-EINVAL), BUFFER_SELECT on an op
        // that cannot select (-EOPNOTSUPP), a refused drain, ioprio on an op without one.
        if (def == null || (flags & ~SqeFlags.VALID) != 0) {
            err = -Errno.EINVAL;
        } else if ((flags & SqeFlags.BUFFER_SELECT) != 0 && !def.bufferSelect()) {
            err = -Errno.EOPNOTSUPP;
        } else if ((flags & (SqeFlags.CQE_SKIP_SUCCESS | SqeFlags.IO_DRAIN)) != 0 && drainRefused(flags)) {
            err = -Errno.EOPNOTSUPP;
        } else if (sqe.ioprio() != 0 && !def.ioprio()) {
            err = -Errno.EINVAL;
        } else {
            req.issueDeferred = links.assembling() || drain.active() || (flags & SqeFlags.IO_DRAIN) != 0;
            err = def.prep(req, sqe);   // a throw: PrepFailure.submitThrew
        }
        if (err != 0) {
            if (links.assembling() || (flags & LinkChains.LINK_FLAGS) != 0) {
                PrepFailure.rejectEvent(req, err, sqe);
                return links.submitFailed(req, err);
            }
            PrepFailure.reject(req, err, sqe);
            return false;
        }
        if ((flags & (LinkChains.LINK_FLAGS | SqeFlags.IO_DRAIN | SqeFlags.ASYNC)) == 0
                && !links.assembling() && !drain.active() && !def.forceAsync(req)) {
            issueInline(req);   // the common case, kept short so the JIT inlines it into the submit loop
        } else {
            links.submit(req);
        }
        return true;
    }

    /** Linux's drain_disabled: once a CQE_SKIP_SUCCESS request was seen, IO_DRAIN is refused. */
    private boolean drainRefused(int flags) {
        if ((flags & SqeFlags.CQE_SKIP_SUCCESS) != 0 && !ring.drainDisabled) {
            // Stored once, not per SQE: other threads' MSG_RINGs to this ring read the
            // fields around it on every message, and a store per SQE would take that cache
            // line away from them each time (issue 20).
            ring.drainDisabled = true;
        }
        return (flags & SqeFlags.IO_DRAIN) != 0 && ring.drainDisabled;
    }

    /** A request (or chain head) ready to go: it waits behind a drain, or is issued. */
    void queue(Request req) {
        if (drain.active() || DrainQueue.drains(req)) {
            drain.defer(req);
        } else {
            issue(req);
        }
    }

    /** Issues a request: inline, or to io-wq (ASYNC, ops that block); starts its link timeout. */
    void issue(Request req) {
        if (req.fixedPending) {
            // Linux looks fixed files up at issue: a slot filled by an earlier member counts.
            req.fixedPending = false;
            ring.resources().lookUpFixedFile(req);
        }
        Request next = req.link;
        if (next != null && next.timeoutTarget == req) {
            ring.timeouts.armLink(next);
        }
        OpDef def = req.def;
        if (((req.flags & SqeFlags.ASYNC) != 0 && !def.inlineOnly(req)) || def.forceAsync(req)) {
            punt(req);
        } else {
            issueInline(req);
        }
    }

    /** The timer thread: a timeout expired; it completes in its task. */
    void timerFired(Request req) {
        req.taskFunc = Timeouts.FIRED;
        req.setCompletionWork(true);
        queueTaskWork(req, false);
    }

    private void issueInline(Request req) {
        int r;
        try {
            r = req.def.issue(req, true);
        } catch (Throwable t) {
            r = ThrownOp.issueThrew(req, t);
        }
        if (r == OpDef.ISSUE_QUEUED) {
            return;
        }
        if (r == -Errno.EAGAIN && !req.def.nowait(req)) {
            wouldBlock(req);   // a NOWAIT request ends with -EAGAIN instead (plus what it moved)
            return;
        }
        if (r < 0 && req.def.failsThroughTaskWork(req, r)) {
            completeFromElsewhere(req, r, req.cflags);   // after this submit's inline CQEs
            return;
        }
        poster.postAndFree(req, r, req.cflags);
    }

    /**
     * A non-blocking attempt got EAGAIN: arm poll on a pollable file, wait for the pages of a
     * buffered read that missed the page cache, else hand it to io-wq.
     */
    private void wouldBlock(Request req) {
        int mask = req.def.pollMask(req);
        if (mask == 0) {
            if (req.def.waitsForPages(req)) {
                ring.buffers.forPunt(req);   // the waiter does not hold the posting right
                pageWaits.add(req);
            } else {
                punt(req);
            }
            return;
        }
        int r = polls.armAsync(req, mask, Poller.UNCHECKED);
        if (r != 0) {
            poster.postAndFree(req, r, req.cflags);
        }
    }

    /** Hands a request to io-wq (the kernel's io_queue_iowq). */
    void punt(Request req) {
        ring.buffers.forPunt(req);   // workers do not hold the posting right: choose the buffer now
        req.def.preparePunt(req);
        ring.ioWq().enqueue(req);
    }

    /**
     * io-wq worker: runs the op blocking and hands the result back as completion work. If
     * the op throws, the request still completes, once: a bug or OutOfMemoryError with its
     * -errno ({@link ThrownOp}), the worker going on; the fault seam's worker death with the
     * bytes it moved, else -EINTR, as Linux ends a running io-wq item whose worker is
     * signalled to stop, and then the worker dies.
     */
    void runInWorker(Request req) {
        int r;
        if (ring.isClosing()) {
            r = -Errno.ECANCELED;
        } else {
            req.selectedEarly = false;   // issued now: the op uses its buffer, as Linux's worker selects one
            // Once its poll retries are spent, a pollable request blocks here, as Linux's
            // io-wq retries it blocking when its arm was aborted.
            int mask = req.pollRetries >= PollArming.APOLL_MAX_RETRY ? 0 : req.def.pollMask(req);
            try {
                r = mask != 0 ? issuePollable(req, mask) : issueBlocking(req);
            } catch (InjectedWorkerDeath death) {
                // The fault seam kills this worker mid-item: the request ends as Linux ends a
                // running item whose worker is signalled; the worker dies, its account replaces it.
                completeFromElsewhere(req, req.done > 0 ? (int) req.done : -Errno.EINTR, req.cflags);
                throw death;
            } catch (Throwable t) {
                r = ThrownOp.fail(req, t);   // the worker goes on; the request completes in its task
            }
        }
        if (r == OpDef.ISSUE_QUEUED) {
            return;
        }
        completeFromElsewhere(req, r, req.cflags);
    }

    /**
     * The page waiter's thread: retries a buffered read whose pages were being read, blocking
     * (it waits for them) or not; true if the request completed (through task work), false
     * if its pages are not in yet. A ring being closed cancels it, as io-wq's worker does.
     */
    boolean retryPageRead(Request req, boolean block) {
        int r;
        if (ring.isClosing()) {
            r = -Errno.ECANCELED;
        } else {
            req.selectedEarly = false;   // issued now: the op uses its buffer
            req.inWorker = true;         // the waiter's syscall scratch, not the ring's inline one
            try {
                r = req.def.issue(req, !block);
            } catch (Throwable t) {
                r = ThrownOp.fail(req, t);
            } finally {
                req.inWorker = false;
            }
            if (!block && r == -Errno.EAGAIN) {
                return false;
            }
        }
        completeFromElsewhere(req, r, req.cflags);
        return true;
    }

    /** close(), after every request finished: ends the page waiter. */
    void closePageWaits() {
        pageWaits.close();
    }

    /** A worker's blocking call: its account may start another worker for the queue meanwhile. */
    private static int issueBlocking(Request req) {
        IoWq.beginBlocking();
        try {
            return req.def.issue(req, false);
        } finally {
            IoWq.endBlocking();
        }
    }

    /**
     * A worker with a pollable file (sent by ASYNC): try once without blocking and, on
     * EAGAIN, have the task arm poll, freeing this worker ("async hybrid", seed 003). With
     * {@code legacyAsync} the worker instead blocks in poll(2) until the file is ready. A
     * multishot request (ACCEPT) makes no attempt here and is armed (Linux's io-wq runs no
     * multishot request: it arms poll for it), so its CQEs are posted by its task.
     */
    private int issuePollable(Request req, int mask) {
        boolean multishot = req.def.pollMultishot(req);
        for (;;) {
            int r = -Errno.EAGAIN;
            req.inWorker = true;
            try {
                r = multishot ? r : req.def.issue(req, true);
            } finally {
                req.inWorker = false;
            }
            if (r != -Errno.EAGAIN) {
                return r;
            }
            if (req.cancelRequested) {
                return -Errno.ECANCELED;
            }
            if (!ring.legacyAsync || multishot) {
                polls.handToTask(req);   // its task arms the poll; this worker is free
                return OpDef.ISSUE_QUEUED;
            }
            IoWq.beginBlocking();
            try {
                while (!ring.isClosing()) {
                    if (req.cancelRequested) {
                        return -Errno.EINTR;   // a blocked worker "interrupted" by the cancel
                    }
                    int ready = PollCalls.pollOne(SysCallContext.current(), req.fd, mask, LEGACY_POLL_MS);
                    if (ready != 0) {
                        break;
                    }
                }
            } finally {
                IoWq.endBlocking();
            }
            if (ring.isClosing()) {
                return -Errno.ECANCELED;
            }
            mask = req.def.pollMask(req);
        }
    }

    /**
     * Any thread other than the posting right's holder (worker, poller, timer, reaper):
     * completes the request through task work in its task, flagged as completion work.
     */
    public void completeFromElsewhere(Request req, int res, int cflags) {
        completeInTask(req, res, cflags, CompletionPoster.COMPLETE, true, true);
    }

    /**
     * Hands a finished request back to its task: {@code res} and {@code cflags} are set and
     * {@code func} (which posts the CQE) is queued as its task work, flagged as completion
     * work or not, lazily or not.
     */
    void completeInTask(Request req, int res, int cflags, TaskWorkFunc func, boolean completionWork, boolean lazy) {
        req.res = res;
        req.cflags = cflags;
        req.taskFunc = func;
        req.setCompletionWork(completionWork);
        queueTaskWork(req, lazy);
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
