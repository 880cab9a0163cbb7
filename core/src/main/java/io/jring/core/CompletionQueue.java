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
 *
 * <p>Layout: on a shared ring the poster (the submitting thread) and the reader (a reaping
 * thread) may be two threads, so the poster's own fields, the tail and the head each sit
 * between paddings (see the classes after this one); the fields here are read-mostly.
 */
public final class CompletionQueue extends CqHeadPad {
    private static final ApiAccess API = ApiAccess.get();

    private final Cqe[] slots;
    private final int mask;
    private final int entries;
    final OverflowList overflow = new OverflowList();

    /**
     * Mirrors !overflow.isEmpty() so the post fast path reads one field of this object.
     * Written by the poster when the CQ overflows or drains its overflow (rare); read by the
     * poster, and by the reader as a hint ({@link #hasOverflow}).
     */
    private boolean overflowing;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle PUBLISHED;
    private static final VarHandle OVERFLOWED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(CqHead.class, "head", int.class);
            TAIL = l.findVarHandle(CqTail.class, "tail", int.class);
            PUBLISHED = l.findVarHandle(CqPoster.class, "published", long.class);
            OVERFLOWED = l.findVarHandle(CqPoster.class, "overflowed", long.class);
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
        OVERFLOWED.setOpaque(this, overflowed + 1);
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
        int old = (int) TAIL.getOpaque(this);
        if (t != old) {
            PUBLISHED.setOpaque(this, published + (t - old));
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

    /** Any thread: CQEs published since the ring was created (see {@link CqPoster#published}). */
    long publishedCount() {
        return (long) PUBLISHED.getOpaque(this);
    }

    /** Any thread: CQEs that went to the overflow list (see {@link CqPoster#overflowed}). */
    long overflowedCount() {
        return (long) OVERFLOWED.getOpaque(this);
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

    /** Reader: publishes {@code h} as the new head (release: the slots before it are free). */
    void setHead(int h) {
        HEAD.setRelease(this, h);
    }

    void advance(int n) {
        HEAD.setRelease(this, (int) HEAD.getOpaque(this) + n);
    }
}

// Padding by class hierarchy (as JCTools does, and MpscTaskList): HotSpot lays out a
// superclass's fields before its subclass's, so each group below sits between 128 bytes of
// padding (two cache lines, for the adjacent-line prefetcher): the reader's head stores do
// not take the poster's line away at every CQE, nor the poster's per-CQE stores the line the
// reader reads the tail from. Bytes rather than longs, so that no hole is left before a pad.

abstract class CqPad0 {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
    byte p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
    byte p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
    byte p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
    byte p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f;
    byte p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f;
    byte p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f;
    byte p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
}

/** The poster's own fields: plain, never touched by the reader (the counters aside). */
abstract class CqPoster extends CqPad0 {
    /** Slots filled, published or not. */
    int localTail;
    /** The head as the poster last read it; free slots are counted from it. */
    int cachedHead;
    /**
     * CQEs published, for {@link io.jring.RingStats}: the poster adds each flush's count with
     * setOpaque (once per batch, beside the tail store); stats readers use getOpaque (no torn
     * long, no ordering needed: a count, not a handshake).
     */
    long published;
    /** CQEs that went to the overflow list: the poster's setOpaque (rare path), getOpaque by stats readers. */
    long overflowed;
}

abstract class CqPad1 extends CqPoster {
    byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q0a, q0b, q0c, q0d, q0e, q0f;
    byte q10, q11, q12, q13, q14, q15, q16, q17, q18, q19, q1a, q1b, q1c, q1d, q1e, q1f;
    byte q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q2a, q2b, q2c, q2d, q2e, q2f;
    byte q30, q31, q32, q33, q34, q35, q36, q37, q38, q39, q3a, q3b, q3c, q3d, q3e, q3f;
    byte q40, q41, q42, q43, q44, q45, q46, q47, q48, q49, q4a, q4b, q4c, q4d, q4e, q4f;
    byte q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q5a, q5b, q5c, q5d, q5e, q5f;
    byte q60, q61, q62, q63, q64, q65, q66, q67, q68, q69, q6a, q6b, q6c, q6d, q6e, q6f;
    byte q70, q71, q72, q73, q74, q75, q76, q77, q78, q79, q7a, q7b, q7c, q7d, q7e, q7f;
}

abstract class CqTail extends CqPad1 {
    /**
     * Published slots. Poster writes (setVolatile in flush: the store must be ordered before
     * the read of the ring's waiters that follows it, see {@link CqWait}), reader reads
     * (getAcquire; getVolatile for its last look before a sleep).
     */
    int tail;
}

abstract class CqPad2 extends CqTail {
    byte r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r0a, r0b, r0c, r0d, r0e, r0f;
    byte r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r1a, r1b, r1c, r1d, r1e, r1f;
    byte r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r2a, r2b, r2c, r2d, r2e, r2f;
    byte r30, r31, r32, r33, r34, r35, r36, r37, r38, r39, r3a, r3b, r3c, r3d, r3e, r3f;
    byte r40, r41, r42, r43, r44, r45, r46, r47, r48, r49, r4a, r4b, r4c, r4d, r4e, r4f;
    byte r50, r51, r52, r53, r54, r55, r56, r57, r58, r59, r5a, r5b, r5c, r5d, r5e, r5f;
    byte r60, r61, r62, r63, r64, r65, r66, r67, r68, r69, r6a, r6b, r6c, r6d, r6e, r6f;
    byte r70, r71, r72, r73, r74, r75, r76, r77, r78, r79, r7a, r7b, r7c, r7d, r7e, r7f;
}

abstract class CqHead extends CqPad2 {
    /** Consumed slots. Reader writes (setRelease), poster reads (getAcquire) to find free slots. */
    int head;
}

abstract class CqHeadPad extends CqHead {
    byte s00, s01, s02, s03, s04, s05, s06, s07, s08, s09, s0a, s0b, s0c, s0d, s0e, s0f;
    byte s10, s11, s12, s13, s14, s15, s16, s17, s18, s19, s1a, s1b, s1c, s1d, s1e, s1f;
    byte s20, s21, s22, s23, s24, s25, s26, s27, s28, s29, s2a, s2b, s2c, s2d, s2e, s2f;
    byte s30, s31, s32, s33, s34, s35, s36, s37, s38, s39, s3a, s3b, s3c, s3d, s3e, s3f;
    byte s40, s41, s42, s43, s44, s45, s46, s47, s48, s49, s4a, s4b, s4c, s4d, s4e, s4f;
    byte s50, s51, s52, s53, s54, s55, s56, s57, s58, s59, s5a, s5b, s5c, s5d, s5e, s5f;
    byte s60, s61, s62, s63, s64, s65, s66, s67, s68, s69, s6a, s6b, s6c, s6d, s6e, s6f;
    byte s70, s71, s72, s73, s74, s75, s76, s77, s78, s79, s7a, s7b, s7c, s7d, s7e, s7f;
}
