package io.jring.core;

import io.jring.Cqe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The CQ: preallocated {@link Cqe} slots, a head advanced by the reader and a tail
 * published by the poster, plus the {@link OverflowList} behind it.
 *
 * <p>Two roles, like the kernel's shared CQ ring: the <em>poster</em> (whoever holds the
 * ring's posting right: its owner's run token, or its lock for shared rings) fills slots at
 * {@code localTail} with plain writes and publishes them all at once with {@link #flush}
 * (one volatile store per batch, so completions are published once per submit or per run
 * of task work); the <em>reader</em> (the application thread) reads the tail with acquire,
 * reads the slots, and advances the head with a release store so the poster never
 * overwrites a slot still being read.
 * Threads sleeping for CQEs are in the ring's {@link CqWait}.
 */
public final class CompletionQueue {
    private static final ApiAccess API = ApiAccess.get();

    private final Cqe[] slots;
    private final int mask;
    private final int entries;
    final OverflowList overflow = new OverflowList();

    /** Reader writes (setRelease), poster reads (getAcquire) to find free slots. */
    private int head;
    /** Poster writes (setVolatile in flush: the store must be ordered before the read of the
     * ring's waiters that follows it, see {@link CqWait}), reader reads (getAcquire; getVolatile
     * in {@link #readyForSleep}). */
    private int tail;

    // Poster-only, plain.
    /** Mirrors !overflow.isEmpty() so the post fast path reads one field of this object. */
    private boolean overflowing;
    private int localTail;
    private int cachedHead;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(CompletionQueue.class, "head", int.class);
            TAIL = l.findVarHandle(CompletionQueue.class, "tail", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public CompletionQueue(int entries) {
        this.entries = entries;
        this.mask = entries - 1;
        this.slots = new Cqe[entries];
        for (int i = 0; i < entries; i++) {
            slots[i] = API.newCqe();
        }
    }

    int entries() {
        return entries;
    }

    // ---------------------------------------------------------------- poster side

    /** Fills the next slot, or appends to the overflow list. Returns false if it overflowed. */
    public boolean post(long userData, int res, int flags) {
        if (!overflowing && hasRoom()) {
            int t = localTail;
            API.fillCqe(slots[t & mask], userData, res, flags);
            localTail = t + 1;
            return true;
        }
        overflow.add(userData, res, flags);
        overflowing = true;
        return false;
    }

    private boolean hasRoom() {
        int t = localTail;
        if (t - cachedHead < entries) {
            return true;
        }
        cachedHead = (int) HEAD.getAcquire(this);
        return t - cachedHead < entries;
    }

    /** Moves overflowed CQEs into free slots, in order. Returns how many moved. */
    int flushOverflow() {
        int moved = 0;
        while (!overflow.isEmpty() && hasRoom()) {
            int t = localTail;
            API.fillCqe(slots[t & mask], overflow.peekUserData(), overflow.peekRes(), overflow.peekFlags());
            localTail = t + 1;
            overflow.removeFirst();
            moved++;
        }
        overflowing = !overflow.isEmpty();
        return moved;
    }

    /** Publishes filled slots. Returns true if anything new became visible. */
    public boolean flush() {
        int t = localTail;
        if (t != (int) TAIL.getOpaque(this)) {
            TAIL.setVolatile(this, t);
            return true;
        }
        return false;
    }

    /**
     * Waiter, after it published itself in the ring's {@link CqWait}: the ready count for its
     * last look before it sleeps.
     * A volatile read of the tail: an acquire load after the waiter's volatile store would
     * not be ordered with it (store-load needs both sides sequentially consistent).
     */
    public int readyForSleep() {
        return (int) TAIL.getVolatile(this) - (int) HEAD.getOpaque(this);
    }

    /** Poster (exact) or reader (a hint: a stale false only delays the move until the next entry). */
    boolean hasOverflow() {
        return overflowing;
    }

    // ---------------------------------------------------------------- reader side

    /** Ready CQEs (published, not yet consumed). */
    int ready() {
        return (int) TAIL.getAcquire(this) - (int) HEAD.getOpaque(this);
    }

    /** The CQE at the head, or null if none is ready. */
    Cqe peek() {
        int h = (int) HEAD.getOpaque(this);
        if ((int) TAIL.getAcquire(this) == h) {
            return null;
        }
        return slots[h & mask];
    }

    /** The i-th ready CQE after the head (caller checked {@code i < ready()}). */
    Cqe at(int h) {
        return slots[h & mask];
    }

    int headIndex() {
        return (int) HEAD.getOpaque(this);
    }

    int tailAcquire() {
        return (int) TAIL.getAcquire(this);
    }

    void advance(int n) {
        HEAD.setRelease(this, (int) HEAD.getOpaque(this) + n);
    }
}
