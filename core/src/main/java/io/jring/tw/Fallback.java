package io.jring.tw;

import io.jring.trace.RareEvents;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Runs the task work of contexts whose owner thread has died, in cancel mode (finished
 * requests post their result, the rest -ECANCELED), like Linux's fallback work for exiting
 * tasks: work added for a dead owner, and its DEFER_TASKRUN rings' local work. One
 * short-lived thread drains the queue and exits when it is empty, so no thread lingers.
 */
public final class Fallback {
    private static final Object LOCK = new Object();
    /** Guarded by LOCK. */
    private static final ArrayDeque<TaskContext> QUEUE = new ArrayDeque<>();
    /** Guarded by LOCK: whether a drain thread is running. */
    private static boolean running;
    /** Guarded by LOCK: contexts already logged (weak: a context is logged once, then forgotten with it). */
    private static final Set<TaskContext> REPORTED = Collections.newSetFromMap(new WeakHashMap<>());

    private Fallback() {}

    public static void schedule(TaskContext ctx) {
        boolean first;
        boolean start;
        synchronized (LOCK) {
            if (!QUEUE.contains(ctx)) {
                QUEUE.add(ctx);
            }
            first = REPORTED.add(ctx);
            start = !running;
            running = true;
        }
        if (first) {
            RareEvents.ownerDiedFallback(ctx.owner.getName());
        }
        if (start) {
            Thread t = new Thread(Fallback::drain, "jring-fallback");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void drain() {
        for (;;) {
            TaskContext ctx;
            synchronized (LOCK) {
                ctx = QUEUE.poll();
                if (ctx == null) {
                    running = false;
                    return;
                }
            }
            // The owner is dead, so the token is FREE or about to be: wait for it, then run.
            TaskExit.runLeftBehind(ctx);
            if (ctx.hasPendingWork() || ctx.rings().hasLocalWork()) {
                schedule(ctx);
            }
        }
    }
}
