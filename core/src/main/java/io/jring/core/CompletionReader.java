package io.jring.core;

import io.jring.Cqe;
import io.jring.CqeHandler;
import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.tw.TaskContext;

/**
 * The reader side of a ring's CQ (liburing's peek, wait, seen and for-each over the CQ
 * ring): peek, wait, consume. What goes beyond the CQEs already published (running task work
 * on entry, moving overflow in, helping away submitters of a shared ring, the wait loop) is
 * {@link CompletionWait}. Called by the application thread through {@link RingContext}; the
 * token is taken with the ring's {@code enter()}. On a shared ring the reaping calls hold the
 * completion side ({@link SideClaim}): from a peekCqe or waitCqe that returned a CQE until
 * its cqeSeen, and for the whole of a forEachCqe; a SINGLE_ISSUER ring's owner has it for
 * good.
 */
public final class CompletionReader {
    private final RingContext ring;
    private final CompletionQueue cq;
    private final boolean singleIssuer;
    /** Catch-up and the wait loop; the ring's submitAndWait waits through it too. */
    final CompletionWait waiter;
    /** SINGLE_ISSUER rings: reader calls of threads other than the owner, once it has ended. */
    private final ForeignReader foreign;
    /** The completion side's thread of a shared ring; null on a SINGLE_ISSUER ring. */
    private final SideClaim side;
    /**
     * forEachCqe calls running on the holder's stack (a handler may reap too): the side is
     * let go only when the outermost ends. The holder's alone, plain.
     */
    private int iterating;

    CompletionReader(RingContext ring, long waitSpinNanos) {
        this.ring = ring;
        this.cq = ring.cq;
        this.singleIssuer = ring.singleIssuer;
        this.waiter = new CompletionWait(ring, waitSpinNanos);
        this.foreign = singleIssuer ? new ForeignReader(ring) : null;
        this.side = singleIssuer ? null
                : new SideClaim(ring.id, "completion", "it holds a CQE it has not marked seen, or is reaping");
    }

    /**
     * Every reader call first: EBADFD once closed; EEXIST for a thread that is not this
     * SINGLE_ISSUER ring's owner while the owner lives (API.md: the ring is the owner's);
     * true once the owner has ended: then any thread reads through {@link ForeignReader},
     * so the completions the dead owner left behind reach whoever waits (issue 16 A2).
     */
    private boolean checkForeign() {
        if (ring.closed != 0) {
            throw ring.closedException();
        }
        if (singleIssuer) {
            Thread o = ring.owner();
            if (o == null || o == Thread.currentThread()) {
                return false;
            }
            if (o.isAlive()) {
                ring.checkUsable();   // throws EEXIST naming the owner
            }
            return true;
        }
        return false;
    }

    /** The calling thread takes the completion side for {@code call} (EBUSY if another holds it). */
    private void claim(String call) {
        ring.checkUsable();
        if (side != null) {
            side.claim(call);
        }
    }

    /** Holder: marks a call that may block, so its side is not handed over meanwhile (see SideClaim). */
    private void blocking(boolean inCall) {
        if (side != null) {
            side.blocking(inCall);
        }
    }

    /** Holder: no CQE in hand any more; unless a forEachCqe is still running, the side is free. */
    private void letGo() {
        if (side != null && iterating == 0) {
            side.release();
        }
    }

    /** Any thread may look at the CQ (it is shared memory in Linux). */
    public int cqReady() {
        ring.checkOpen();
        return cq.ready();
    }

    public Cqe peekCqe() {
        if (checkForeign()) {
            return foreign.peekCqe();
        }
        claim("peekCqe");
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        try {
            waiter.catchUp();
            c = cq.peek();
        } finally {
            if (c == null) {
                letGo();
            }
        }
        return c;
    }

    public Cqe waitCqe() {
        return waitOne(-1L, "waitCqe");
    }

    /** Waits up to {@code nanos}; null on timeout. */
    public Cqe waitCqe(long nanos) {
        return waitOne(Math.max(nanos, 0L), "waitCqe");
    }

    /** One CQE, waiting up to {@code nanos} (-1 = forever); null on timeout. */
    private Cqe waitOne(long nanos, String call) {
        if (checkForeign()) {
            return foreign.waitCqe(nanos < 0 ? 0L : Math.max(1L, System.nanoTime() + nanos));
        }
        claim(call);
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        try {
            long deadline = 0L;
            if (nanos >= 0) {
                deadline = System.nanoTime() + nanos;
                if (deadline == 0L) {
                    deadline = 1L;   // 0 means "no deadline" to waitFor
                }
            }
            TaskContext tc = ring.enter();
            try {
                blocking(true);
                try {
                    if (waiter.waitFor(tc, 1, deadline, false)) {
                        c = cq.peek();
                    }
                } finally {
                    blocking(false);
                }
            } finally {
                tc.exit();
            }
        } finally {
            if (c == null) {
                letGo();
            }
        }
        return c;
    }

    public void cqeSeen(Cqe cqe) {
        if (checkForeign()) {
            if (cq.ready() <= 0) {
                throw new IoUringException(Errno.EINVAL, "cqeSeen without a ready CQE");
            }
            cq.advance(1);
            return;
        }
        claim("cqeSeen");
        try {
            if (cq.ready() <= 0) {
                throw new IoUringException(Errno.EINVAL, "cqeSeen without a ready CQE");
            }
            cq.advance(1);
        } finally {
            letGo();
        }
    }

    public int forEachCqe(CqeHandler handler) {
        if (checkForeign()) {
            int n = drainReady(handler);
            return n > 0 && !cq.hasOverflow() ? n : n + forEachCqeSlow(handler, true);
        }
        claim("forEachCqe");
        iterating++;
        blocking(true);   // the handler may block
        try {
            int n = drainReady(handler);
            if (n > 0 && !cq.hasOverflow()) {
                return n;
            }
            return n + forEachCqeSlow(handler, false);
        } finally {
            iterating--;
            if (iterating == 0) {
                blocking(false);
            }
            letGo();
        }
    }

    /**
     * Consumes the CQEs already published: the common, small path (inlines well). Each CQE is
     * consumed (head published) before its handler runs, and the head is read again after
     * the handler: a handler that reaps on this ring (peek and seen, a nested forEachCqe, a
     * submitAndWait) moves the head itself, and this loop resumes after what it consumed
     * rather than delivering those CQEs a second time. The tail is read once: CQEs published
     * during the loop are the next call's, so a handler that keeps submitting cannot keep
     * one call running forever.
     */
    private int drainReady(CqeHandler handler) {
        int n = 0;
        int t = cq.tailAcquire();
        for (int h = cq.headIndex(); t - h > 0; h = cq.headIndex()) {
            Cqe c = cq.at(h);
            long ud = c.userData();
            int res = c.res();
            int fl = c.flags();
            cq.setHead(h + 1);
            n++;
            handler.handle(ud, res, fl);
        }
        return n;
    }

    /** Nothing was ready, or overflow waits: run task work, move overflow in, drain again. */
    private int forEachCqeSlow(CqeHandler handler, boolean foreignReader) {
        int n = 0;
        boolean caughtUp = false;
        for (;;) {
            if (!caughtUp || cq.hasOverflow()) {
                if (foreignReader) {
                    foreign.catchUp();
                } else {
                    waiter.catchUp();
                }
                caughtUp = true;
            }
            int k = drainReady(handler);
            n += k;
            if (k == 0 || ring.closed != 0) {
                return n;
            }
        }
    }
}
