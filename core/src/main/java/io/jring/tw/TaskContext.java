package io.jring.tw;

import io.jring.TaskWorkKind;
import io.jring.trace.TaskAddEvent;
import io.jring.trace.TaskWorkRunEvent;
import io.jring.trace.Tracing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A submitting thread's task context (the kernel's {@code io_uring_task}): the task-work
 * lists of that thread, across all of its rings, and the run token that says who may run
 * them.
 *
 * <p><b>Run token.</b> Task work is single-consumer: only the holder of the token runs it.
 * The owner takes the token on every entry into any of its rings ({@link #enter}) and puts
 * it back on exit. While the owner is away (not inside the engine) or asleep in a wait,
 * another thread may borrow the token ({@link #tryHelp}) to run the owner's work: a thread
 * waiting on a shared ring, {@code close()} from another thread, or the fallback when the
 * owner has died. This is jring's stand-in for Linux's TWA_SIGNAL, which makes a task run
 * its task work wherever it is; without it a completion could wait forever for an owner
 * that never comes back. Successive holders are ordered by the token's CAS/volatile writes,
 * so everything the holders touch (lists' consumer side, rings of the owner) needs no
 * further synchronisation.
 *
 * <p><b>Wakeups.</b> An adder whose push made a list non-empty wakes the owner only if the
 * owner published {@link #SLEEPING}; if the owner is away, it asks the work's target ring
 * to wake a thread waiting on it (who will help), or hands the context to the
 * {@link Fallback} when the owner has died. The owner, before sleeping, publishes SLEEPING
 * with a volatile write and then re-checks its lists (Dekker with the adder's push and state
 * read): one of the two always sees the other.
 *
 * <p>Layout: the run token and the owner-only run state are declared in the classes of
 * {@code TaskContextLayout.java}, each between paddings, so adders reading the token and
 * the read-mostly fields here do not share a cache line with the fields the owner writes on
 * every entry and run.
 */
public final class TaskContext extends TaskContextPad2 implements TaskWorkQueue {

    /** Token states. */
    static final int FREE = 0;
    static final int ACTIVE = 1;
    static final int SLEEPING = 2;
    static final int HELPED = 3;

    private static final ThreadLocal<TaskContext> CURRENT = ThreadLocal.withInitial(() -> new TaskContext(false));
    private static final TaskWorkKind[] KINDS = TaskWorkKind.values();

    private final Thread owner;
    /** A context of {@link #detached()} (benchmarks, stress tests): its owner's end is not watched. */
    private final boolean detached;
    /** One list per strategy, created eagerly: final array, safely published. */
    private final TaskWorkList[] lists = new TaskWorkList[KINDS.length];

    /**
     * Bit per {@link TaskWorkKind} whose list has ever been used, so the owner's checks and
     * runs touch only those lists (a locked list's isEmpty takes its lock). Set by an adder
     * with CAS before its first push to that list (so an owner that reads the mask after
     * the push sees the bit); read volatile by the owner. Written once per kind.
     */
    private volatile int usedKinds;

    private final TaskWorkSink sink = this::runOne;
    /** What {@link #tryHelp} runs: the owner's work, in cancel mode once it is gone (or when asked). */
    private final Runnable helpRun = () -> runTaskWork(!isOwnerAlive());
    private final Runnable cancelRun = () -> runTaskWork(true);

    /** Rings whose waiters help this task, and its DEFER_TASKRUN rings' local work (see {@link TaskRings}). */
    private final TaskRings rings = new TaskRings(this);

    /**
     * Whether {@link TaskExit} watches the owner's end. Set once, by CAS, by the first
     * thread that finds the context may be left with work in flight; read volatile first,
     * so later calls cost one load and no CAS.
     */
    private volatile boolean exitWatched;

    /**
     * This thread's epoll waiter, opened by the first ring that needs one and closed when
     * the last such ring lets go (io.jring.poll.PollerRef counts them). Written by the token
     * holder with volatile stores ({@link #setPoller}); read volatile by wakers, who write
     * its eventfd instead of unparking when the owner sleeps in it.
     */
    private volatile TaskPoller poller;

    private static final VarHandle STATE;
    private static final VarHandle WAKEUPS;
    private static final VarHandle USED_KINDS;
    private static final VarHandle EXIT_WATCHED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(TaskContextToken.class, "state", int.class);
            WAKEUPS = l.findVarHandle(TaskContextToken.class, "wakeups", long.class);
            USED_KINDS = l.findVarHandle(TaskContext.class, "usedKinds", int.class);
            EXIT_WATCHED = l.findVarHandle(TaskContext.class, "exitWatched", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private TaskContext(boolean detached) {
        this.owner = Thread.currentThread();
        this.detached = detached;
        for (TaskWorkKind k : KINDS) {
            lists[k.ordinal()] = TaskWorkList.create(k);
        }
    }

    /**
     * A context owned by the calling thread but not its registered one: for benchmarks and
     * stress tests that need a fresh context per trial. The engine uses {@link #current()}.
     */
    public static TaskContext detached() {
        return new TaskContext(true);
    }

    /** The calling thread's context, created on first use. */
    public static TaskContext current() {
        return CURRENT.get();
    }

    @Override
    public Thread owner() {
        return owner;
    }

    public boolean isOwnerAlive() {
        return owner.isAlive();
    }

    // ---------------------------------------------------------------- adding

    /**
     * Adds task work from any thread to the list of the given strategy, waking whoever must
     * run it (see the class comment).
     */
    @Override
    public void addTaskWork(TaskWork work, TaskWorkKind kind) {
        int bit = 1 << kind.ordinal();
        if ((usedKinds & bit) == 0) {
            markUsed(bit);
        }
        if (Thread.currentThread() == owner) {
            selfQueued = true;
        }
        boolean wasEmpty = lists[kind.ordinal()].add(work);
        boolean woke = false;
        if (wasEmpty) {
            woke = wakeForNewWork(work.target());
        }
        if (Tracing.taskAdd) {
            TaskAddEvent ev = new TaskAddEvent();
            ev.completionWork = work.isCompletionWork();
            ev.wokeOwner = woke;
            ev.commit();
        }
    }

    private void markUsed(int bit) {
        int cur;
        do {
            cur = usedKinds;
        } while ((cur & bit) == 0 && !USED_KINDS.compareAndSet(this, cur, cur | bit));
    }

    /** After a push made a list non-empty. Returns true if the owner was unparked. */
    private boolean wakeForNewWork(TaskWorkTarget target) {
        int s = state;
        if (s == SLEEPING) {
            wakeOwner();
            return true;
        }
        if (s == FREE) {
            // Owner is away: someone else must be able to make progress.
            if (!owner.isAlive()) {
                Fallback.schedule(this);
            } else {
                if (target instanceof HelperWaker w) {
                    w.wakeHelpers();
                }
                watchExit();   // in case it never comes back
            }
        }
        // ACTIVE or HELPED: the holder re-checks the lists before it lets go of the token.
        return false;
    }

    /** Wakes the sleeping owner; counted so tests can assert "woken once". */
    public void wakeOwner() {
        WAKEUPS.getAndAdd(this, 1L);
        wakeSleeper();
    }

    /** Any thread: wakes the owner's sleep: its poller's eventfd if it sleeps in epoll, else unpark. */
    public void wakeSleeper() {
        TaskPoller p = poller;
        if (p != null && p.isSleeping()) {
            p.wake();
        } else {
            LockSupport.unpark(owner);
        }
    }

    // ---------------------------------------------------------------- poller

    /** This thread's poller, or null if none is open (the token holder's view; wakers read it too). */
    public TaskPoller poller() {
        return poller;
    }

    /**
     * Token holder (PollerRef): {@code p} is this thread's poller now, or none ({@code null},
     * closed). An open one has the owner's end watched: it may end with polls armed.
     */
    public void setPoller(TaskPoller p) {
        poller = p;
        if (p != null) {
            watchExit();
        }
    }

    public long wakeups() {
        return wakeups;
    }

    // ---------------------------------------------------------------- token

    /** Owner only: takes the run token (nested calls just count). */
    public void enter() {
        if (depth++ > 0) {
            return;
        }
        if (!STATE.compareAndSet(this, FREE, ACTIVE)) {
            awaitToken(FREE);
        }
    }

    /** Owner only: gives the run token back; work that arrived meanwhile gets a helper's wake. */
    public void exit() {
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
    public TaskRings rings() {
        return rings;
    }

    /** Any thread: the owner has ended and nobody holds its token (its work needs the fallback). */
    boolean isGoneAndFree() {
        return state == FREE && !owner.isAlive();
    }

    /** Any thread: the owner is away (not inside the engine, not asleep in a wait) with task work queued. */
    public boolean isAwayWithWork() {
        return state == FREE && hasPendingWork();
    }

    /** Starts the watch of the owner's end, once (see {@link TaskExit}); detached contexts are never watched. */
    void watchExit() {
        if (!exitWatched && !detached && EXIT_WATCHED.compareAndSet(this, false, true)) {
            TaskExit.watch(this);
        }
    }

    /**
     * Owner only, holding the token: publishes SLEEPING. The caller must then re-check
     * {@link #hasPendingWork()} (and its own wait condition) before parking.
     */
    public void prepareToSleep() {
        STATE.setVolatile(this, SLEEPING);
    }

    /** Owner only, after parking (or deciding not to): takes the token back. */
    public void wakeUpFromSleep() {
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
    public boolean tryHelp(boolean cancel) {
        return tryWithToken(cancel ? cancelRun : helpRun);
    }

    /**
     * Any thread but the owner: borrows the token if the owner is away or asleep, runs
     * {@code action} while holding it and gives it back. Returns false if the token was not
     * available.
     */
    public boolean tryWithToken(Runnable action) {
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
    public void withToken(Runnable action) {
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
            wakeSleeper();   // the owner re-checks its lists when it wakes
        } else {
            tellAboutWorkLeft();
        }
    }

    // ---------------------------------------------------------------- running

    /** Owner only: whether it queued task work for itself since it last asked (see {@link #selfQueued}). */
    public boolean takeSelfQueued() {
        if (!selfQueued) {
            return false;
        }
        selfQueued = false;
        return true;
    }

    /** Any thread: true if any list has work (volatile-read quality). */
    public boolean hasPendingWork() {
        int used = usedKinds;
        if (used == MPSC_ONLY) {
            return !lists[MPSC_INDEX].isEmpty();
        }
        for (int i = 0; used != 0; i++, used >>>= 1) {
            if ((used & 1) != 0 && !lists[i].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static final int MPSC_INDEX = TaskWorkKind.MPSC.ordinal();
    private static final int MPSC_ONLY = 1 << MPSC_INDEX;

    /**
     * Token holder only: runs everything pending, FIFO per list, batched per ring: a ring's
     * {@link TaskWorkTarget#beginTaskRun} / {@code endTaskRun} bracket each run of
     * consecutive items for it. Returns the number of items run.
     */
    public int runTaskWork(boolean cancel) {
        startRun(cancel);
        int loops = 0;
        try {
            int used = usedKinds;
            for (int i = 0; used != 0; i++, used >>>= 1) {
                if ((used & 1) != 0 && !lists[i].isEmpty()) {
                    loops += lists[i].runAll(sink);
                }
            }
        } finally {
            endRun();
        }
        return traceRun(loops, cancel);
    }

    /** Runs a list that is not one of this context's (a ring's DEFER_TASKRUN local list). */
    public int runList(TaskWorkList list, boolean cancel) {
        startRun(cancel);
        int loops;
        try {
            loops = list.runAll(sink);
        } finally {
            endRun();
        }
        return traceRun(loops, cancel);
    }

    private void startRun(boolean cancel) {
        running = true;
        runCancel = cancel;
        runCount = 0;
    }

    /** Token holder: a task-work run is in progress on this context (runs do not nest). */
    public boolean isRunningTaskWork() {
        return running;
    }

    /** The TaskWorkRun event (the kernel's io_uring_task_work_run tracepoint); returns the items run. */
    private int traceRun(int loops, boolean cancel) {
        int count = runCount;
        if (count > 0 && Tracing.taskWorkRun) {
            TaskWorkRunEvent ev = new TaskWorkRunEvent();
            ev.count = count;
            ev.loops = loops;
            ev.cancel = cancel;
            ev.commit();
        }
        return count;
    }

    private void runOne(TaskWork w) {
        TaskWorkTarget t = w.target();
        if (t != runTarget) {
            if (runTarget != null) {
                TaskWorkTarget prev = runTarget;
                runTarget = null;
                prev.endTaskRun();
            }
            t.beginTaskRun();
            runTarget = t;
        }
        runCount++;
        w.runTaskWork(runCancel);
    }

    private void endRun() {
        running = false;
        TaskWorkTarget t = runTarget;
        if (t != null) {
            runTarget = null;
            t.endTaskRun();
        }
    }

    @Override
    public String toString() {
        return "TaskContext[" + owner.getName() + " state=" + state + "]";
    }
}
