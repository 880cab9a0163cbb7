package io.jring.tw;


/**
 * The PRIORITY strategy of seed 000 (000_fe983bc720f4678b.txt, "io_uring: add a limited tw
 * list for irq completion work"): {@link LockedTaskList} plus a second list for completion
 * work, which {@link #runAll} runs before the normal list of the same batch, so a completion
 * does not wait behind heavy work queued before it.
 *
 * <p>The cap is the kernel's rule in {@code io_req_task_work_add} (seed 000,
 * {@code MAX_EMERGENCY_TW_RATIO} 3): completion work goes to the priority list iff
 * {@code prior_nr * 3 <= nr}, where {@code nr} counts all pending items (priority ones
 * included), both counted before this add and reset at each detach. So the priority list
 * holds at most 1/3 of the pending work it joins. The patch's message and v1 code say
 * {@code <} ({@code len of new tw list < 1/3 * (len of new + old tw list)}), which
 * sends the first completion of a batch to the normal list and lets the second overtake it;
 * the author's review reply changes it to {@code <=} "to avoid inverted completion TWs". A
 * later completion that passes the cap can still overtake an earlier one that did not, so
 * jring adds one rule: once a completion item of the batch went to the normal list, the
 * later ones of that batch follow it ({@link #capped}). Completion work thus never overtakes
 * completion work: FIFO per producer holds within each class.
 *
 * <p>Invariant, under {@link #lock}: as {@link LockedTaskList} for {@code running};
 * both lists are empty iff {@code count == 0}; {@code priorCount} counts the items that
 * entered the priority list by the cap rule, so {@code priorCount * 3 <= count + 2}.
 *
 * <p>If the sink throws, the items not yet handed over go back in front of the priority list
 * (keeping their order ahead of everything newer) and the caller must run the list again.
 */
public final class PriorityTaskList implements TaskWorkList {

    /** Preallocated, so that a run allocates nothing (a method reference per call would). */
    private final java.util.function.Consumer<TaskWork> putBack = this::putBack;

    /** Kernel's MAX_EMERGENCY_TW_RATIO: priority work holds at most 1/3 of pending work. */
    static final int MAX_PRIORITY_RATIO = 3;

    /** Guards every field below and the {@code next} links of the listed items. */
    /**
     * The list's lock (the kernel's {@code task_lock} spinlock). A monitor rather than a
     * ReentrantLock: contention then allocates no queue nodes on the Java heap.
     */
    private final Object lock = new Object();

    /** Priority (completion) list, FIFO. Under {@link #lock}: adders append, consumer detaches. */
    private TaskWork priorFirst;
    private TaskWork priorLast;

    /** Normal list, FIFO. Under {@link #lock}: adders append, consumer detaches. */
    private TaskWork first;
    private TaskWork last;

    /** The kernel's {@code prior_nr} and {@code nr}. Under {@link #lock}; reset at detach. */
    private int priorCount;
    private int count;

    /** A completion item of this batch went to the normal list. Under {@link #lock}. */
    private boolean capped;

    /**
     * The priority and total counts of the consumer's last detach, so a test can check the
     * cap against the batch it runs. Consumer only, plain.
     */
    int detachedPrior;
    int detachedCount;

    /** As {@link LockedTaskList}'s: under {@link #lock}, set by adders, cleared by the consumer. */
    private boolean running;

    @Override
    public boolean add(TaskWork work) {
        synchronized (lock) {
            place(work);
            boolean wasIdle = !running;
            running = true;
            return wasIdle;
        }
    }

    /**
     * One hold of the lock places every item by the cap rule, in order, exactly as that
     * many adds in a row would (each item's link is read before place rewrites it).
     */
    @Override
    public boolean addBatch(TaskWorkBatch batch) {
        synchronized (lock) {
            for (TaskWork w = batch.first(); w != null; ) {
                TaskWork next = w.next;
                place(w);
                w = next;
            }
            boolean wasIdle = !running;
            running = true;
            return wasIdle;
        }
    }

    /** Under {@link #lock}: appends one item to the priority or the normal list, and counts it. */
    private void place(TaskWork work) {
        work.next = null;
        if (work.isCompletionWork() && !capped && priorCount * MAX_PRIORITY_RATIO <= count) {
            if (priorLast == null) {
                priorFirst = work;
            } else {
                priorLast.next = work;
            }
            priorLast = work;
            priorCount++;
        } else {
            capped |= work.isCompletionWork();
            if (last == null) {
                first = work;
            } else {
                last.next = work;
            }
            last = work;
        }
        count++;
    }

    @Override
    public int runAll(TaskWorkSink sink) {
        int loops = 0;
        for (;;) {
            TaskWork batch;
            synchronized (lock) {
                // Merge as wq_list_merge does: the priority sublist, then the normal list.
                if (priorFirst != null) {
                    priorLast.next = first;
                    batch = priorFirst;
                } else {
                    batch = first;
                }
                priorFirst = priorLast = first = last = null;
                detachedPrior = priorCount;
                detachedCount = count;
                priorCount = count = 0;
                capped = false;
                if (batch == null) {
                    running = false;
                }
            }
            if (batch == null) {
                return loops;
            }
            loops++;
            LockedTaskList.runChain(batch, sink, putBack);
        }
    }

    /** After the sink threw: the rest of the batch goes back first, counted as pending work. */
    private void putBack(TaskWork rest) {
        int n = 1;
        TaskWork restLast = rest;
        while (restLast.next != null) {
            restLast = restLast.next;
            n++;
        }
        synchronized (lock) {
            restLast.next = priorFirst;
            priorFirst = rest;
            if (priorLast == null) {
                priorLast = restLast;
            }
            count += n;
        }
    }

    @Override
    public boolean isEmpty() {
        synchronized (lock) {
            return count == 0;
        }
    }
}
