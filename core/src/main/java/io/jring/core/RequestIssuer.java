package io.jring.core;

import io.jring.poll.Poller;
import io.jring.sys.PollCalls;
import io.jring.sys.SysCallContext;
import io.jring.trace.PollArmEvent;

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
 * without blocking, punt to io-wq on EAGAIN (or always, for ASYNC and ops that block), run
 * in a worker, and hand the result back to the request's task as completion work. Runs in
 * the submitting thread under the ring's posting right, except {@link #runInWorker} and
 * {@link #completeFromElsewhere} which run wherever the op finished.
 */
public final class RequestIssuer {
    /** Task work of an armed request whose file reported readiness (or that a cancel claimed). */
    static final TaskWorkFunc POLL_READY = (req, cancel) -> req.ring.issuer.pollReady(req, cancel);
    /** Task work from an io-wq worker whose non-blocking attempt got EAGAIN ("async hybrid"). */
    static final TaskWorkFunc ARM = (req, cancel) -> req.ring.issuer.armFromWorker(req, cancel);

    /** How long a legacy-async worker blocks in poll(2) before it looks for cancellation. */
    private static final int LEGACY_POLL_MS = 100;

    /**
     * Linux's APOLL_MAX_RETRY (io_uring/poll.c): the 128th arm of one request's async poll is
     * refused and the request goes to io-wq, which makes the blocking call. A file that
     * keeps reporting readiness while its attempts keep failing with EAGAIN costs a bounded
     * number of retries, never a spin or a stall.
     */
    static final int APOLL_MAX_RETRY = 128;

    private final RingContext ring;
    // The ring's parts every submission touches, held here to save a hop per SQE.
    private final RequestPool pool;
    private final CompletionPoster poster;
    private final LinkChains links;
    private final DrainQueue drain;

    RequestIssuer(RingContext ring) {
        this.ring = ring;
        this.pool = ring.pool;
        this.poster = ring.poster;
        this.links = ring.links;
        this.drain = ring.drain;
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
     * submit loop.
     */
    boolean submitOne(Sqe sqe, TaskContext tc) {
        Request req = pool.alloc();
        req.init(tc, sqe);
        OpDef def = OpTable.get(req.opcode);
        req.def = def;
        if (Tracing.submitSqe) {
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
        if ((flags & SqeFlags.CQE_SKIP_SUCCESS) != 0) {
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

    /** A non-blocking attempt got EAGAIN: arm poll on a pollable file, else hand it to io-wq. */
    private void wouldBlock(Request req) {
        int mask = req.def.pollMask(req);
        if (mask == 0) {
            punt(req);
            return;
        }
        int r = armAsync(req, mask, Poller.UNCHECKED);
        if (r != 0) {
            poster.postAndFree(req, r, req.cflags);
        }
    }

    /**
     * Arms a request's async poll after a non-blocking attempt said EAGAIN, counting the arm
     * against {@link #APOLL_MAX_RETRY}: 0, -errno, or (budget spent) the request is punted
     * to io-wq and 0 is returned.
     */
    private int armAsync(Request req, int mask, int known) {
        if (++req.pollRetries >= APOLL_MAX_RETRY) {
            ring.armed.remove(req);
            punt(req);
            return 0;
        }
        return arm(req, mask, known);
    }

    /**
     * Task of the request, posting right: arms its poll wait in the task's poller and lists
     * it in the ring's armed list. A receive's unused provided buffer goes back meanwhile
     * (ProvidedBuffers.beforeArm). Returns 0, or -errno.
     */
    int arm(Request req, int mask) {
        return arm(req, mask, Poller.UNCHECKED);
    }

    /** As {@link #arm(Request, int)}; {@code known}: the fd's readiness as {@link Poller#arm} takes it. */
    int arm(Request req, int mask, int known) {
        ring.buffers.beforeArm(req);
        AsyncPoll w = req.poll;
        if (w == null) {
            w = new AsyncPoll(req);
            req.poll = w;
        }
        if (w.isArmed()) {
            return 0;   // a multishot wait stays armed
        }
        Poller p = ring.pollerOf(req.task);
        req.markSideState(Request.SIDE_POLL);
        int r = p.arm(w, req.fd, mask, req.def.pollMultishot(req), known);
        if (r != 0) {
            return r;
        }
        ring.armed.add(req);
        if (Tracing.pollArm) {
            tracePollArm(req, mask);
        }
        return 0;
    }

    private void tracePollArm(Request req, int mask) {
        PollArmEvent ev = new PollArmEvent();
        ev.ring = ring.id;
        ev.opcode = Opcode.name(req.opcode);
        ev.userData = req.userData;
        ev.mask = mask;
        ev.commit();
    }

    /** Poll task work: the file is ready (or a cancel claimed the request). */
    private void pollReady(Request req, boolean cancel) {
        req.pollQueued = false;
        int events = req.pollEvents;
        req.pollEvents = 0;
        if (cancel || req.pollCancelled || req.cancelRequested || ring.isClosing()) {
            finishArmed(req, -Errno.ECANCELED);
            return;
        }
        int r = req.def.pollReady(req, events);
        if (r == OpDef.ISSUE_QUEUED) {
            return;
        }
        if (r == -Errno.EAGAIN) {
            if (req.poll.isArmed()) {
                return;   // multishot: still armed
            }
            // Ready, yet EAGAIN: re-arm asking epoll to look now, as Linux's arm polls the
            // file, so a file that is still ready fires again instead of waiting for an edge.
            r = armAsync(req, req.def.pollMask(req), Poller.CHECK_NOW);
            if (r == 0) {
                return;
            }
        }
        finishArmed(req, r);
    }

    /** Ends an armed request: out of its poller and the armed list, CQE posted. */
    void finishArmed(Request req, int res) {
        disarm(req);
        poster.postAndFree(req, res, req.cflags);
    }

    /** Task of the request: out of its poller and the armed list (no-op if not armed). */
    void disarm(Request req) {
        AsyncPoll w = req.poll;
        if (w != null && w.isArmed()) {
            req.task.pollerIfOpen().disarm(w);
        }
        ring.armed.remove(req);
    }

    /**
     * Posting right: asks an armed request to end with -ECANCELED. Its own task does it
     * (only that task may touch its poller): the request's poll task work is queued unless
     * it is already. Returns false if a cancel had claimed it already.
     */
    boolean cancelArmed(Request req) {
        if (req.pollCancelled) {
            return false;
        }
        req.pollCancelled = true;
        if (!req.pollQueued) {
            req.pollQueued = true;
            req.taskFunc = POLL_READY;
            req.setCompletionWork(false);
            queueTaskWork(req, false);
        }
        return true;
    }

    /** Task work from a worker: arm now, in the request's task. */
    private void armFromWorker(Request req, boolean cancel) {
        ring.armTransit.remove(req);
        if (cancel || ring.isClosing() || req.cancelRequested) {
            poster.postAndFree(req, -Errno.ECANCELED, 0);
            return;
        }
        int r = armAsync(req, req.def.pollMask(req), Poller.CHECK_NOW);   // the attempt was made by a worker
        if (r != 0) {
            poster.postAndFree(req, r, req.cflags);
        }
    }

    /** Hands a request to io-wq (the kernel's io_queue_iowq). */
    void punt(Request req) {
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0 && req.selectedBid < 0) {
            // Workers do not hold the posting right: choose the buffer now.
            ring.buffers.select(req, req.bufGroup, req.len);
        }
        ring.buffers.beforePunt(req);
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
            int mask = req.pollRetries >= APOLL_MAX_RETRY ? 0 : req.def.pollMask(req);
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
                ring.armTransit.add(req);   // findable by cancel until its task arms it
                req.taskFunc = ARM;
                req.setCompletionWork(false);
                queueTaskWork(req, false);
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
        completeInTask(req, res, cflags, RingContext.COMPLETE, true, true);
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
