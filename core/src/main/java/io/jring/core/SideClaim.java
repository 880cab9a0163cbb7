package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One side of a ring's user-facing queues, taken by one thread at a time: the submission
 * side (getSqe, the SQE's prep, submit) or the completion side (peekCqe/waitCqe until
 * cqeSeen, forEachCqe). liburing allows one thread to submit while another reaps, but not
 * two submitters or two reapers at once: the kernel serialises its own submission with
 * {@code uring_lock}, the user-space halves are the application's to serialise. jring
 * checks it instead of corrupting the queues: a thread that finds a side held by another
 * running thread gets {@link IoUringException} EBUSY naming both. A holder that has ended, or
 * that is not running (blocked, waiting, parked: a thread that prepared SQEs and handed the
 * ring to another one, then waits for it, as JUnit's assertTimeoutPreemptively does) loses
 * the side to the next thread: that is a hand-over, not an overlap. Threads that share a ring
 * under a lock of their own never overlap, so they never see EBUSY.
 *
 * <p>The fast path, taken by the holder on every call, is a plain read of {@link #holder}:
 * see its comment for why that is enough.
 */
final class SideClaim {
    private final int ringId;
    /** "submission" or "completion". */
    private final String side;
    /** What holding the side means, for the report. */
    private final String holding;

    /**
     * The thread using the side, or null. Taken by CAS from null (or from a thread that has
     * ended), which acquires everything the previous holder did to the side; given back by
     * the holder with a release store, which publishes it. The holder's own plain read sees
     * its claim; a thread that has let go reads null or another thread's claim, never itself
     * (its own release store comes after its claim in program order), so the plain
     * {@code holder == me} test never admits a thread that does not hold the side.
     */
    private Thread holder;

    /**
     * The holder is inside a call that may block (a wait, a forEachCqe whose handler may
     * block): while it is, the side is never handed over, running or not. Written by the
     * holder with opaque stores (a hint for claimants, ordered by nothing else), read by
     * claimants on the slow path with a volatile load.
     */
    private boolean inBlockingCall;

    private static final VarHandle HOLDER;
    private static final VarHandle IN_BLOCKING_CALL;

    static {
        try {
            HOLDER = MethodHandles.lookup().findVarHandle(SideClaim.class, "holder", Thread.class);
            IN_BLOCKING_CALL = MethodHandles.lookup().findVarHandle(SideClaim.class, "inBlockingCall", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    SideClaim(int ringId, String side, String holding) {
        this.ringId = ringId;
        this.side = side;
        this.holding = holding;
    }

    /** True if the calling thread holds the side (plain read; see {@link #holder}). */
    boolean isMine() {
        return holder == Thread.currentThread();
    }

    /** Takes the side for the calling thread ({@code call} names the API call, for the report). */
    void claim(String call) {
        Thread me = Thread.currentThread();
        if (holder != me) {
            claimSlow(me, call);
        }
    }

    /**
     * How long a claimant waits for a running holder to stop before it calls the overlap:
     * a thread that hands the ring over starts the other thread first and only then waits.
     */
    private static final long HAND_OVER_GRACE_NANOS = 100_000_000L;

    private void claimSlow(Thread me, String call) {
        long graceEnd = 0L;
        for (;;) {
            Thread h = (Thread) HOLDER.getVolatile(this);
            if (h == me) {
                return;
            }
            if (h != null && h.isAlive()) {
                boolean inCall = (boolean) IN_BLOCKING_CALL.getVolatile(this);
                if (!inCall && h.getState() == Thread.State.RUNNABLE) {
                    long now = System.nanoTime();
                    if (graceEnd == 0L) {
                        graceEnd = now + HAND_OVER_GRACE_NANOS;
                    }
                    if (now - graceEnd < 0) {
                        LockSupport.parkNanos(this, 50_000L);
                        continue;
                    }
                }
                if (inCall || h.getState() == Thread.State.RUNNABLE) {
                    throw new IoUringException(Errno.EBUSY, "ring " + ringId + ": " + call + " on thread '"
                            + me.getName() + "' while thread '" + h.getName() + "' is using the ring's " + side
                            + " side (" + holding + "); a ring takes one submitting and one reaping thread at a"
                            + " time: guard it with a lock, or give each thread its own ring");
                }
            }
            // Free, or its holder has ended (its actions happen before this) or is not running:
            // handed over, its actions ordered before this thread's call by whatever handed it.
            if (HOLDER.compareAndSet(this, h, me)) {
                return;
            }
        }
    }

    /** Holder: it enters a call that may block ({@code true}) or has left it. */
    void blocking(boolean inCall) {
        IN_BLOCKING_CALL.setOpaque(this, inCall);
    }

    /** Holder: lets go of the side. */
    void release() {
        HOLDER.setRelease(this, (Thread) null);
    }
}
