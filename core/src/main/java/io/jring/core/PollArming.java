package io.jring.core;

import io.jring.Errno;
import io.jring.Opcode;
import io.jring.ops.OpDef;
import io.jring.poll.Poller;
import io.jring.poll.PollerRef;
import io.jring.trace.PollArmEvent;
import io.jring.trace.Tracing;
import io.jring.tw.TaskContext;

/**
 * A ring's poll arming (Linux's io_uring/poll.c): POLL_ADD and POLL_REMOVE, the async poll
 * an op that got EAGAIN on a pollable file waits in (DESIGN.md section 2 step 4), its retry
 * when readiness comes back as task work, the hand-over from an io-wq worker that found the
 * file not ready (seed 003), cancellation of armed requests, and the pollers of the tasks
 * whose requests this ring armed. Posting right, except {@link #handToTask} (a worker) and
 * {@link #pollerOf}/{@link #releasePollers}, which say their threads.
 */
public final class PollArming {
    /** Task work of an armed request whose file reported readiness (or that a cancel claimed). */
    static final TaskWorkFunc POLL_READY = (req, cancel) -> req.ring.polls.pollReady(req, cancel);
    /** Task work from an io-wq worker whose non-blocking attempt got EAGAIN ("async hybrid"). */
    private static final TaskWorkFunc ARM = (req, cancel) -> req.ring.polls.armFromWorker(req, cancel);
    private static final TaskContext[] NO_CONTEXTS = new TaskContext[0];

    /**
     * Linux's APOLL_MAX_RETRY (io_uring/poll.c): the 128th arm of one request's async poll is
     * refused and the request goes to io-wq, which makes the blocking call. A file that
     * keeps reporting readiness while its attempts keep failing with EAGAIN costs a bounded
     * number of retries, never a spin or a stall.
     */
    static final int APOLL_MAX_RETRY = 128;

    private final RingContext ring;
    private final CompletionPoster poster;
    /** Armed requests of this ring, in whatever poller: posting right only. */
    final ArmedList armed = new ArmedList();
    /** Requests workers handed back to their task to arm poll, until it does (its own lock). */
    final ArmTransit transit = new ArmTransit();

    /** Contexts whose poller this ring uses (retained once each); copy-on-write under {@link #pollUsersLock}. */
    private volatile TaskContext[] pollUsers = NO_CONTEXTS;
    private final Object pollUsersLock = new Object();

    PollArming(RingContext ring) {
        this.ring = ring;
        this.poster = ring.poster;
    }

    // ---------------------------------------------------------------- POLL_ADD, POLL_REMOVE

    /**
     * Arms the request's poll wait for {@code mask}: 0 (completes on readiness), or -errno.
     * {@code readiness}: the fd's {@link Poller#readiness} just taken; what is ready in it
     * is reported to this request alone (Linux's arm-time vfs_poll).
     */
    public int arm(Request req, int mask, int readiness) {
        ring.buffers.beforeArm(req);
        AsyncPoll w = req.poll;
        if (w == null) {
            w = new AsyncPoll(req);
            req.poll = w;
        }
        if (w.isArmed()) {
            return 0;   // a multishot wait stays armed
        }
        Poller p = pollerOf(req.task);
        req.markSideState(Request.SIDE_POLL);
        int r = p.arm(w, req.fd, mask, req.def.pollMultishot(req), readiness);
        if (r != 0) {
            return r;
        }
        armed.add(req);
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

    /**
     * POLL_REMOVE: claims the armed POLL_ADD with {@code userData} for cancellation (it ends
     * with -ECANCELED in its task). 0, -ENOENT if no armed poll has that user data, or
     * -EALREADY if its readiness was reported and its task work is on the way (Linux's
     * io_poll_disarm finds the poll owned by its wakeup): a one-shot poll completes with it,
     * a multishot one posts its CQE and stays armed.
     */
    public int remove(long userData) {
        Request target = armed.find(userData, true);
        if (target == null) {
            return -Errno.ENOENT;
        }
        if (target.pollQueued) {
            return -Errno.EALREADY;   // a claimed poll too: its task work owns it (io_poll_get_ownership)
        }
        cancelArmed(target);
        armed.remove(target);   // out of the cancel hash at once, as io_poll_disarm's hash_del
        return 0;
    }

    // ---------------------------------------------------------------- async poll (EAGAIN)

    /**
     * Arms a request's async poll after a non-blocking attempt said EAGAIN, counting the arm
     * against {@link #APOLL_MAX_RETRY}: 0, -errno, or (budget spent) the request is punted
     * to io-wq and 0 is returned. {@code known}: the fd's readiness as {@link Poller#arm}
     * takes it ({@link Poller#UNCHECKED} after the caller's own attempt).
     */
    int armAsync(Request req, int mask, int known) {
        if (++req.pollRetries >= APOLL_MAX_RETRY) {
            armed.remove(req);
            ring.issuer.punt(req);
            return 0;
        }
        return arm(req, mask, known);
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
            PollerRef.ifOpen(req.task).disarm(w);
        }
        armed.remove(req);
    }

    // ---------------------------------------------------------------- from io-wq

    /**
     * io-wq worker: its non-blocking attempt on a pollable file got EAGAIN; the request's
     * task arms the poll (the ARM task work), so the worker is free. Listed in
     * {@link #transit} first, where cancel finds it until its task arms it.
     */
    void handToTask(Request req) {
        transit.add(req);
        req.taskFunc = ARM;
        req.setCompletionWork(false);
        ring.issuer.queueTaskWork(req, false);
    }

    /** Task work from a worker: arm now, in the request's task. */
    private void armFromWorker(Request req, boolean cancel) {
        transit.remove(req);
        if (cancel || ring.isClosing() || req.cancelRequested) {
            poster.postAndFree(req, -Errno.ECANCELED, 0);
            return;
        }
        int r = armAsync(req, req.def.pollMask(req), Poller.CHECK_NOW);   // the attempt was made by a worker
        if (r != 0) {
            poster.postAndFree(req, r, req.cflags);
        }
    }

    // ---------------------------------------------------------------- cancellation

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
            ring.issuer.queueTaskWork(req, false);
        }
        return true;
    }

    /** Posting right: every armed request of this ring is asked to end (close()). */
    void cancelAll() {
        for (Request r = armed.first(); r != null; r = r.armedNext) {
            cancelArmed(r);
        }
    }

    // ---------------------------------------------------------------- the tasks' pollers

    /** Holder of {@code tc}'s token: its poller, retained for this ring on first use. */
    Poller pollerOf(TaskContext tc) {
        Poller p = PollerRef.ifOpen(tc);
        if (p != null) {
            for (TaskContext c : pollUsers) {
                if (c == tc) {
                    return p;
                }
            }
        }
        synchronized (pollUsersLock) {
            TaskContext[] cur = pollUsers;
            TaskContext[] next = java.util.Arrays.copyOf(cur, cur.length + 1);
            next[cur.length] = tc;
            pollUsers = next;
        }
        return PollerRef.retain(tc);
    }

    /** close(): lets go of every poller this ring used. */
    void releasePollers() {
        TaskContext[] users;
        synchronized (pollUsersLock) {
            users = pollUsers;
            pollUsers = NO_CONTEXTS;
        }
        for (TaskContext c : users) {
            c.withToken(() -> PollerRef.release(c));
        }
    }
}
