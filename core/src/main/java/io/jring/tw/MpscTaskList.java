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
 * its predecessor is the stub. A push that has swapped {@code head} but not linked yet is a
 * gap the consumer waits out ({@link #awaitLink}), with a few spin hints, then yields.
 *
 * <p>Invariants: the chain from {@code tail} through {@code next} links reaches {@code head}
 * once every pending push has linked; a taken item is unreachable from it, so the sink may
 * re-add it at once; {@code head == stub} iff the list is empty (as seen by the consumer).
 * {@link #runAll} returns only after reading {@code head == stub} with {@code tail == stub}:
 * any push after that read sees the stub as predecessor and returns {@code true}.
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
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
    byte p064, p065, p066, p067, p068, p069, p070, p071, p072, p073, p074, p075, p076, p077, p078, p079;
    byte p080, p081, p082, p083, p084, p085, p086, p087, p088, p089, p090, p091, p092, p093, p094, p095;
    byte p096, p097, p098, p099, p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111;
    byte p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127;
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
    byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015;
    byte q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031;
    byte q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047;
    byte q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063;
    byte q064, q065, q066, q067, q068, q069, q070, q071, q072, q073, q074, q075, q076, q077, q078, q079;
    byte q080, q081, q082, q083, q084, q085, q086, q087, q088, q089, q090, q091, q092, q093, q094, q095;
    byte q096, q097, q098, q099, q100, q101, q102, q103, q104, q105, q106, q107, q108, q109, q110, q111;
    byte q112, q113, q114, q115, q116, q117, q118, q119, q120, q121, q122, q123, q124, q125, q126, q127;
}

abstract class MpscTail extends MpscTailPad0 {
    /** Oldest node not yet taken (an item or the stub). Consumer only: plain reads and writes. */
    TaskWork tail;
}

abstract class MpscTailPad extends MpscTail {
    byte r000, r001, r002, r003, r004, r005, r006, r007, r008, r009, r010, r011, r012, r013, r014, r015;
    byte r016, r017, r018, r019, r020, r021, r022, r023, r024, r025, r026, r027, r028, r029, r030, r031;
    byte r032, r033, r034, r035, r036, r037, r038, r039, r040, r041, r042, r043, r044, r045, r046, r047;
    byte r048, r049, r050, r051, r052, r053, r054, r055, r056, r057, r058, r059, r060, r061, r062, r063;
    byte r064, r065, r066, r067, r068, r069, r070, r071, r072, r073, r074, r075, r076, r077, r078, r079;
    byte r080, r081, r082, r083, r084, r085, r086, r087, r088, r089, r090, r091, r092, r093, r094, r095;
    byte r096, r097, r098, r099, r100, r101, r102, r103, r104, r105, r106, r107, r108, r109, r110, r111;
    byte r112, r113, r114, r115, r116, r117, r118, r119, r120, r121, r122, r123, r124, r125, r126, r127;
}
