package io.jring.iowq;

/**
 * A growing ring buffer of work items, FIFO with indexed access: the storage behind an
 * account's queue and each hashed chain (the kernel's {@code io_wq_work_list}, which links
 * through a node inside each work item; {@link IoWork} has no link, so the slots live here).
 * An {@link java.util.ArrayDeque} would do for FIFO, but cancellation must look at and
 * replace items in the middle, which needs an index.
 *
 * <p>Not thread-safe: every instance is guarded by its account's monitor. Allocation-free once
 * the array has grown to the deepest queue seen.
 */
final class WorkRing {

    private IoWork[] items;
    /** Index of the first item; the array length is a power of two. */
    private int head;
    private int size;

    WorkRing(int initialCapacity) {
        items = new IoWork[Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void addLast(IoWork w) {
        if (size == items.length) {
            grow();
        }
        items[(head + size) & (items.length - 1)] = w;
        size++;
    }

    /** Removes and returns the first item, or null when empty. */
    IoWork pollFirst() {
        if (size == 0) {
            return null;
        }
        IoWork w = items[head];
        items[head] = null;
        head = (head + 1) & (items.length - 1);
        size--;
        return w;
    }

    IoWork get(int i) {
        return items[(head + i) & (items.length - 1)];
    }

    void set(int i, IoWork w) {
        items[(head + i) & (items.length - 1)] = w;
    }

    /** Removes the item at index {@code i}, keeping the order of the others. */
    IoWork removeAt(int i) {
        int mask = items.length - 1;
        IoWork w = get(i);
        // Shift the shorter side over the hole.
        if (i < size / 2) {
            for (int j = i; j > 0; j--) {
                items[(head + j) & mask] = items[(head + j - 1) & mask];
            }
            items[head] = null;
            head = (head + 1) & mask;
        } else {
            for (int j = i; j < size - 1; j++) {
                items[(head + j) & mask] = items[(head + j + 1) & mask];
            }
            items[(head + size - 1) & mask] = null;
        }
        size--;
        return w;
    }

    /** Moves every item, in order, to {@code out}, leaving this ring empty. */
    void drainTo(java.util.List<IoWork> out) {
        for (IoWork w; (w = pollFirst()) != null; ) {
            out.add(w);
        }
    }

    private void grow() {
        IoWork[] bigger = new IoWork[items.length << 1];
        for (int i = 0; i < size; i++) {
            bigger[i] = get(i);
        }
        items = bigger;
        head = 0;
    }
}
