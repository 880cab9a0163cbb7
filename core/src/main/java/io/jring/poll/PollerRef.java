package io.jring.poll;

import io.jring.tw.TaskContext;

/**
 * A task's poller, shared by the rings that use it: opened by the first ring that needs one
 * (an armed poll, a wait for direct I/O), closed when the last lets go. It sits in the task
 * context's slot ({@link TaskContext#poller()}), which PollerRef alone writes, so the slot
 * always holds a {@link Poller}; the count is the poller's own ({@link Poller#refs}), so a
 * fresh poller starts with none. Token holder of the task only.
 */
public final class PollerRef {
    private PollerRef() {}

    /** Token holder: {@code tc}'s poller, or null if none is open. */
    public static Poller ifOpen(TaskContext tc) {
        return (Poller) tc.poller();
    }

    /** Token holder: a ring starts using {@code tc}'s poller (opened on first use). */
    public static Poller retain(TaskContext tc) {
        Poller p = ifOpen(tc);
        if (p == null) {
            p = Poller.open(tc);
            tc.setPoller(p);   // the owner's end is watched from now: it may end with polls armed
        }
        p.refs++;
        return p;
    }

    /**
     * Token holder: a ring stops using the poller; the last one closes it, or, if the owner
     * sleeps in it right now (a helper holds the token), leaves that to the owner.
     */
    public static void release(TaskContext tc) {
        Poller p = ifOpen(tc);
        if (p == null || --p.refs > 0) {
            return;
        }
        if (Thread.currentThread() != tc.owner() && p.isSleeping()) {
            p.retired = true;
            p.wake();
        } else {
            close(tc, p);
        }
    }

    /** Owner, after a sleep in the poller: closes it if the last ring let go meanwhile. */
    public static void afterSleep(TaskContext tc) {
        Poller p = ifOpen(tc);
        if (p != null && p.retired && p.refs == 0) {
            close(tc, p);
        }
    }

    private static void close(TaskContext tc, Poller p) {
        tc.setPoller(null);
        p.close();
    }
}
