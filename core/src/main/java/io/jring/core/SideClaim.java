package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One side of a ring's user-facing queues, taken by one thread at a time: the submission
 * side (getSqe, the SQE's prep, submit) or the completion side (peekCqe/waitCqe until
 * cqeSeen, forEachCqe). liburing allows one thread to submit while another reaps, but not
 * two submitters or two reapers at once: the kernel serialises its own submission with
 * {@code uring_lock}, the user-space halves are the application's to serialise. jring
 * checks it instead of corrupting the queues: a thread that finds a side held by another
 * live thread gets {@link IoUringException} EBUSY naming both. A thread that died holding a
 * side loses it to the next one. Threads that share a ring under a lock of their own never
 * overlap, so they never see EBUSY.
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

    private static final VarHandle HOLDER;

    static {
        try {
            HOLDER = MethodHandles.lookup().findVarHandle(SideClaim.class, "holder", Thread.class);
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

    private void claimSlow(Thread me, String call) {
        for (;;) {
            Thread h = (Thread) HOLDER.getVolatile(this);
            if (h == me) {
                return;
            }
            if (h != null && h.isAlive()) {
                throw new IoUringException(Errno.EBUSY, "ring " + ringId + ": " + call + " on thread '"
                        + me.getName() + "' while thread '" + h.getName() + "' is using the ring's " + side
                        + " side (" + holding + "); a ring takes one submitting and one reaping thread at a"
                        + " time: guard it with a lock, or give each thread its own ring");
            }
            // Free, or its holder has ended (Thread.isAlive: the holder's actions happen before this).
            if (HOLDER.compareAndSet(this, h, me)) {
                return;
            }
        }
    }

    /** Holder: lets go of the side. */
    void release() {
        HOLDER.setRelease(this, (Thread) null);
    }
}
