package io.jring.tw;

import java.util.function.Consumer;

/**
 * The LOCKED strategy: Linux's task list before seed 001 (001_715eb3e4d87acdb6.txt removes
 * it): a lock, an intrusive FIFO list and a {@code running} flag ({@code tctx->task_running}).
 *
 * <p>Invariant, under {@link #lock}: {@code running} is true from the first add after an idle
 * point until {@link #runAll} detaches an empty list. So {@code running == false} implies the
 * list is empty and nobody is responsible for it: the adder that sets it again returns
 * {@code true} and must wake the owner. Adds made while the consumer runs return
 * {@code false}; that consumer detaches again before it clears {@code running}.
 *
 * <p>If the sink throws, {@link #runAll} puts the items it has not handed over back at the
 * front and rethrows with {@code running} still set: the caller must run the list again.
 */
public final class LockedTaskList implements TaskWorkList {

    /** Guards every field below and the {@code next} links of the listed items. */
    /**
     * The list's lock (the kernel's {@code task_lock} spinlock). A monitor rather than a
     * ReentrantLock: contention then allocates no queue nodes on the Java heap.
     */
    private final Object lock = new Object();

    /** Oldest item, or null. Under {@link #lock}: written by adders and the consumer. */
    private TaskWork first;

    /** Newest item, or null. Under {@link #lock}: written by adders and the consumer. */
    private TaskWork last;

    /**
     * The owner has been told about the list (a "true" add happened) and has not yet found it
     * empty. Under {@link #lock}: set by adders, cleared by the consumer.
     */
    private boolean running;

    /** Preallocated, so that a run allocates nothing (a method reference per call would). */
    private final Consumer<TaskWork> putBack = this::putBack;

    @Override
    public boolean add(TaskWork work) {
        work.next = null;
        synchronized (lock) {
            if (last == null) {
                first = work;
            } else {
                last.next = work;
            }
            last = work;
            boolean wasIdle = !running;
            running = true;
            return wasIdle;
        }
    }

    /** One hold of the lock appends the whole chain (already linked oldest first). */
    @Override
    public boolean addBatch(TaskWorkBatch batch) {
        TaskWork chainLast = batch.last();
        chainLast.next = null;
        synchronized (lock) {
            if (last == null) {
                first = batch.first();
            } else {
                last.next = batch.first();
            }
            last = chainLast;
            boolean wasIdle = !running;
            running = true;
            return wasIdle;
        }
    }

    @Override
    public int runAll(TaskWorkSink sink) {
        int loops = 0;
        for (;;) {
            TaskWork batch;
            synchronized (lock) {
                batch = first;
                first = last = null;
                if (batch == null) {
                    running = false;
                }
            }
            if (batch == null) {
                return loops;
            }
            loops++;
            runChain(batch, sink, putBack);
        }
    }

    /**
     * Runs a detached FIFO chain, outside any lock. Each link is read before the item is
     * handed over, because the sink may re-add the item (which rewrites {@code next}). If the
     * sink throws, the chain's not-yet-run rest goes to {@code putBack} and the throw goes on.
     */
    static void runChain(TaskWork work, TaskWorkSink sink, Consumer<TaskWork> putBack) {
        try {
            while (work != null) {
                TaskWork taken = work;
                work = taken.next;
                taken.next = null;
                sink.accept(taken);
            }
        } finally {
            if (work != null) {
                putBack.accept(work);
            }
        }
    }

    /** After the sink threw: the rest of the batch goes back in front of newer items. */
    private void putBack(TaskWork rest) {
        TaskWork restLast = rest;
        while (restLast.next != null) {
            restLast = restLast.next;
        }
        synchronized (lock) {
            restLast.next = first;
            first = rest;
            if (last == null) {
                last = restLast;
            }
        }
    }

    @Override
    public boolean isEmpty() {
        synchronized (lock) {
            return first == null;
        }
    }
}
