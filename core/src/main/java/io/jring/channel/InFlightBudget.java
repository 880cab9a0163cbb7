package io.jring.channel;

import java.util.concurrent.Semaphore;

/**
 * The bound on a group's operations in flight: one permit per operation from its start to
 * its completion. A thread outside the group that finds none left waits in the call that
 * starts the operation until one is given back (back-pressure: a writer faster than the
 * disk is slowed to the disk's pace instead of queueing without end). A group thread never
 * waits (it would wait for completions only it can run): over the bound its operation goes
 * ahead without a permit, so the bound holds for what other threads add.
 */
public final class InFlightBudget {
    private final Semaphore permits;
    private final int limit;

    /**
     * A budget of {@code limit} operations.
     *
     * @param limit the most operations in flight at once from threads outside the group
     */
    public InFlightBudget(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the in-flight bound must be at least 1: " + limit);
        }
        this.limit = limit;
        this.permits = new Semaphore(limit);
    }

    /** {@return the bound} */
    public int limit() {
        return limit;
    }

    /**
     * Takes a permit for an operation started by the calling thread.
     *
     * @param groupThread whether the caller is one of the group's threads (never waits)
     * @return whether a permit was taken (to give back at the end)
     */
    public boolean acquire(boolean groupThread) {
        if (groupThread) {
            return permits.tryAcquire();
        }
        permits.acquireUninterruptibly();
        return true;
    }

    /** Gives a permit back. */
    public void release() {
        permits.release();
    }

    /** {@return the operations in flight that hold a permit} */
    public int inFlight() {
        return limit - permits.availablePermits();
    }
}
