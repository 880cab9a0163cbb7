package io.jring.tw;

import io.jring.TaskWorkKind;
import io.jring.trace.TaskAddEvent;
import io.jring.trace.Tracing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A submitting thread's task context (the kernel's {@code io_uring_task}): the task-work
 * lists of that thread, across all of its rings, and the run token that says who may run
 * them. This class adds task work and wakes whoever must run it; the run of the lists is
 * {@link TaskWorkRunner}, the run token and its borrowing {@link RunToken}, the watch of the
 * owner's end {@link TaskExit}, the rings tied to the task {@link TaskRings}.
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
 * the read-mostly fields (here and in {@link TaskWorkRunner} and {@link RunToken}, all laid
 * out after the last padding) do not share a cache line with the fields the owner writes on
 * every entry and run.
 */
public final class TaskContext extends RunToken implements TaskWorkQueue {

    private static final ThreadLocal<TaskContext> CURRENT = ThreadLocal.withInitial(() -> new TaskContext(false));

    /**
     * This thread's epoll waiter, opened by the first ring that needs one and closed when
     * the last such ring lets go (io.jring.poll.PollerRef counts them). Written by the token
     * holder with volatile stores ({@link #setPoller}); read volatile by wakers, who write
     * its eventfd instead of unparking when the owner sleeps in it.
     */
    private volatile TaskPoller poller;

    private static final VarHandle WAKEUPS;
    private static final VarHandle USED_KINDS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            WAKEUPS = l.findVarHandle(TaskContextToken.class, "wakeups", long.class);
            USED_KINDS = l.findVarHandle(TaskWorkRunner.class, "usedKinds", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private TaskContext(boolean detached) {
        super(detached);
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

    /**
     * Adds a batch of task work (all for one target) with one publication and at most one
     * wake decision (see {@link TaskWorkList#addBatch}), as that many {@link #addTaskWork}
     * calls in a row would, but for the wakes. The caller clears the batch afterwards.
     */
    public void addTaskWorkBatch(TaskWorkBatch batch, TaskWorkKind kind) {
        int bit = 1 << kind.ordinal();
        if ((usedKinds & bit) == 0) {
            markUsed(bit);
        }
        if (Thread.currentThread() == owner) {
            selfQueued = true;
        }
        // Read before the add: once added, the consumer owns the items.
        TaskWorkTarget target = batch.first().target();
        boolean completionWork = batch.first().isCompletionWork();
        int n = batch.count();
        boolean woke = false;
        if (lists[kind.ordinal()].addBatch(batch)) {
            woke = wakeForNewWork(target);
        }
        if (Tracing.taskAdd) {
            for (int i = 0; i < n; i++) {   // one event per item, as for single adds
                TaskAddEvent ev = new TaskAddEvent();
                ev.completionWork = completionWork;
                ev.wokeOwner = woke && i == 0;
                ev.commit();
            }
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

    @Override
    public String toString() {
        return "TaskContext[" + owner.getName() + " state=" + state + "]";
    }
}
