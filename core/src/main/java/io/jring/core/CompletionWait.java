package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.poll.Poller;
import io.jring.poll.PollerRef;
import io.jring.tw.TaskContext;

import java.util.concurrent.locks.LockSupport;

/**
 * The waiting side of a ring's CQ (the kernel's {@code io_cqring_wait}, wait.c in newer
 * kernels, with the task-work run and overflow flush that {@code io_uring_enter} does for
 * GETEVENTS): {@link #catchUp} enters the ring to bring the CQ up to date; {@link #waitFor}
 * is the wait loop of DESIGN.md section 4, with the published-sleeping / re-check / park
 * protocol and the brief spins for device completions and for other threads' task work
 * ({@link CompletionSpin}). Used by
 * {@link CompletionReader} (peek, wait and forEachCqe when nothing is ready) and by the
 * ring's submitAndWait, through the reader's final field.
 */
final class CompletionWait {
    private final RingContext ring;
    private final CompletionQueue cq;
    private final LocalWorkList local;
    private final boolean singleIssuer;
    private final CompletionSpin spin;
    /** The spin before a SINGLE_ISSUER owner with no armed polls sleeps for other threads' task work. */
    private final WorkSpin workSpin;

    CompletionWait(RingContext ring, long waitSpinNanos) {
        this.ring = ring;
        this.cq = ring.cq;
        this.local = ring.local;
        this.singleIssuer = ring.singleIssuer;
        this.spin = new CompletionSpin(waitSpinNanos);
        this.workSpin = new WorkSpin(waitSpinNanos);
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
            boolean workWait = !dioWait && singleIssuer && demandPoller(tc) == null;
            if (workWait && workReady(tc, n)) {
                continue;   // work is already here: run it, no clock read (a NOP loop waits this way per batch)
            }
            long workStart = workWait ? System.nanoTime() : 0L;
            if (workWait && spinForWork(tc, n, workStart, deadline)) {
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
            if (workWait) {
                workSpin.slept(System.nanoTime() - workStart);
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
     * Token held, SINGLE_ISSUER, no armed polls, no direct I/O, nothing ready: watches this
     * thread's task-work lists and the ring's local list for the {@link #workSpin} budget
     * instead of sleeping at once (see {@link WorkSpin} for when and how long). True if the
     * loop should go round again; false: sleep.
     */
    /** What ends a work spin at once: task work queued, local work, enough CQEs, a closed ring. */
    private boolean workReady(TaskContext tc, int n) {
        return tc.hasPendingWork() || (local != null && !local.isEmpty()) || cq.ready() >= n || ring.closed != 0;
    }

    private boolean spinForWork(TaskContext tc, int n, long start, long deadline) {
        long budget = workSpin.budget();
        if (budget == 0L || Thread.currentThread().isVirtual()) {   // a virtual thread frees its carrier instead
            return false;
        }
        long end = start + budget;
        if (deadline != 0L && deadline - end < 0) {
            end = deadline;
        }
        long now = start;
        do {
            if (workReady(tc, n) || Thread.currentThread().isInterrupted()) {
                workSpin.hit(now - start);
                return true;
            }
            Thread.onSpinWait();
            now = System.nanoTime();
        } while (end - now > 0);
        workSpin.miss();
        return false;
    }

    /**
     * Token held, direct I/O in flight, nothing ready: watches for a device completion (or
     * any other reason to go round the loop) for the {@link CompletionSpin} budget instead of
     * sleeping at once. True if the loop should go round again; false: sleep.
     */
    private boolean spinForDevice(TaskContext tc, DioReaper dio, int n, long start, long deadline) {
        long budget = spin.budget();
        if (budget == 0L || Thread.currentThread().isVirtual()) {   // a virtual thread frees its carrier instead
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
            if (workReady(tc, n) || Thread.currentThread().isInterrupted()) {
                return true;
            }
            Thread.onSpinWait();
            now = System.nanoTime();
        } while (end - now > 0);
        return false;
    }
}
