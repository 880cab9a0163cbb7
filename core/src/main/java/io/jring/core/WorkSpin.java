package io.jring.core;

/**
 * The brief spin before a SINGLE_ISSUER owner sleeps for task work from other threads
 * (MSG_RING messages, io-wq and timer completions; issue 20). Sleeping costs the waker a
 * futex wake and the sleeper two context switches, about 10 us of CPU together on a virtual
 * machine, where a peer that streams messages adds its next batch within a few
 * microseconds. But a spin that does not end in work only burns CPU, and on a busy machine
 * it takes the CPU from the very thread that would add the work. So:
 * <ul>
 * <li>the budget is twice the mean length of recent waits for such work (a spin's until it
 *     found work, a sleep's until the owner woke), at least {@link #MIN_NANOS} and at most
 *     the ring's waitSpin limit, as {@link CompletionSpin}'s for the device;
 * <li>unlike the device spin, a mean above the limit does not stop spinning for good (a
 *     wait that sleeps would then never measure a short one again): a spin that finds
 *     nothing makes the next 2, 4, ... 64 waits sleep at once instead (a back-off that
 *     doubles per miss in a row, as an adaptive mutex's), and one that finds work ends it.
 * </ul>
 * A fresh waiter tries one spin of the limit. Owner only (the waits of a SINGLE_ISSUER ring
 * are its owner's): plain fields.
 */
final class WorkSpin {
    /** The shortest budget: below it a spin cannot see another CPU's batch arrive. */
    static final long MIN_NANOS = 2_000L;
    /** Weight of a new sample: 1/8. */
    private static final int SHIFT = 3;
    /** Back-off after misses in a row: 2^1 .. 2^MAX_BACKOFF_SHIFT waits without a spin. */
    private static final int MAX_BACKOFF_SHIFT = 6;
    /** Spinning needs another CPU for the thread that adds the work. */
    private static final boolean MULTI_CPU = Runtime.getRuntime().availableProcessors() > 1;

    private final long limitNanos;
    /** Mean length of recent waits, in nanoseconds, scaled by 1 << SHIFT. */
    private long meanScaled;
    /** Misses in a row (0 .. MAX_BACKOFF_SHIFT). */
    private int misses;
    /** Waits left that sleep without spinning. */
    private int skip;

    /** {@code limitNanos} 0: never spin. */
    WorkSpin(long limitNanos) {
        this.limitNanos = MULTI_CPU ? Math.max(limitNanos, 0L) : 0L;
        this.meanScaled = this.limitNanos / 2 << SHIFT;   // first budget: the limit
    }

    /** How long this wait may spin before it sleeps (0: sleep at once). Counts the wait. */
    long budget() {
        if (limitNanos == 0L) {
            return 0L;
        }
        if (skip > 0) {
            skip--;
            return 0L;
        }
        return Math.min(limitNanos, Math.max(MIN_NANOS, 2 * (meanScaled >> SHIFT)));
    }

    /** The spin found work after {@code nanos}. */
    void hit(long nanos) {
        record(nanos);
        misses = 0;
    }

    /** The spin used its budget and found nothing: the waiter sleeps, and backs off. */
    void miss() {
        if (misses < MAX_BACKOFF_SHIFT) {
            misses++;
        }
        skip = 1 << misses;
    }

    /** A wait that slept ended after {@code nanos} in all (its spin, if any, included). */
    void slept(long nanos) {
        record(nanos);
    }

    private void record(long nanos) {
        meanScaled += nanos - (meanScaled >> SHIFT);
    }
}
