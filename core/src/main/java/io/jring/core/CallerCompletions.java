package io.jring.core;

import io.jring.sys.DirectFds;
import io.jring.sys.DirectFile;
import io.jring.tw.TaskContext;

/**
 * Seed 002's caller completion without its deadlock. With {@code callerCompletion(true)} a
 * direct write's flush runs in its issuer's task work, so until that thread runs its task
 * work the write stays in flight. Linux removed the feature after a task that deferred its
 * own DIO completion and then waited synchronously for the file's in-flight DIO (fsync,
 * truncate) waited for itself. Here every such wait ({@link #awaitDirectIdle}) first runs the
 * waiting thread's own pending work on the rings it issues caller-completed writes on, and
 * again between checks, so the writes it waits for can finish.
 *
 * <p>Threads: the registry is thread-local: a ring registers itself with the thread that
 * issues such a write (under that ring's posting right, in that thread), and only that
 * thread reads it. Closed rings are dropped at the next registration or wait.
 */
public final class CallerCompletions {
    private static final RingContext[] NONE = new RingContext[0];
    private static final ThreadLocal<RingContext[]> RINGS = ThreadLocal.withInitial(() -> NONE);
    private static final Runnable RUN_OWN = CallerCompletions::runOwn;

    private CallerCompletions() {}

    /** The calling thread issues writes that complete in its task work on {@code ring}. */
    static void register(RingContext ring) {
        RingContext[] cur = prune(RINGS.get());
        for (RingContext r : cur) {
            if (r == ring) {
                RINGS.set(cur);
                return;
            }
        }
        RingContext[] next = java.util.Arrays.copyOf(cur, cur.length + 1);
        next[cur.length] = ring;
        RINGS.set(next);
    }

    private static RingContext[] prune(RingContext[] rings) {
        int open = 0;
        for (RingContext r : rings) {
            if (!r.isClosing()) {
                open++;
            }
        }
        if (open == rings.length) {
            return rings;
        }
        RingContext[] kept = new RingContext[open];
        int i = 0;
        for (RingContext r : rings) {
            if (!r.isClosing()) {
                kept[i++] = r;
            }
        }
        return kept;
    }

    /** Runs the calling thread's pending completion work on each ring it registered with. */
    public static void runOwn() {
        RingContext[] rings = prune(RINGS.get());
        RINGS.set(rings);
        for (RingContext r : rings) {
            runOwnPendingWork(r);
        }
    }

    /**
     * The calling thread, outside a task-work run: reaps {@code ring}'s device completions and
     * runs its pending task work and the ring's local work, as a wait would.
     */
    private static void runOwnPendingWork(RingContext ring) {
        TaskContext tc = TaskContext.current();
        if (tc.isRunningTaskWork() || ring.isClosing() || (ring.singleIssuer && ring.ownerContext() != tc)) {
            return;
        }
        ring.reader.waiter.catchUp();
    }

    /**
     * Waits until jring has no direct I/O of {@code fd}'s file in flight (a no-op for a file
     * jring did not open with O_DIRECT), running the caller's own pending completions first.
     */
    public static void awaitDirectIdle(int fd) {
        DirectFile f = DirectFds.file(fd);
        if (f != null && f.inFlight() > 0) {
            f.awaitIdle(RUN_OWN);
        }
    }
}
