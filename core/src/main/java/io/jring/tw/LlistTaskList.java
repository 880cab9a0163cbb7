package io.jring.tw;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The LLIST strategy of seed 001 (001_715eb3e4d87acdb6.txt, "io_uring: batch task_work"):
 * a lock-free LIFO stack ({@code llist_add}) that the consumer takes whole with one xchg.
 *
 * <p>While the consumer runs a batch, {@link #head} holds the private {@link #FAKE} node
 * instead of null, so adders see a non-empty list and return {@code false}: the running
 * consumer is responsible for them. When done it swaps {@code FAKE -> null} with one cmpxchg;
 * if that fails, new work was pushed on top of the fake node and it takes that too (one more
 * loop). The kernel runs each batch newest-first; jring reverses it to keep FIFO.
 *
 * <p>Invariant: {@code head} is null iff the list is empty and no {@link #runAll} is between
 * its first xchg and its successful cmpxchg. {@code FAKE} only ever appears as the value of
 * {@code head} or as the last link of a chain, and is never handed to a sink.
 *
 * <p>If the sink throws, the items not yet handed over are pushed back under everything newer
 * and the throw goes on; {@code head} is then a plain non-empty chain, so the caller must run
 * the list again.
 */
public final class LlistTaskList implements TaskWorkList {

    /** Preallocated, so that a run allocates nothing (a method reference per call would). */
    private final java.util.function.Consumer<TaskWork> putBack = this::putBack;

    /**
     * The kernel's on-stack {@code fake} node. Shared by all lists: it is only ever the value
     * of {@code head} or the end of a chain, so its own {@code next} is never written.
     */
    private static final TaskWork FAKE = new TaskWork() {
        @Override
        public TaskWorkTarget target() {
            throw new AssertionError("the fake node is never run");
        }

        @Override
        public void runTaskWork(boolean cancel) {
            throw new AssertionError("the fake node is never run");
        }
    };

    /**
     * Newest item (chain ends in null or {@link #FAKE}), {@code FAKE} while a batch runs, or
     * null. Written by adders with a volatile CAS and by the consumer with getAndSet and CAS.
     * Volatile throughout: the CAS publishes the item's plain-written {@code next}, and the
     * adder's CAS followed by the caller's volatile read of the owner's sleep flag must be
     * totally ordered against the owner's "set sleeping, then {@link #isEmpty}".
     */
    private volatile TaskWork head;

    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup()
                    .findVarHandle(LlistTaskList.class, "head", TaskWork.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public boolean add(TaskWork work) {
        TaskWork old;
        do {
            // Opaque is enough for the guess: the CAS checks it and publishes work.next.
            old = (TaskWork) HEAD.getOpaque(this);
            work.next = old;
        } while (!HEAD.weakCompareAndSet(this, old, work));
        return old == null;
    }

    /**
     * {@code llist_add_batch}: the batch (oldest first) is turned into a newest-first chain
     * privately, then pushed with one CAS of the head, as one item is.
     */
    @Override
    public boolean addBatch(TaskWorkBatch batch) {
        TaskWork oldest = batch.first();
        TaskWork newest = null;
        for (TaskWork w = oldest; w != null; ) {
            TaskWork next = w.next;
            w.next = newest;
            newest = w;
            w = next;
        }
        TaskWork old;
        do {
            old = (TaskWork) HEAD.getOpaque(this);
            oldest.next = old;
        } while (!HEAD.weakCompareAndSet(this, old, newest));
        return old == null;
    }

    @Override
    public int runAll(TaskWorkSink sink) {
        if (HEAD.getVolatile(this) == null) {
            return 0;
        }
        int loops = 0;
        do {
            loops++;
            runReversed((TaskWork) HEAD.getAndSet(this, FAKE), sink);
        } while (!HEAD.compareAndSet(this, FAKE, null));
        return loops;
    }

    /**
     * Reverses a taken chain (newest first, ending in null or {@code FAKE}) and runs it oldest
     * first. The chain is private to the consumer now: plain accesses, and every link is read
     * before its item is handed over, because the sink may re-add the item.
     */
    private void runReversed(TaskWork newest, TaskWorkSink sink) {
        TaskWork oldest = null;
        for (TaskWork w = newest; w != null && w != FAKE; ) {
            TaskWork next = w.next;
            w.next = oldest;
            oldest = w;
            w = next;
        }
        LockedTaskList.runChain(oldest, sink, putBack);
    }

    /**
     * After the sink threw: rebuilds the stack as (items pushed since, newest first), then the
     * not-yet-run rest reversed, so that the next run still runs the rest first.
     */
    private void putBack(TaskWork rest) {
        TaskWork chain = null;
        for (TaskWork w = rest; w != null; ) {
            TaskWork next = w.next;
            w.next = chain;
            chain = w;
            w = next;
        }
        for (;;) {
            // head is FAKE, or the items pushed onto it since: take those and put them on top.
            TaskWork newer = (TaskWork) HEAD.getAndSet(this, FAKE);
            if (newer != FAKE) {
                TaskWork w = newer;
                while (w.next != FAKE) {
                    w = w.next;
                }
                w.next = chain;
                chain = newer;
            }
            if (HEAD.compareAndSet(this, FAKE, chain)) {
                return;
            }
        }
    }

    @Override
    public boolean isEmpty() {
        TaskWork h = (TaskWork) HEAD.getVolatile(this);
        return h == null || h == FAKE;
    }
}
