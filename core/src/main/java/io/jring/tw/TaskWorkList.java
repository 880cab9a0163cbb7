package io.jring.tw;

/**
 * A task's list of pending task work: many producers (any thread), one consumer (the
 * owner, or whoever holds the owner's run token). The four strategies of DESIGN.md section 3
 * implement it side by side so they can be compared by reading and by measuring.
 *
 * <p>Contract for every implementation:
 * <ul>
 * <li>{@link #add} is safe from any number of threads at once and never blocks for long.
 * <li>{@link #add} returns {@code true} exactly when this push is the one that made the list
 *     non-empty from the consumer's point of view: the consumer had taken everything before
 *     and has not yet seen this item. The caller then wakes the owner if it sleeps. If
 *     {@code add} returns {@code false}, a consumer is guaranteed to see the item without a
 *     further wake: either an earlier "true" adder's wake, or a consumer still running
 *     ({@link #runAll} only returns once it observed the list empty after the last item).
 * <li>{@link #runAll} is called by one thread at a time (the holder of the task's run token,
 *     with happens-before between successive holders). It hands every item it takes to the
 *     sink, each exactly once, and returns the number of take loops it made (>= 1 if it ran
 *     anything, 0 if the list was empty). Items added while it runs are run by the same
 *     call or make the next {@code add} return {@code true}.
 * <li>Order: FIFO per producer for every strategy. PRIORITY runs completion work first.
 * <li>{@link #addBatch} adds a {@link TaskWorkBatch} as if its items were added one after
 *     the other by one thread with nothing between them, but publishes them with one atomic
 *     step, so its return value is the one wake decision for the whole batch.
 * <li>{@link #isEmpty} may be called by any thread; it is exact for the consumer and, for
 *     others, ordered like a volatile read (used for the sleep/wake re-check).
 * </ul>
 */
public interface TaskWorkList {

    boolean add(TaskWork work);

    /**
     * Adds every item of a non-empty {@code batch}, oldest first, with one publication.
     * Returns what {@link #add} returns, for the batch as a whole. The caller clears the
     * batch afterwards.
     */
    boolean addBatch(TaskWorkBatch batch);

    int runAll(TaskWorkSink sink);

    boolean isEmpty();

    /** Creates the list of the given strategy. */
    static TaskWorkList create(io.jring.TaskWorkKind kind) {
        return switch (kind) {
            case LOCKED -> new LockedTaskList();
            case PRIORITY -> new PriorityTaskList();
            case LLIST -> new LlistTaskList();
            case MPSC -> new MpscTaskList();
        };
    }
}
