package io.jring.core;

import io.jring.tw.TaskContext;

import java.util.concurrent.locks.LockSupport;

/**
 * The wait of a ring's close (Linux's io_ring_exit_work with io_uring_try_cancel_requests):
 * round after round it asks what is armed to end and runs the task work that holds the
 * ring's requests, borrowing their tasks' tokens, until no request is in flight and no
 * SEND_FD message is on its way in. The closing thread only, after close() marked the ring
 * closing and cancelled its io-wq queue.
 */
final class RingExit {
    private RingExit() {}

    /** Returns when every request of {@code ring} has finished and every message sent to it has run. */
    static void awaitRequests(RingContext ring) {
        TaskContext me = TaskContext.current();
        // An interrupt does not stop close() (it must wait for what is in flight), but its
        // flag would make every park return at once: keep it aside and set it again after.
        boolean interrupted = Thread.interrupted();
        while (ring.pool.inFlight() > 0) {
            drain(ring);
            if (ring.pool.inFlight() == 0) {
                break;
            }
            interrupted |= park(ring, me);
        }
        while (ring.msgRing.hasRemoteFds()) {
            // SEND_FD messages on their way in: their senders' requests wait for the result.
            ring.msgRing.drainInboxForClose();
            drain(ring);
            if (!ring.msgRing.hasRemoteFds()) {
                break;
            }
            interrupted |= park(ring, me);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to 1 ms for in-flight work to end; true if it was interrupted meanwhile (flag cleared). */
    private static boolean park(RingContext ring, TaskContext me) {
        ring.cqWait.set(false, me);
        LockSupport.parkNanos(ring, 1_000_000L);
        ring.cqWait.set(false, null);
        return Thread.interrupted();
    }

    /** Posting right: every armed request of the ring is asked to end. */
    private static void cancelAllArmed(RingContext ring) {
        ring.polls.cancelAll();
        ring.timeouts.cancelAll();
        ring.drain.cancelAll();
    }

    /** Runs whatever task work holds this ring's requests, borrowing the owners' tokens. */
    private static void drain(RingContext ring) {
        if (ring.singleIssuer) {
            TaskContext oc = ring.ownerContext();
            if (oc != null) {
                oc.withToken(() -> {
                    cancelAllArmed(ring);
                    oc.runTaskWork(false);
                    if (ring.local != null) {
                        oc.runList(ring.local.list, false);
                    }
                });
            }
        } else {
            ring.lockRing();
            try {
                cancelAllArmed(ring);
            } finally {
                ring.unlockRing();
            }
            TaskContext self = TaskContext.current();
            for (TaskContext c : ring.submitters.tasks) {
                if (c == self) {
                    c.enter();
                    try {
                        c.runTaskWork(false);
                    } finally {
                        c.exit();
                    }
                } else if (c.hasPendingWork()) {
                    c.tryHelp(false);
                }
            }
        }
    }
}
