package io.jring.core;

/**
 * The brief adaptive spin before a waiter sleeps for device completions (DESIGN.md section 4:
 * "a brief adaptive spin before blocking is allowed if measured to help"), in the spirit of
 * the block layer's hybrid polling: a waiter with direct I/O in flight watches the AIO
 * completion ring for a while instead of entering epoll_wait, when recent waits say a
 * completion is due within the spin limit. Sleeping and being woken by the device's eventfd
 * costs a context switch each way (and on a virtual machine a halted vCPU's wake-up); a
 * completion seen while spinning costs neither.
 *
 * <p>The estimate is an exponentially weighted mean of how long the ring's waits for device
 * completions lasted, whether they ended in the spin or after a sleep, so a device that
 * slows down stops the spinning by itself and one that speeds up starts it again. The
 * budget of one spin is twice that mean, at most {@link #limitNanos}; with a mean above the
 * limit the waiter sleeps at once.
 *
 * <p>Threads: used by the threads waiting on the ring, plain: on a shared ring a
 * submitAndWait may wait beside a reaper, and their racing updates could only skew the
 * estimate.
 */
final class CompletionSpin {
    /** Weight of a new sample: 1/8. */
    private static final int SHIFT = 3;
    /** Spinning needs another CPU for the device's completion work and the JVM's threads. */
    private static final boolean MULTI_CPU = Runtime.getRuntime().availableProcessors() > 1;

    private final long limitNanos;
    /** Mean wait for device completions, in nanoseconds (scaled by 1 << SHIFT). */
    private long meanScaled;

    /** {@code limitNanos} 0: never spin. */
    CompletionSpin(long limitNanos) {
        this.limitNanos = MULTI_CPU ? Math.max(limitNanos, 0L) : 0L;
        this.meanScaled = this.limitNanos / 2 << SHIFT;   // optimistic start: one trial spin
    }

    /** How long the next wait may spin before it sleeps (0: sleep at once). */
    long budget() {
        long mean = meanScaled >> SHIFT;
        return mean > limitNanos ? 0L : Math.min(2 * mean, limitNanos);
    }

    /** A wait for device completions ended after {@code nanos}. */
    void record(long nanos) {
        meanScaled += nanos - (meanScaled >> SHIFT);
    }
}
