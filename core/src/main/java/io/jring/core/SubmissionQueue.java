package io.jring.core;

import io.jring.Sqe;
import io.jring.trace.Tracing;
import io.jring.tw.TaskContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A ring's SQ (the kernel's SQ ring: {@code io_get_sqe}) and its submit loop
 * ({@code io_submit_sqes}): the SQEs an application prepares, from {@link #next} to the
 * issue of each under the posting right. {@link RingContext} decides who may submit and
 * when (ownership, entry, task work, the wait); this class only moves SQEs.
 *
 * <p><b>Threads.</b> Everything here belongs to the thread holding the submission side:
 * a SINGLE_ISSUER ring's owner, or the holder of {@link #claim} (a shared ring, or a
 * SINGLE_ISSUER one before its owner is known). Plain fields: the claim's acquire and
 * release order a hand-over between threads.
 */
final class SubmissionQueue {
    private final RingContext ring;
    private final Sqe[] sqes;
    private final int mask;
    private final int entries;
    private final boolean submitAll;
    /** The parts the loop calls, copied from the ring so the loop loads them as before. */
    private final RequestIssuer issuer;
    private final CompletionPoster poster;
    private final CompletionQueue cq;
    private final Timeouts timeouts;
    private final LinkChains links;
    private final DirectRw directRw;
    /** Next SQE to submit and next free one; the submission side's thread only (plain). */
    private int head;
    private int tail;
    /** The submission side's thread of a shared ring, or of a SINGLE_ISSUER ring before its owner. */
    final SideClaim claim;
    /**
     * SQEs consumed, for {@link io.jring.RingStats}. Written by the submitting thread under the
     * posting right, once per submit (setOpaque: a stats reader on another thread must not see
     * a torn long); read by any thread with getOpaque.
     */
    private long submitted;

    private static final VarHandle SUBMITTED;

    static {
        try {
            SUBMITTED = MethodHandles.lookup().findVarHandle(SubmissionQueue.class, "submitted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** After every part of {@code ring} the loop calls has been made. */
    SubmissionQueue(RingContext ring, ApiAccess api) {
        this.ring = ring;
        this.entries = ring.sqEntries;
        this.sqes = new Sqe[entries];
        for (int i = 0; i < entries; i++) {
            sqes[i] = api.newSqe();
        }
        this.mask = entries - 1;
        this.submitAll = ring.submitAll;
        this.issuer = ring.issuer;
        this.poster = ring.poster;
        this.cq = ring.cq;
        this.timeouts = ring.timeouts;
        this.links = ring.links;
        this.directRw = ring.directRw;
        this.claim = new SideClaim(ring.id, "submission", "it has SQEs it has not submitted, or is submitting");
    }

    /** The next free SQE, reset; null if the SQ is full (io_uring_get_sqe). */
    Sqe next() {
        int t = tail;
        if (t - head == entries) {
            return null;
        }
        tail = t + 1;
        return sqes[t & mask].reset();
    }

    /** SQEs prepared and not yet submitted. */
    int ready() {
        return tail - head;
    }

    /** Any thread: SQEs consumed since the ring was created. */
    long submitted() {
        return (long) SUBMITTED.getOpaque(this);
    }

    /**
     * Issues every prepared SQE under the posting right, in order; stops at the first that
     * fails to submit unless SUBMIT_ALL. Returns how many were consumed.
     */
    int submitSqes(TaskContext tc) {
        int h = head;
        int t = tail;
        if (h == t) {
            return 0;
        }
        int n = 0;
        ring.lockRing();
        MsgBatch outgoing = ring.msgRing.outgoing;
        outgoing.open();   // MSG_RINGs to one other thread's ring go over together (issue 20)
        try {
            if (cq.hasOverflow()) {
                poster.flushOverflow();
            }
            timeouts.beginBatch();
            boolean trace = Tracing.submitSqe;   // once per submit, not per SQE
            for (;;) {
                try {
                    while (h != t) {
                        Sqe sqe = sqes[h & mask];
                        h++;
                        n++;
                        if (!issuer.submitOne(sqe, tc, trace) && !submitAll) {
                            break;
                        }
                    }
                    break;
                } catch (Throwable e) {
                    // An op's prep threw: that SQE fails as an invalid one (ThrownOp), off the hot loop.
                    head = h - 1;   // if e is rethrown: the SQEs before it stay submitted
                    if (!PrepFailure.submitThrew(ring, e, sqes[(h - 1) & mask], tc) && !submitAll) {
                        break;
                    }
                }
            }
            head = h;
            links.endSubmit();
            timeouts.endBatch();
            directRw.flush();
            poster.flush();
        } finally {
            outgoing.close();
            SUBMITTED.setOpaque(this, submitted + n);
            ring.unlockRing();
        }
        return n;
    }
}
