package io.jring.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A sending ring's cache of {@link MsgCarrier}s, so that a steady stream of MSG_RING
 * messages to other threads' rings allocates nothing. The kernel's request cache works the
 * same way: a free list private to the submitter plus a locked list for requests freed
 * elsewhere, spliced over in one go when the private list runs dry
 * ({@code io_flush_cached_locked_reqs}); here the second list is a lock-free stack.
 *
 * <p>The sender (under its ring's posting right) {@link #take}s carriers; the target's task,
 * having read a carrier's message, {@link #giveBack}s it from its own thread. Grows on
 * demand (a new carrier when both lists are empty), never shrinks: it holds at most as many
 * carriers as were ever in flight at once. A carrier whose target never runs it (a ring
 * closed under a late message) is simply not returned.
 */
public final class MsgCarrierCache extends CarrierCachePad1 {

    private static final VarHandle RETURNED;

    static {
        try {
            RETURNED = MethodHandles.lookup().findVarHandle(CarrierCacheReturned.class, "returned", MsgCarrier.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Sender: a carrier it now owns, reused if one is free or has come back, else new. */
    public MsgCarrier take() {
        MsgCarrier m = free;
        if (m == null) {
            m = (MsgCarrier) RETURNED.getAndSet(this, (MsgCarrier) null);
            if (m == null) {
                allocated++;
                return new MsgCarrier(this);
            }
        }
        free = m.nextFree;   // m.nextFree is stale from here on: only a list's own links are read
        return m;
    }

    /** Any thread that is done with {@code m} (its target's task): pushes it on the return stack. */
    public void giveBack(MsgCarrier m) {
        MsgCarrier head;
        do {
            head = (MsgCarrier) RETURNED.getOpaque(this);   // validated by the CAS
            m.nextFree = head;   // plain: m is private to this thread until the CAS publishes it
        } while (!RETURNED.weakCompareAndSet(this, head, m));
    }

    /**
     * The target's task, done with a chain of carriers of this cache ({@code first} through
     * {@code last}, linked by {@link MsgCarrier#nextFree}, private to it until the CAS):
     * pushes the whole chain with one CAS, as {@link #giveBack} pushes one.
     */
    public void giveBackChain(MsgCarrier first, MsgCarrier last) {
        MsgCarrier head;
        do {
            head = (MsgCarrier) RETURNED.getOpaque(this);   // validated by the CAS
            last.nextFree = head;
        } while (!RETURNED.weakCompareAndSet(this, head, first));
    }

    /** Carriers allocated so far (see {@link CarrierCacheSender#allocated}). */
    public int allocated() {
        return allocated;
    }
}

/** The sender's side: its free list and count. */
abstract class CarrierCacheSender {
    /**
     * Carriers ready for the sender, linked through {@link MsgCarrier#nextFree}. Sender only
     * (its ring's posting right orders successive senders): plain.
     */
    MsgCarrier free;

    /**
     * Carriers allocated so far (tests and stats). Sender only: plain; other threads read it
     * only after a happens-before edge (a join, a latch, jcstress's arbiter).
     */
    int allocated;
}

// Inheritance padding, as MpscTaskList's: the return stack's head, CAS'd by the targets,
// sits between 128 bytes of padding, away from the sender's fields and from neighbours.

abstract class CarrierCachePad0 extends CarrierCacheSender {
    byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
    byte p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
    byte p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
    byte p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
    byte p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f;
    byte p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f;
    byte p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f;
    byte p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
}

abstract class CarrierCacheReturned extends CarrierCachePad0 {
    /**
     * Head of the return stack (Treiber stack through {@link MsgCarrier#nextFree}): carriers
     * given back by targets. Pushed by any thread with CAS; taken whole by the sender with
     * one getAndSet(null), never popped one by one, so there is no ABA: a pusher's CAS only
     * succeeds against the head it linked its carrier to. Both are volatile RMWs: each push
     * reads the previous update of the head, so the sender's getAndSet is ordered after every
     * push it takes, and with it the pushers' earlier reads of the carriers' fields (they are
     * done with them) and their plain writes of {@code nextFree}. Release CAS and acquire
     * getAndSet would do by the C++ release-sequence rule, which the JMM does not spell out;
     * on x86 both are the same locked instruction anyway.
     */
    volatile MsgCarrier returned;
}

abstract class CarrierCachePad1 extends CarrierCacheReturned {
    byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q0a, q0b, q0c, q0d, q0e, q0f;
    byte q10, q11, q12, q13, q14, q15, q16, q17, q18, q19, q1a, q1b, q1c, q1d, q1e, q1f;
    byte q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q2a, q2b, q2c, q2d, q2e, q2f;
    byte q30, q31, q32, q33, q34, q35, q36, q37, q38, q39, q3a, q3b, q3c, q3d, q3e, q3f;
    byte q40, q41, q42, q43, q44, q45, q46, q47, q48, q49, q4a, q4b, q4c, q4d, q4e, q4f;
    byte q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q5a, q5b, q5c, q5d, q5e, q5f;
    byte q60, q61, q62, q63, q64, q65, q66, q67, q68, q69, q6a, q6b, q6c, q6d, q6e, q6f;
    byte q70, q71, q72, q73, q74, q75, q76, q77, q78, q79, q7a, q7b, q7c, q7d, q7e, q7f;
}
