package io.jring.tw;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A task's run token (the {@code state} of {@code TaskContextToken}) and the watch of its
 * owner's end. Task work is single-consumer: only the holder of the token runs it. The owner
 * takes the token on every entry into any of its rings ({@link #enter}) and puts it back on
 * exit. While the owner is away (not inside the engine) or asleep in a wait, another thread
 * may borrow the token ({@link #tryHelp}) to run the owner's work: a thread waiting on a
 * shared ring, {@code close()} from another thread, or the fallback when the owner has died.
 * This is jring's stand-in for Linux's TWA_SIGNAL, which makes a task run its task work
 * wherever it is; without it a completion could wait forever for an owner that never comes
 * back. Successive holders are ordered by the token's CAS/volatile writes, so everything the
 * holders touch (lists' consumer side, rings of the owner) needs no further synchronisation.
 *
 * <p>Part of {@link TaskContext} by inheritance (final methods, one final subclass: no extra
 * load or call on enter and exit); its fields are read-mostly and lie after the paddings
 * (see {@link TaskWorkRunner}).
 */
abstract class RunToken extends TaskWorkRunner {

    /** Token states. */
    static final int FREE = 0;
    static final int ACTIVE = 1;
    static final int SLEEPING = 2;
    static final int HELPED = 3;

    /** A context of {@link TaskContext#detached()} (benchmarks, stress tests): its owner's end is not watched. */
    private final boolean detached;

    /** What {@link #tryHelp} runs: the owner's work, in cancel mode once it is gone (or when asked). */
    private final Runnable helpRun = () -> runTaskWork(!owner.isAlive());
    private final Runnable cancelRun = () -> runTaskWork(true);

    /** Rings whose waiters help this task, and its DEFER_TASKRUN rings' local work (see {@link TaskRings}). */
    private final TaskRings rings;

    /**
     * Whether {@link TaskExit} watches the owner's end. Set once, by CAS, by the first
     * thread that finds the context may be left with work in flight; read volatile first,
     * so later calls cost one load and no CAS.
     */
    private volatile boolean exitWatched;

    private static final VarHandle STATE;
    private static final VarHandle EXIT_WATCHED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(TaskContextToken.class, "state", int.class);
            EXIT_WATCHED = l.findVarHandle(RunToken.class, "exitWatched", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    RunToken(boolean detached) {
        this.detached = detached;
        this.rings = new TaskRings(context());
    }

    /** This object as what it is: TaskContext is the only subclass, final (the cast binds its calls statically). */
    private TaskContext context() {
        return (TaskContext) this;
    }

    /** Owner only: takes the run token (nested calls just count). */
    public final void enter() {
        if (depth++ > 0) {
            return;
        }
        if (!STATE.compareAndSet(this, FREE, ACTIVE)) {
            awaitToken(FREE);
        }
    }

    /** Owner only: gives the run token back; work that arrived meanwhile gets a helper's wake. */
    public final void exit() {
        if (--depth > 0) {
            return;
        }
        STATE.setVolatile(this, FREE);
        tellAboutWorkLeft();
    }

    /**
     * Whoever just gave the token back as FREE (volatile store, then the lists' volatile
     * reads: Dekker with an adder's push and state read): work that arrived after its last
     * run found the token taken and woke nobody. A thread waiting on one of the owner's
     * shared rings may need it, and if the owner never comes back the watcher hands the work
     * to the fallback.
     */
    private void tellAboutWorkLeft() {
        if (hasPendingWork()) {
            for (HelperWaker w : rings.wakers()) {
                w.wakeHelpers();
            }
            watchExit();
        }
    }

    /** The rings tied to this task: waiters that help it, local work of its DEFER_TASKRUN rings. */
    public final TaskRings rings() {
        return rings;
    }

    /** Any thread: the owner has ended and nobody holds its token (its work needs the fallback). */
    final boolean isGoneAndFree() {
        return state == FREE && !owner.isAlive();
    }

    /** Any thread: the owner is away (not inside the engine, not asleep in a wait) with task work queued. */
    public final boolean isAwayWithWork() {
        return state == FREE && hasPendingWork();
    }

    /** Starts the watch of the owner's end, once (see {@link TaskExit}); detached contexts are never watched. */
    final void watchExit() {
        if (!exitWatched && !detached && EXIT_WATCHED.compareAndSet(this, false, true)) {
            TaskExit.watch(context());
        }
    }

    /**
     * Owner only, holding the token: publishes SLEEPING. The caller must then re-check
     * {@link #hasPendingWork()} (and its own wait condition) before parking.
     */
    public final void prepareToSleep() {
        STATE.setVolatile(this, SLEEPING);
    }

    /** Owner only, after parking (or deciding not to): takes the token back. */
    public final void wakeUpFromSleep() {
        if (!STATE.compareAndSet(this, SLEEPING, ACTIVE)) {
            awaitToken(FREE);
        }
    }

    private void awaitToken(int from) {
        // Borrowed by a helper: it gives the token back after one run of the lists.
        int spins = 0;
        while (!STATE.compareAndSet(this, from, ACTIVE) && !STATE.compareAndSet(this, SLEEPING, ACTIVE)) {
            if (++spins < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /**
     * Any thread: borrows the token if the owner is away or asleep, runs all pending work
     * (in cancel mode if asked or if the owner has died), and gives the token back.
     * Returns false if the token was not available.
     */
    public final boolean tryHelp(boolean cancel) {
        return tryWithToken(cancel ? cancelRun : helpRun);
    }

    /**
     * Any thread but the owner: borrows the token if the owner is away or asleep, runs
     * {@code action} while holding it and gives it back. Returns false if the token was not
     * available.
     */
    public final boolean tryWithToken(Runnable action) {
        if (Thread.currentThread() == owner) {
            return false;
        }
        int s = state;
        if ((s != FREE && s != SLEEPING) || !STATE.compareAndSet(this, s, HELPED)) {
            return false;
        }
        try {
            action.run();
        } finally {
            giveBack(s);
        }
        return true;
    }

    /**
     * Any thread: borrows the token (waiting for the owner to leave the engine if it is
     * inside), runs {@code action} while holding it, and gives it back. Used by close()
     * from another thread, which must not race with the owner.
     */
    public final void withToken(Runnable action) {
        if (Thread.currentThread() == owner) {
            enter();
            try {
                action.run();
            } finally {
                exit();
            }
            return;
        }
        int spins = 0;
        for (;;) {
            int s = state;
            if ((s == FREE || s == SLEEPING) && STATE.compareAndSet(this, s, HELPED)) {
                try {
                    action.run();
                } finally {
                    giveBack(s);
                }
                return;
            }
            if (++spins < 64) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(50_000L);
            }
        }
    }

    /** A helper gives the borrowed token back in the state it found it in. */
    private void giveBack(int s) {
        STATE.setVolatile(this, s);
        if (s == SLEEPING) {
            context().wakeSleeper();   // the owner re-checks its lists when it wakes
        } else {
            tellAboutWorkLeft();
        }
    }
}
