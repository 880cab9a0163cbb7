package io.jring.tw;

import io.jring.TaskWorkKind;
import io.jring.trace.TaskWorkRunEvent;
import io.jring.trace.Tracing;

/**
 * A task's task-work lists and their run (the kernel's {@code tctx_task_work_run} and
 * {@code io_handle_tw_list}): the holder of the run token takes every pending item, FIFO per
 * list, and runs it batched per ring, as Linux flushes a ring's completions when the next
 * item belongs to another ring. Adding is {@link TaskContext#addTaskWork}; who may run is
 * {@link RunToken}.
 *
 * <p>Part of {@link TaskContext} by inheritance, not a separate object, so a run costs no
 * extra load or call: the methods are final and the only concrete subclass is final. The
 * fields here are read-mostly (the lists, the owner, the used kinds) and lie after
 * {@code TaskContextPad2}, like all of TaskContext's own fields (TaskContextLayout.java: a
 * superclass's fields, its paddings' bytes included, are laid out before a subclass's, and
 * the byte paddings leave no hole before them for a subclass field to fill); the per-run
 * state it writes is in {@code TaskContextRun}, between paddings.
 */
abstract class TaskWorkRunner extends TaskContextPad2 {
    private static final TaskWorkKind[] KINDS = TaskWorkKind.values();
    private static final int MPSC_INDEX = TaskWorkKind.MPSC.ordinal();
    private static final int MPSC_ONLY = 1 << MPSC_INDEX;

    final Thread owner;
    /** One list per strategy, created eagerly: final array, safely published. */
    final TaskWorkList[] lists = new TaskWorkList[KINDS.length];

    /**
     * Bit per {@link TaskWorkKind} whose list has ever been used, so the owner's checks and
     * runs touch only those lists (a locked list's isEmpty takes its lock). Set by an adder
     * with CAS before its first push to that list (so an owner that reads the mask after
     * the push sees the bit); read volatile by the owner. Written once per kind.
     */
    volatile int usedKinds;

    private final TaskWorkSink sink = this::runOne;

    TaskWorkRunner() {
        this.owner = Thread.currentThread();
        for (TaskWorkKind k : KINDS) {
            lists[k.ordinal()] = TaskWorkList.create(k);
        }
    }

    /** Owner only: whether it queued task work for itself since it last asked (see {@link #selfQueued}). */
    public final boolean takeSelfQueued() {
        if (!selfQueued) {
            return false;
        }
        selfQueued = false;
        return true;
    }

    /** Any thread: true if any list has work (volatile-read quality). */
    public final boolean hasPendingWork() {
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

    /**
     * Token holder only: runs everything pending, FIFO per list, batched per ring: a ring's
     * {@link TaskWorkTarget#beginTaskRun} / {@code endTaskRun} bracket each run of
     * consecutive items for it. Returns the number of items run.
     */
    public final int runTaskWork(boolean cancel) {
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
    public final int runList(TaskWorkList list, boolean cancel) {
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
    public final boolean isRunningTaskWork() {
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
                prev.endTaskRun(runCount - targetStart);
            }
            t.beginTaskRun();
            runTarget = t;
            targetStart = runCount;
        }
        runCount++;
        w.runTaskWork(runCancel);
    }

    private void endRun() {
        running = false;
        TaskWorkTarget t = runTarget;
        if (t != null) {
            runTarget = null;
            t.endTaskRun(runCount - targetStart);
        }
    }
}
