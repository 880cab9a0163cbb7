package io.jring.tw;

import io.jring.TaskWorkKind;

/**
 * A task's task-work lists as a thread that hands work to it sees them (a {@link TaskContext}):
 * what the poller thread queues its batches of readiness on. Adding wakes the owner when it
 * must run the work (see {@link TaskContext}).
 */
public interface TaskWorkQueue {
    /** Any thread: adds {@code work} to the list of strategy {@code kind}. */
    void addTaskWork(TaskWork work, TaskWorkKind kind);

    /** The thread that owns the lists. */
    Thread owner();
}
