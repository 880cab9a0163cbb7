package io.jring.core;

import io.jring.Cqe;
import io.jring.CqeHandler;
import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.poll.Poller;
import io.jring.poll.PollerRef;
import io.jring.tw.TaskContext;

import java.util.concurrent.locks.LockSupport;

/**
 * The reader side of a ring's CQ and the wait loop (DESIGN.md section 4): peek, wait,
 * consume; run task work on entry; move overflow in as room appears; help away submitters of
 * a shared ring; sleep with the published-sleeping / re-check / park protocol. Called by the
 * application thread through {@link RingContext}; the token is taken with the ring's
 * {@code enter()}. On a shared ring the reaping calls hold the completion side
 * ({@link SideClaim}): from a peekCqe or waitCqe that returned a CQE until its cqeSeen, and
 * for the whole of a forEachCqe; a SINGLE_ISSUER ring's owner has it for good.
 */
final class CompletionReader {
    private final RingContext ring;
    private final CompletionQueue cq;
    private final LocalWorkList local;
    private final boolean singleIssuer;
    private final CompletionSpin spin;
    /** SINGLE_ISSUER rings: reader calls of threads other than the owner, once it has ended. */
    private final ForeignReader foreign;
    /** The completion side's thread of a shared ring; null on a SINGLE_ISSUER ring. */
    private final SideClaim side;
    /**
     * forEachCqe calls running on the holder's stack (a handler may reap too): the side is
     * let go only when the outermost ends. The holder's alone, plain.
     */
    private int iterating;

    CompletionReader(RingContext ring, long waitSpinNanos) {
        this.ring = ring;
        this.cq = ring.cq;
        this.local = ring.local;
        this.singleIssuer = ring.singleIssuer;
        this.spin = new CompletionSpin(waitSpinNanos);
        this.foreign = singleIssuer ? new ForeignReader(ring) : null;
        this.side = singleIssuer ? null
                : new SideClaim(ring.id, "completion", "it holds a CQE it has not marked seen, or is reaping");
    }

    /**
     * Every reader call first: EBADFD once closed; EEXIST for a thread that is not this
     * SINGLE_ISSUER ring's owner while the owner lives (API.md: the ring is the owner's);
     * true once the owner has ended: then any thread reads through {@link ForeignReader},
     * so the completions the dead owner left behind reach whoever waits (issue 16 A2).
     */
    private boolean checkForeign() {
        if (ring.closed != 0) {
            throw ring.closedException();
        }
        if (singleIssuer) {
            Thread o = ring.owner();
            if (o == null || o == Thread.currentThread()) {
                return false;
            }
            if (o.isAlive()) {
                ring.checkUsable();   // throws EEXIST naming the owner
            }
            return true;
        }
        return false;
    }

    /** The calling thread takes the completion side for {@code call} (EBUSY if another holds it). */
    private void claim(String call) {
        ring.checkUsable();
        if (side != null) {
            side.claim(call);
        }
    }

    /** Holder: marks a call that may block, so its side is not handed over meanwhile (see SideClaim). */
    private void blocking(boolean inCall) {
        if (side != null) {
            side.blocking(inCall);
        }
    }

    /** Holder: no CQE in hand any more; unless a forEachCqe is still running, the side is free. */
    private void letGo() {
        if (side != null && iterating == 0) {
            side.release();
        }
    }

    /** Any thread may look at the CQ (it is shared memory in Linux). */
    public int cqReady() {
        ring.checkOpen();
        return cq.ready();
    }

    public Cqe peekCqe() {
        if (checkForeign()) {
            return foreign.peekCqe();
        }
        claim("peekCqe");
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        try {
            catchUp();
            c = cq.peek();
        } finally {
            if (c == null) {
                letGo();
            }
        }
        return c;
    }

    public Cqe waitCqe() {
        return waitOne(-1L, "waitCqe");
    }

    /** Waits up to {@code nanos}; null on timeout. */
    public Cqe waitCqe(long nanos) {
        return waitOne(Math.max(nanos, 0L), "waitCqe");
    }

    /** One CQE, waiting up to {@code nanos} (-1 = forever); null on timeout. */
    private Cqe waitOne(long nanos, String call) {
        if (checkForeign()) {
            return foreign.waitCqe(nanos < 0 ? 0L : Math.max(1L, System.nanoTime() + nanos));
        }
        claim(call);
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        try {
            long deadline = 0L;
            if (nanos >= 0) {
                deadline = System.nanoTime() + nanos;
                if (deadline == 0L) {
                    deadline = 1L;   // 0 means "no deadline" to waitFor
                }
            }
            TaskContext tc = ring.enter();
            try {
                blocking(true);
                try {
                    if (waitFor(tc, 1, deadline, false)) {
                        c = cq.peek();
                    }
                } finally {
                    blocking(false);
                }
            } finally {
                tc.exit();
            }
        } finally {
            if (c == null) {
                letGo();
            }
        }
        return c;
    }

    public void cqeSeen(Cqe cqe) {
        if (checkForeign()) {
            if (cq.ready() <= 0) {
                throw new IoUringException(Errno.EINVAL, "cqeSeen without a ready CQE");
            }
            cq.advance(1);
            return;
        }
        claim("cqeSeen");
        try {
            if (cq.ready() <= 0) {
                throw new IoUringException(Errno.EINVAL, "cqeSeen without a ready CQE");
            }
            cq.advance(1);
        } finally {
            letGo();
        }
    }

    public int forEachCqe(CqeHandler handler) {
        if (checkForeign()) {
            int n = drainReady(handler);
            return n > 0 && !cq.hasOverflow() ? n : n + forEachCqeSlow(handler, true);
        }
        claim("forEachCqe");
        iterating++;
        blocking(true);   // the handler may block
        try {
            int n = drainReady(handler);
            if (n > 0 && !cq.hasOverflow()) {
                return n;
            }
            return n + forEachCqeSlow(handler, false);
        } finally {
            iterating--;
            if (iterating == 0) {
                blocking(false);
            }
            letGo();
        }
    }

    /** Consumes the CQEs already published: the common, small path (inlines well). */
    private int drainReady(CqeHandler handler) {
        int n = 0;
        int t = cq.tailAcquire();
        for (int h = cq.headIndex(); h != t; h++) {
            Cqe c = cq.at(h);
            long ud = c.userData();
            int res = c.res();
            int fl = c.flags();
            cq.advance(1);
            n++;
            handler.handle(ud, res, fl);
        }
        return n;
    }

    /** Nothing was ready, or overflow waits: run task work, move overflow in, drain again. */
    private int forEachCqeSlow(CqeHandler handler, boolean foreignReader) {
        int n = 0;
        boolean caughtUp = false;
        for (;;) {
            if (!caughtUp || cq.hasOverflow()) {
                if (foreignReader) {
                    foreign.catchUp();
                } else {
                    catchUp();
                }
                caughtUp = true;
            }
            int k = drainReady(handler);
            n += k;
            if (k == 0 || ring.closed != 0) {
                return n;
            }
        }
    }

    /**
     * Enters the ring to bring the CQ up to date: takes the device's completions that are
     * there, runs this thread's pending task work (and, on a shared ring, that of away
     * submitters) and moves overflowed CQEs in.
     */
    void catchUp() {
        TaskContext tc = ring.enter();
        try {
            reapDirect();
            runPending(tc);
            if (harvestPolls(tc)) {
                runPending(tc);
            }
            if (!singleIssuer) {
                helpSubmitters(tc);
            }
        } finally {
            tc.exit();
        }
    }

    /**
     * Token held: dispatches readiness that is there now if this thread has armed polls
     * (one epoll_wait with timeout 0), so a busy ring still serves its sockets. True if any
     * armed request was made ready.
     */
    private static boolean harvestPolls(TaskContext tc) {
        Poller p = PollerRef.ifOpen(tc);
        return p != null && p.hasDemand() && p.pollNow() > 0;
    }

    /**
     * Token held: direct I/O that completed is taken from the AIO completion ring now
     * (no syscall), so its task work runs in this pass instead of after an epoll wakeup;
     * meanwhile the reaper stands back.
     */
    private void reapDirect() {
        DioReaper dio = ring.directRw.reaper();
        if (dio != null) {
            dio.visit();
            if (dio.hasCompletions()) {
                dio.reapNow();
            }
        }
    }

    /** Token held: runs this thread's task work, this ring's local work, and moves overflow in. */
    private void runPending(TaskContext tc) {
        if (tc.hasPendingWork()) {
            tc.runTaskWork(false);
        }
        if (local != null && !local.isEmpty()) {
            tc.runList(local.list, false);
        }
        if (cq.hasOverflow()) {
            flushOverflow();
        }
    }

    private void flushOverflow() {
        ring.lockRing();
        try {
            ring.poster.flushOverflow();
        } finally {
            ring.unlockRing();
        }
    }

    /** Shared rings: runs the work of ring.submitters that are away (Linux would signal them). */
    private void helpSubmitters(TaskContext self) {
        for (TaskContext c : ring.submitters.tasks) {
            if (c != self && c.hasPendingWork()) {
                c.tryHelp(false);
            }
        }
    }

    /**
     * With direct I/O in flight the waiter takes the device's completions itself: the ring's
     * AIO eventfd goes into this thread's poller, and the reaper stands back meanwhile.
     */
    private Poller directIoPoller(TaskContext tc, DioReaper dio) {
        Poller p = ring.polls.pollerOf(tc);
        p.ensurePersistent(dio);
        dio.beginWait();
        return p;
    }

    /** The poller to sleep in when armed polls need watching, else null (park). */
    private static Poller demandPoller(TaskContext tc) {
        Poller p = PollerRef.ifOpen(tc);
        return p != null && p.hasDemand() ? p : null;
    }

    private boolean submittersHaveWork(TaskContext self) {
        for (TaskContext c : ring.submitters.tasks) {
            if (c != self && c.hasPendingWork()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The wait loop (DESIGN.md section 4): run task work; enough CQEs -> done; else publish
     * "sleeping" (and the countdown for DEFER_TASKRUN), re-check, park. Token held on entry
     * and exit. Returns false on timeout ({@code deadline} 0 = none). {@code submitSide}: a
     * submitAndWait, which may wait beside a thread that reaps (see {@link CqWait}).
     */
    boolean waitFor(TaskContext tc, int n, long deadline, boolean submitSide) {
        boolean harvested = false;
        for (;;) {
            reapDirect();
            runPending(tc);
            if (ring.closed != 0) {
                throw ring.closedException();   // CQEs still unread are dropped with the ring
            }
            if (cq.ready() >= n) {
                if (!harvested && harvestPolls(tc)) {
                    harvested = true;
                    continue;
                }
                return true;
            }
            if (!singleIssuer) {
                helpSubmitters(tc);
                if (cq.ready() >= n) {
                    return true;
                }
            }
            long now = 0L;
            if (deadline != 0L && (now = System.nanoTime()) - deadline >= 0) {
                return false;
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IoUringException(Errno.EINTR, "interrupted while waiting for completions");
            }
            DioReaper dio = ring.directRw.reaper();
            boolean dioWait = dio != null && dio.busy();
            long waitStart = dioWait ? System.nanoTime() : 0L;
            if (dioWait && spinForDevice(tc, dio, n, waitStart, deadline)) {
                continue;
            }
            ring.cqWait.set(submitSide, tc);
            if (local != null) {
                local.arm(n - cq.ready());
            }
            Poller p = dioWait ? directIoPoller(tc, dio) : demandPoller(tc);
            if (p != null) {
                p.markSleeping();
            }
            tc.prepareToSleep();
            // Device completions already in the AIO ring: take them (next pass) rather than enter epoll_wait.
            boolean sleep = !tc.hasPendingWork()
                    && (local == null || local.isEmpty())
                    && cq.readyForSleep() < n
                    && ring.closed == 0
                    && (singleIssuer || !submittersHaveWork(tc))
                    && !(dioWait && dio.hasCompletions());
            int events = 0;
            if (sleep) {
                long nanos = deadline == 0L ? -1L : deadline - now;
                if (p != null) {
                    events = p.sleep(nanos);
                } else if (nanos < 0) {
                    LockSupport.park(ring);
                } else {
                    LockSupport.parkNanos(ring, nanos);
                }
            }
            tc.wakeUpFromSleep();
            if (local != null) {
                local.disarm();
            }
            if (dioWait && dio.hasCompletions()) {
                spin.record(System.nanoTime() - waitStart);
            }
            if (p != null) {
                p.clearSleeping();
                if (dioWait) {
                    dio.endWait();
                }
                p.dispatchPending(events);
                PollerRef.afterSleep(tc);
            }
            ring.cqWait.set(submitSide, null);
        }
    }

    /**
     * Token held, direct I/O in flight, nothing ready: watches for a device completion (or
     * any other reason to go round the loop) for the {@link CompletionSpin} budget instead of
     * sleeping at once. True if the loop should go round again; false: sleep.
     */
    private boolean spinForDevice(TaskContext tc, DioReaper dio, int n, long start, long deadline) {
        long budget = spin.budget();
        if (budget == 0L) {
            return false;
        }
        long end = start + budget;
        if (deadline != 0L && deadline - end < 0) {
            end = deadline;
        }
        long now = start;
        do {
            if (dio.hasCompletions()) {
                spin.record(now - start);
                return true;
            }
            if (tc.hasPendingWork() || (local != null && !local.isEmpty()) || cq.ready() >= n || ring.closed != 0
                    || Thread.currentThread().isInterrupted()) {
                return true;
            }
            Thread.onSpinWait();
            now = System.nanoTime();
        } while (end - now > 0);
        return false;
    }
}
