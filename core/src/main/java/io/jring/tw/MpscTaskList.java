package io.jring.tw;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The MPSC strategy (the default; Linux's 2026 task list, see seeds/README.md): Dmitry
 * Vyukov's intrusive multi-producer single-consumer FIFO queue. A push is one getAndSet of
 * {@code head} and one release store linking the predecessor; the consumer walks from
 * {@code tail} through the links, never reversing anything.
 *
 * <p>A permanent {@link #stub} node keeps the chain non-empty: the consumer can only take an
 * item once its successor is known, so when it reaches the newest item it pushes the stub
 * behind it, takes the item and later steps over the stub. The stub is at the producers' end
 * exactly when the consumer has taken everything, so {@link #add} returns {@code true} iff
 * its predecessor is the stub. (The stub goes behind the newest item just before that item
 * is taken, so a push then is a spurious "true" while the consumer still runs: it costs the
 * adder one look at the owner's state; a missed wake would cost a hang.) A push that has
 * swapped {@code head} but not linked yet is a gap the consumer waits out
 * ({@link #awaitLink}), with a few spin hints, then yields.
 *
 * <p>Invariants: the chain from {@code tail} through {@code next} links reaches {@code head}
 * once every pending push has linked; a taken item is unreachable from it, so the sink may
 * re-add it at once; {@code head == stub} iff the list is empty (as seen by the consumer).
 * {@link #runAll} returns only after reading {@code head == stub} with {@code tail == stub}:
 * any push after that read sees the stub as predecessor and returns {@code true}.
 *
 * <p>If the sink throws, the items not yet taken are still linked from {@code tail}; the
 * caller must run the list again (adds meanwhile may return {@code false}).
 */
public final class MpscTaskList extends MpscTailPad implements TaskWorkList {

    /** Spin hints before a waiting consumer starts yielding to the preempted producer. */
    private static final int SPINS = 32;

    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(MpscHead.class, "head", TaskWork.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The dummy node of Vyukov's queue. Final, never handed to a sink. Its {@code next} is
     * written like any item's: by the producer that got it as predecessor (release) and by
     * the consumer before it pushes the stub again (plain; no producer can reach it then).
     */
    private final TaskWork stub = new Stub();

    public MpscTaskList() {
        head = stub;
        tail = stub;
    }

    @Override
    public boolean add(TaskWork work) {
        work.next = null; // plain: the adder owns work; the getAndSet below publishes it
        TaskWork prev = (TaskWork) HEAD.getAndSet(this, work);
        TaskWork.NEXT.setRelease(prev, work); // pairs with the consumer's getAcquire of prev.next
        return prev == stub;
    }

    /**
     * Vyukov's queue takes a whole chain with the same two steps as one item: the chain's
     * links are plain-written by the adder, then one getAndSet makes its newest item the
     * head and one release store links the oldest behind the predecessor. The consumer
     * reaches the chain through that release store (its getAcquire), so the plain links
     * inside are visible to it; none of them is null, so it never waits inside the chain.
     */
    @Override
    public boolean addBatch(TaskWorkBatch batch) {
        TaskWork last = batch.last();
        last.next = null; // plain, as in add: published by the getAndSet below
        TaskWork prev = (TaskWork) HEAD.getAndSet(this, last);
        TaskWork.NEXT.setRelease(prev, batch.first());
        return prev == stub;
    }

    @Override
    public int runAll(TaskWorkSink sink) {
        TaskWork work = poll();
        if (work == null) {
            return 0;
        }
        do {
            sink.accept(work); // may re-add work: poll already moved tail past it
        } while ((work = poll()) != null);
        return 1;
    }

    /** Takes the oldest item, or returns null once the list is empty. Consumer only. */
    private TaskWork poll() {
        TaskWork t = tail;
        TaskWork next = (TaskWork) TaskWork.NEXT.getAcquire(t);
        if (t == stub) {
            if (next == null) {
                if (HEAD.getVolatile(this) == stub) {
                    return null;
                }
                next = awaitLink(stub); // a push onto the stub is half-finished
            }
            t = next; // step over the stub: it leaves the chain
            next = (TaskWork) TaskWork.NEXT.getAcquire(t);
        }
        if (next == null) {
            if (HEAD.getVolatile(this) == t) {
                // t is the newest item: push the stub behind it so that t can leave.
                stub.next = null;
                TaskWork prev = (TaskWork) HEAD.getAndSet(this, stub);
                TaskWork.NEXT.setRelease(prev, stub);
            }
            // Either our stub push or a producer that swapped head after t links t.next.
            next = awaitLink(t);
        }
        tail = next;
        return t;
    }

    /** Waits out a producer between its getAndSet of head and its link of {@code work.next}. */
    private static TaskWork awaitLink(TaskWork work) {
        TaskWork next;
        for (int spins = 0; (next = (TaskWork) TaskWork.NEXT.getAcquire(work)) == null; spins++) {
            if (spins < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        return next;
    }

    @Override
    public boolean isEmpty() {
        return HEAD.getVolatile(this) == stub;
    }

    private static final class Stub extends TaskWork {
        @Override
        public TaskWorkTarget target() {
            throw new AssertionError("the stub is never run");
        }

        @Override
        public void runTaskWork(boolean cancel) {
            throw new AssertionError("the stub is never run");
        }
    }
}

// Inheritance padding (as JCTools does; @Contended is not available outside the JDK): HotSpot
// lays out a superclass's fields before its subclass's, so the producers' head and the
// consumer's tail each sit between 128 bytes of padding (two cache lines, for the adjacent
// line prefetcher). Bytes rather than longs, so that no hole is left before the padding.

abstract class MpscHeadPad {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
    byte p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
    byte p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
    byte p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
    byte p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f;
    byte p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f;
    byte p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f;
    byte p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
}

abstract class MpscHead extends MpscHeadPad {
    /**
     * Newest item, or the stub. Written by producers with getAndSet (the one atomic step of a
     * push: volatile, so it is totally ordered with the owner's sleep-flag write and
     * {@code isEmpty} read) and by the consumer when it pushes the stub; read by the consumer
     * with volatile reads (the "is t the newest?" and final empty checks).
     */
    volatile TaskWork head;
}

abstract class MpscTailPad0 extends MpscHead {
    byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q0a, q0b, q0c, q0d, q0e, q0f;
    byte q10, q11, q12, q13, q14, q15, q16, q17, q18, q19, q1a, q1b, q1c, q1d, q1e, q1f;
    byte q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q2a, q2b, q2c, q2d, q2e, q2f;
    byte q30, q31, q32, q33, q34, q35, q36, q37, q38, q39, q3a, q3b, q3c, q3d, q3e, q3f;
    byte q40, q41, q42, q43, q44, q45, q46, q47, q48, q49, q4a, q4b, q4c, q4d, q4e, q4f;
    byte q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q5a, q5b, q5c, q5d, q5e, q5f;
    byte q60, q61, q62, q63, q64, q65, q66, q67, q68, q69, q6a, q6b, q6c, q6d, q6e, q6f;
    byte q70, q71, q72, q73, q74, q75, q76, q77, q78, q79, q7a, q7b, q7c, q7d, q7e, q7f;
}

abstract class MpscTail extends MpscTailPad0 {
    /** Oldest node not yet taken (an item or the stub). Consumer only: plain reads and writes. */
    TaskWork tail;
}

abstract class MpscTailPad extends MpscTail {
    byte r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r0a, r0b, r0c, r0d, r0e, r0f;
    byte r10, r11, r12, r13, r14, r15, r16, r17, r18, r19, r1a, r1b, r1c, r1d, r1e, r1f;
    byte r20, r21, r22, r23, r24, r25, r26, r27, r28, r29, r2a, r2b, r2c, r2d, r2e, r2f;
    byte r30, r31, r32, r33, r34, r35, r36, r37, r38, r39, r3a, r3b, r3c, r3d, r3e, r3f;
    byte r40, r41, r42, r43, r44, r45, r46, r47, r48, r49, r4a, r4b, r4c, r4d, r4e, r4f;
    byte r50, r51, r52, r53, r54, r55, r56, r57, r58, r59, r5a, r5b, r5c, r5d, r5e, r5f;
    byte r60, r61, r62, r63, r64, r65, r66, r67, r68, r69, r6a, r6b, r6c, r6d, r6e, r6f;
    byte r70, r71, r72, r73, r74, r75, r76, r77, r78, r79, r7a, r7b, r7c, r7d, r7e, r7f;
}
