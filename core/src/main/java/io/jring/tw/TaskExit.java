package io.jring.tw;

import java.util.concurrent.locks.LockSupport;

/**
 * What happens to a task's requests when its thread ends (Linux: do_exit ->
 * io_uring_files_cancel, then fallback task work). Linux cancels nothing on a thread's exit:
 * what finishes later posts its result through the fallback, and what would have to go on
 * in the dead task (a retry on readiness, an issue) fails with -ECANCELED; jring does the
 * same, and also runs the local work of the task's DEFER_TASKRUN rings, which Linux leaves
 * stranded.
 *
 * <p>Java tells nobody when a thread ends, so a context that may be left with something in
 * flight (work queued while its owner was away, a poller, a DEFER_TASKRUN ring) gets one
 * virtual thread that joins the owner: parked, it costs no CPU and no carrier, and it wakes
 * as the owner ends. It then runs what the owner left, in cancel mode, under the owner's
 * token; while armed polls remain it looks at their readiness every {@link #POLL_PERIOD_NANOS}
 * (nobody sleeps in the dead owner's epoll), and ends when none is left. Work added for the
 * dead owner after that goes to the {@link Fallback} at once (see
 * {@link TaskContext#addTaskWork}).
 */
final class TaskExit {
    /** How often the armed polls of a dead owner are looked at (epoll_wait with timeout 0). */
    static final long POLL_PERIOD_NANOS = 10_000_000L;

    private TaskExit() {}

    /** Starts the watch of {@code ctx}'s owner (once per context: {@link TaskContext#watchExit}). */
    static void watch(TaskContext ctx) {
        Thread.ofVirtual().name("jring-exit-" + ctx.owner().getName()).start(() -> afterExit(ctx));
    }

    private static void afterExit(TaskContext ctx) {
        join(ctx.owner());
        for (;;) {
            boolean armed = runLeftBehind(ctx);
            if (ctx.hasPendingWork() || ctx.rings().hasLocalWork()) {
                continue;   // added while we held the token: its adder saw it taken and left it to us
            }
            if (!armed) {
                return;
            }
            LockSupport.parkNanos(POLL_PERIOD_NANOS);
        }
    }

    private static void join(Thread owner) {
        for (;;) {
            try {
                owner.join();
                return;
            } catch (InterruptedException e) {
                // Nobody interrupts this thread on purpose; keep waiting for the owner's end.
            }
        }
    }

    /**
     * Any thread but the owner, once the owner is gone: borrows its token and runs what it
     * left (readiness of its armed polls, its task work, its DEFER_TASKRUN rings' local work),
     * in cancel mode. Returns true if armed polls remain.
     */
    static boolean runLeftBehind(TaskContext ctx) {
        boolean[] armed = new boolean[1];
        ctx.withToken(() -> {
            TaskPoller p = ctx.poller();
            if (p != null && p.hasDemand()) {
                p.pollNow();
            }
            ctx.runTaskWork(true);
            for (LocalWork w : ctx.rings().localWork()) {
                if (!w.isEmpty()) {
                    ctx.runList(w.list(), true);
                }
            }
            armed[0] = p != null && !p.isClosed() && p.hasDemand();
        });
        return armed[0];
    }
}
