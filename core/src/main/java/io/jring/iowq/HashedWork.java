package io.jring.iowq;

import java.util.List;
import java.util.function.Predicate;

/**
 * Bookkeeping for hashed work of one account: work items with the same non-zero
 * {@link IoWork#hashKey} run one at a time, in queue order (Linux hashes buffered writes by
 * inode so they do not fight over the inode lock; {@code io_wq_hash}).
 *
 * <p>Linux keeps the items of one hash contiguous in the account's list ({@code hash_tail})
 * and a worker takes the whole run of them at once. Here every key that has work queued or
 * running owns a {@link Chain}: the account's queue holds at most the first waiting item of
 * a key (and none while the key runs); the later items wait in the chain's
 * {@code pending} ring. So the head of the account's queue is always runnable and a worker
 * never scans past busy keys.
 *
 * <p>An open-addressing table (linear probing, backward-shift deletion) keyed by the hash
 * key; removed chains are recycled, so steady state allocates nothing. Not thread-safe:
 * guarded by the account's monitor.
 */
final class HashedWork {

    /** One key's state. All fields guarded by the account's monitor. */
    static final class Chain {
        long key;
        /** A worker is running this key's work (it owns the chain until it releases it). */
        boolean running;
        /** Later items of this key, in queue order, behind the one queued or running. */
        final WorkRing pending = new WorkRing(4);
    }

    private Chain[] table = new Chain[16];
    private int size;
    private Chain[] spare = new Chain[8];
    private int spareCount;

    /** The chain of {@code key}, or null when no work of that key is queued or running. */
    Chain find(long key) {
        int mask = table.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Chain c = table[i];
            if (c == null || c.key == key) {
                return c;
            }
        }
    }

    /** Adds an empty, not running chain for {@code key}, which must not be present. */
    Chain add(long key) {
        if (size + 1 > table.length / 2) {
            resize(table.length << 1);
        }
        Chain c = spareCount > 0 ? spare[--spareCount] : new Chain();
        spare[spareCount] = null;
        c.key = key;
        c.running = false;
        insert(c);
        size++;
        return c;
    }

    /** Removes {@code c} (whose pending ring must be empty) and keeps it for reuse. */
    void remove(Chain c) {
        int mask = table.length - 1;
        int i = slot(c.key, mask);
        while (table[i] != c) {
            i = (i + 1) & mask;
        }
        table[i] = null;
        // Backward-shift deletion: pull later members of the probe run into the hole.
        for (int j = (i + 1) & mask; table[j] != null; j = (j + 1) & mask) {
            int home = slot(table[j].key, mask);
            if (((j - home) & mask) >= ((j - i) & mask)) {
                table[i] = table[j];
                table[j] = null;
                i = j;
            }
        }
        size--;
        if (spareCount == spare.length) {
            spare = java.util.Arrays.copyOf(spare, spare.length << 1);
        }
        spare[spareCount++] = c;
    }

    /**
     * Removes pending items that {@code match} accepts (all of them, or only the first) and
     * adds them to {@code out}; returns how many. Chains stay, even when emptied: their first
     * item is still queued or running.
     */
    int removePending(Predicate<? super IoWork> match, boolean all, List<IoWork> out) {
        int removed = 0;
        for (Chain c : table) {
            if (c == null) {
                continue;
            }
            for (int i = 0; i < c.pending.size(); ) {
                if (!match.test(c.pending.get(i))) {
                    i++;
                    continue;
                }
                out.add(c.pending.removeAt(i));
                removed++;
                if (!all) {
                    return removed;
                }
            }
        }
        return removed;
    }

    /**
     * Shutdown: moves every pending item to {@code out} and drops the chains no worker is
     * running (their first item is in the account's queue, drained by the caller).
     */
    void drainTo(List<IoWork> out) {
        Chain[] old = table.clone();
        for (Chain c : old) {
            if (c != null) {
                c.pending.drainTo(out);
                if (!c.running) {
                    remove(c);
                }
            }
        }
    }

    private void insert(Chain c) {
        int mask = table.length - 1;
        int i = slot(c.key, mask);
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = c;
    }

    private void resize(int capacity) {
        Chain[] old = table;
        table = new Chain[capacity];
        for (Chain c : old) {
            if (c != null) {
                insert(c);
            }
        }
    }

    private static int slot(long key, int mask) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }
}
