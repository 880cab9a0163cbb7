package io.jring.iowq;

import java.util.List;
import java.util.function.Predicate;

/**
 * An account's queued work ({@code acct->work_list} with its hash bookkeeping): a FIFO of
 * runnable items plus the {@link HashedWork} chains that hold back later items of a busy
 * key. Invariant: the runnable queue holds only unhashed items and, for each hashed key that
 * no worker is running, that key's first waiting item; so its head is always runnable.
 *
 * <p>Not thread-safe: guarded by the account's monitor.
 */
final class WorkList {

    private final WorkRing runnable = new WorkRing(16);
    private final HashedWork hashed = new HashedWork();
    /** Items in {@link #runnable} plus all chains' pending items. */
    private int size;

    /** All queued items, runnable or held back by their key. */
    int size() {
        return size;
    }

    /** Items a worker could take right now. */
    int runnableCount() {
        return runnable.size();
    }

    /** Queues {@code w}; returns true when it is runnable (so it needs a worker). */
    boolean add(IoWork w) {
        size++;
        long key = w.hashKey();
        if (key != 0) {
            HashedWork.Chain c = hashed.find(key);
            if (c != null) {
                c.pending.addLast(w); // runs after the key's current or queued item
                return false;
            }
            hashed.add(key);
        }
        runnable.addLast(w);
        return true;
    }

    /**
     * The next item for {@code w}, or null. A worker that owns a chain first runs the items
     * that were pending when it took the chain, then puts the key back in line.
     */
    IoWork take(IoWorker w) {
        HashedWork.Chain c = w.chain;
        if (c != null) {
            if (w.chainLeft > 0 && !c.pending.isEmpty()) {
                w.chainLeft--;
                size--;
                return c.pending.pollFirst();
            }
            releaseChain(w);
        }
        IoWork next = runnable.pollFirst();
        if (next != null) {
            size--;
            long key = next.hashKey();
            if (key != 0) {
                c = hashed.find(key);
                c.running = true;
                w.chain = c;
                w.chainLeft = c.pending.size();
            }
        }
        return next;
    }

    /** Gives up the worker's chain, if any: the key's next item goes to the tail. */
    void releaseChain(IoWorker w) {
        HashedWork.Chain c = w.chain;
        if (c == null) {
            return;
        }
        w.chain = null;
        if (c.pending.isEmpty()) {
            hashed.remove(c);
        } else {
            c.running = false;
            runnable.addLast(c.pending.pollFirst());
        }
    }

    /**
     * Removes queued items {@code match} accepts (all, or only the first) into {@code out};
     * returns how many. Removing a key's queued first item lets its next item take its place.
     */
    int remove(Predicate<? super IoWork> match, boolean all, List<IoWork> out) {
        int removed = 0;
        for (int i = 0; i < runnable.size() && (all || removed == 0); ) {
            IoWork w = runnable.get(i);
            if (!match.test(w)) {
                i++;
                continue;
            }
            HashedWork.Chain c = w.hashKey() != 0 ? hashed.find(w.hashKey()) : null;
            if (c != null && !c.pending.isEmpty()) {
                runnable.set(i, c.pending.pollFirst()); // tested on the next turn
            } else {
                if (c != null) {
                    hashed.remove(c);
                }
                runnable.removeAt(i);
            }
            out.add(w);
            removed++;
        }
        if (all || removed == 0) {
            removed += hashed.removePending(match, all, out);
        }
        size -= removed;
        return removed;
    }

    /** Moves every queued item to {@code out} (shutdown, or no worker can be started). */
    void drainTo(List<IoWork> out) {
        runnable.drainTo(out);
        hashed.drainTo(out);
        size = 0;
    }
}
