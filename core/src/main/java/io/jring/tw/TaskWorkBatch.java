package io.jring.tw;

/**
 * Task work gathered by one thread for one list, to be added in one step
 * ({@link TaskWorkList#addBatch}: the kernel's {@code llist_add_batch}, one atomic
 * publication for the whole chain, and so at most one wake decision). The items are linked
 * oldest first through their intrusive {@code next}, so gathering allocates nothing.
 *
 * <p>Private to the thread that gathers (plain fields, no sharing): from {@link #append} to
 * the add the items are its own, as a single {@link TaskWorkList#add}'s item is. The add
 * publishes the links with the list's own atomic step; once it returns, the consumer may
 * already have taken and re-linked the items, so the batch must be {@link #clear}ed and
 * never walked again.
 */
public final class TaskWorkBatch {
    /** Oldest item, or null when empty. Gatherer only: plain. */
    private TaskWork first;
    /** Newest item. Gatherer only: plain; its {@code next} is the list's to set. */
    private TaskWork last;
    /** Items gathered. Gatherer only: plain. */
    private int count;

    /** Adds {@code work} as the newest item (the gatherer owns it until the batch's add). */
    public void append(TaskWork work) {
        work.next = null;
        if (last == null) {
            first = work;
        } else {
            last.next = work;
        }
        last = work;
        count++;
    }

    public int count() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** The oldest item (its target is the batch's target when all share one). */
    public TaskWork first() {
        return first;
    }

    TaskWork last() {
        return last;
    }

    /** After the add: the items belong to the list now. */
    public void clear() {
        first = null;
        last = null;
        count = 0;
    }
}
