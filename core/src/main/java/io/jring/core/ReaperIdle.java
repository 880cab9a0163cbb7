package io.jring.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The {@link DioReaper}'s sleep while nothing is with the device, and the submit that
 * wakes it: the reaper publishes {@link #idle} and then takes a last look at
 * {@link #inFlight}; the submitter, after a batch went to the device, publishes the count
 * and then looks at {@link #idle}. A store followed by a load of another variable is only
 * ordered when both are volatile (sequentially consistent), so both sides use volatile
 * accesses there: in the synchronization order one of the two loads comes after the other
 * side's store, so either the reaper sees the I/O or the submitter sees the reaper idle and
 * unparks it (an unpark before the park leaves the permit). The per-I/O count changes stay
 * opaque; the volatile store happens once per batch.
 */
public final class ReaperIdle {
    /**
     * I/Os with the device. Written under the ring's posting right: opaque per I/O
     * ({@link #add}), volatile once per batch ({@link #wakeAfterSubmit}); read by the
     * reaper and waiters, opaque as a hint, volatile in {@link #idleNow}.
     */
    private int inFlight;
    /** The reaper is parking or parked for want of work: set volatile by it, cleared by it or by its waker. */
    private volatile boolean idle;

    private static final VarHandle IN_FLIGHT;

    static {
        try {
            IN_FLIGHT = MethodHandles.lookup().findVarHandle(ReaperIdle.class, "inFlight", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Posting right: {@code delta} I/Os went to the device (or came back, negative). */
    public void add(int delta) {
        IN_FLIGHT.setOpaque(this, inFlight + delta);
    }

    /** Any thread: the I/Os with the device (opaque, for statistics). */
    public int inFlight() {
        return (int) IN_FLIGHT.getOpaque(this);
    }

    /** Any thread, as a hint: I/O is with the device. */
    public boolean busy() {
        return (int) IN_FLIGHT.getOpaque(this) > 0;
    }

    /**
     * Posting right, after a batch went to the device: true if the reaper is idle and must
     * be unparked (it is then no longer idle).
     */
    public boolean wakeAfterSubmit() {
        IN_FLIGHT.setVolatile(this, inFlight);
        if (idle) {
            idle = false;
            return true;
        }
        return false;
    }

    /** Reaper: about to park for want of work. True if it may park: nothing is in flight. */
    public boolean idleNow() {
        idle = true;
        return (int) IN_FLIGHT.getVolatile(this) == 0;
    }

    /** Reaper: back from its park, or decided not to park. */
    public void awake() {
        idle = false;
    }
}
