package io.jring.tw;

import java.util.ArrayList;

/**
 * Notices owners that died while away with task work pending. Java tells nobody when a
 * thread ends, so a context whose owner left the engine with work queued (or got work while
 * away) is watched: while any such context exists, one daemon thread checks them every
 * {@link #PERIOD_MS} ms and hands those whose owner has died to the {@link Fallback}; it
 * drops contexts whose lists emptied or whose owner came back, and exits when none has been
 * left for {@link #LINGER_ROUNDS} rounds (a busy owner whose completions come from another
 * thread, e.g. the direct-I/O reaper, registers again and again: one thread start per
 * registration cost the owner a stall each time).
 * Off every hot path: contexts are registered only by an add that found the owner away and
 * the list empty, or by an owner leaving with work behind it.
 */
final class AwayWatcher {
    static final long PERIOD_MS = 10;
    /** Empty rounds before the thread exits (one second). */
    static final int LINGER_ROUNDS = 100;

    private static final Object LOCK = new Object();
    /** Guarded by LOCK. */
    private static final ArrayList<TaskContext> WATCHED = new ArrayList<>();
    /** Guarded by LOCK. */
    private static boolean running;

    private AwayWatcher() {}

    static void watch(TaskContext ctx) {
        synchronized (LOCK) {
            if (!WATCHED.contains(ctx)) {
                WATCHED.add(ctx);
            }
            if (running) {
                return;
            }
            running = true;
        }
        Thread t = new Thread(AwayWatcher::loop, "jring-away-watcher");
        t.setDaemon(true);
        t.start();
    }

    private static void loop() {
        ArrayList<TaskContext> dead = new ArrayList<>();
        int emptyRounds = 0;
        for (;;) {
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                // Daemon helper: an interrupt only ends this round early.
            }
            synchronized (LOCK) {
                for (int i = WATCHED.size() - 1; i >= 0; i--) {
                    TaskContext c = WATCHED.get(i);
                    if (!c.hasPendingWork() || c.isOwnerInside()) {
                        WATCHED.remove(i);
                    } else if (!c.isOwnerAlive()) {
                        WATCHED.remove(i);
                        dead.add(c);
                    }
                }
                if (!WATCHED.isEmpty() || !dead.isEmpty()) {
                    emptyRounds = 0;
                } else if (++emptyRounds >= LINGER_ROUNDS) {
                    running = false;
                    return;
                }
            }
            for (TaskContext c : dead) {
                Fallback.schedule(c);
            }
            dead.clear();
        }
    }
}
