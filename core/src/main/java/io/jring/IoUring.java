package io.jring;

import io.jring.core.RingContext;
import io.jring.core.RingStatsReader;
import io.jring.core.SubmitEntry;

import java.time.Duration;
import java.util.Objects;

/**
 * An io_uring instance: submission queue, completion queue and the engine behind them.
 * See API.md. As with liburing, one thread may submit while another reaps, but each side
 * takes one thread at a time: the submission side ({@link #getSqe}, the SQE's prep,
 * {@link #submit}/{@link #submitAndWait}) and the completion side ({@link #peekCqe} or
 * {@link #waitCqe} until {@link #cqeSeen}, {@link #forEachCqe}). A thread that uses a side
 * while another live thread is using it gets {@link IoUringException} EBUSY naming both
 * (threads that share a ring under a lock of their own never do). A SINGLE_ISSUER ring may
 * only be used by the first thread that submits to it. MSG_RING targets may be owned by
 * other threads, and {@link #close()} may be called from any thread.
 */
public final class IoUring extends IoUringRegistration implements AutoCloseable {
    /** Largest SQ size (IORING_MAX_ENTRIES). */
    public static final int MAX_ENTRIES = 32768;
    /** Largest CQ size (IORING_MAX_CQ_ENTRIES). */
    public static final int MAX_CQ_ENTRIES = 2 * MAX_ENTRIES;
    /** The default of {@link Builder#waitSpin}. */
    public static final Duration DEFAULT_WAIT_SPIN = Duration.ofNanos(50_000L);

    static {
        EngineAccess.install();
    }

    /** The submission side's entry points, one hop shorter than through ctx. */
    private final SubmitEntry submission;

    private IoUring(RingContext ctx) {
        super(ctx);
        this.submission = ctx.submission();
    }

    /**
     * A ring with {@code entries} SQEs and default settings.
     *
     * @param entries the SQ size, as {@link Builder#entries}
     * @return the new ring
     */
    public static IoUring open(int entries) {
        return builder().entries(entries).build();
    }

    /** {@return a builder with the defaults: 64 entries, no flags, the MPSC task-work list} */
    public static Builder builder() {
        return new Builder();
    }

    // ---- setup facts

    /** {@return the SQ size after rounding} */
    public int sqEntries() {
        ctx.checkOpen();
        return ctx.sqEntries();
    }

    /** {@return the CQ size after rounding} */
    public int cqEntries() {
        ctx.checkOpen();
        return ctx.cqEntries();
    }

    // ---- submission

    /** {@return the next free SQE with all fields reset, or null when the SQ is full} */
    public Sqe getSqe() {
        return submission.getSqe();
    }

    /**
     * Submits the prepared SQEs. Without {@link Setup#SUBMIT_ALL} submission stops after the
     * first SQE that fails before it is issued (it is consumed and completes with -errno).
     *
     * @return how many SQEs were consumed
     */
    public int submit() {
        return submission.submit();
    }

    /**
     * Submits, then blocks until at least {@code waitNr} CQEs are ready.
     *
     * @param waitNr how many CQEs to wait for (0: do not wait)
     * @return how many SQEs were consumed
     */
    public int submitAndWait(int waitNr) {
        return submission.submitAndWait(waitNr);
    }

    /** {@return how many SQEs are prepared and not yet submitted} */
    public int sqReady() {
        return submission.sqReady();
    }

    /** {@return how many more SQEs {@link #getSqe} can hand out before a submit} */
    public int sqSpaceLeft() {
        return submission.sqSpaceLeft();
    }

    // ---- completion

    /** {@return a ready CQE, or null; runs pending task work first if none is ready} */
    public Cqe peekCqe() {
        return ctx.reader().peekCqe();
    }

    /** {@return the first ready CQE, once there is one (blocks)} */
    public Cqe waitCqe() {
        return ctx.reader().waitCqe();
    }

    /**
     * Waits up to {@code timeout} for a CQE.
     *
     * @param timeout how long to wait at most
     * @return the first ready CQE, or null if none became ready in time
     */
    public Cqe waitCqe(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE / 4;
        }
        return ctx.reader().waitCqe(nanos);
    }

    /**
     * Consumes one CQE (advances the CQ head); its slot may then be reused.
     *
     * @param cqe the CQE {@link #peekCqe} or {@link #waitCqe} returned
     */
    public void cqeSeen(Cqe cqe) {
        ctx.reader().cqeSeen(cqe);
    }

    /**
     * Consumes every ready CQE, calling {@code handler} for each in CQ order. Each CQE is
     * consumed before its handler runs, so the handler may reap on this ring too (peek,
     * seen, a nested forEachCqe, submitAndWait): no CQE is delivered twice. CQEs published
     * after the call looked at the CQ are left for the next call.
     *
     * @param handler what to do with each CQE
     * @return how many CQEs were consumed
     */
    public int forEachCqe(CqeHandler handler) {
        Objects.requireNonNull(handler, "handler");
        return ctx.reader().forEachCqe(handler);
    }

    /** {@return how many CQEs are ready to be consumed} */
    public int cqReady() {
        return ctx.reader().cqReady();
    }

    /**
     * Consumes {@code count} ready CQEs at once (liburing's io_uring_cq_advance), as
     * {@code count} calls of {@link #cqeSeen}.
     *
     * @param count how many ready CQEs to consume
     * @throws IoUringException EINVAL if fewer than {@code count} are ready (those that were are consumed)
     */
    public void cqAdvance(int count) {
        for (int i = 0; i < count; i++) {
            Cqe c = peekCqe();
            if (c == null) {
                throw new IoUringException(Errno.EINVAL, "cqAdvance(" + count + "): only " + i + " CQEs were ready");
            }
            cqeSeen(c);
        }
    }

    /**
     * A snapshot of this ring's counters for metrics (any thread, also after close; cheap
     * enough to call every second): see {@link RingStats} for each counter and its consistency.
     *
     * @return the counters now
     */
    public RingStats stats() {
        return RingStatsReader.read(ctx);
    }

    /** Cancels everything in flight, waits for it to finish and releases the ring. Idempotent. */
    @Override
    public void close() {
        ctx.close();
    }

    @Override
    public String toString() {
        return "IoUring" + ctx.toString().substring("RingContext".length());
    }

    /** Builds a ring; sizes and flags as Linux's io_uring_setup. */
    public static final class Builder {
        private final RingSetup setup = new RingSetup();

        Builder() {}

        /**
         * The SQ size.
         *
         * @param entries rounded up to a power of two; at most {@link IoUring#MAX_ENTRIES} (or
         *                clamped to it with {@link Setup#CLAMP})
         * @return this builder
         */
        public Builder entries(int entries) {
            setup.entries = entries;
            return this;
        }

        /**
         * The CQ size (Linux's IORING_SETUP_CQSIZE); default 2 * entries.
         *
         * @param cqEntries rounded up to a power of two; at least the SQ size, at most
         *                  {@link IoUring#MAX_CQ_ENTRIES} (0 or negative: EINVAL)
         * @return this builder
         */
        public Builder cqEntries(int cqEntries) {
            setup.cqEntries = cqEntries;
            setup.cqSizeGiven = true;
            return this;
        }

        /**
         * The setup flags.
         *
         * @param flags {@link Setup} bits; unknown bits are EINVAL at {@link #build}
         * @return this builder
         */
        public Builder flags(int flags) {
            setup.flags = flags;
            return this;
        }

        /**
         * The task-work list strategy of this ring (default {@link TaskWorkKind#MPSC}).
         *
         * @param kind the strategy
         * @return this builder
         */
        public Builder taskWorkList(TaskWorkKind kind) {
            setup.kind = Objects.requireNonNull(kind, "kind");
            return this;
        }

        /**
         * With {@link Setup#ATTACH_WQ}: the ring whose io-wq this ring shares.
         *
         * @param other an open ring
         * @return this builder
         */
        public Builder attachWq(IoUring other) {
            setup.attachWq = other;
            return this;
        }

        /**
         * With {@link SqeFlags#ASYNC} on a pollable file (socket, pipe): true = the io-wq worker
         * blocks in the call (Linux before 5.x's "async hybrid", for seed 003's comparison).
         * Default false: the worker tries once without blocking and, on EAGAIN, arms poll.
         *
         * @param legacy true for the blocking worker
         * @return this builder
         */
        public Builder legacyAsync(boolean legacy) {
            setup.legacyAsync = legacy;
            return this;
        }

        /**
         * MSG_RING's path before seed 004 (for its comparison): the sender posts a message to
         * this ring under this ring's completion lock, which every poster then takes, and wakes
         * its waiter each time. Default false: the message is remote task work on the owner.
         *
         * @param legacy true for the sender-posts path
         * @return this builder
         */
        public Builder legacyMsgRing(boolean legacy) {
            setup.legacyMsgRing = legacy;
            return this;
        }

        /**
         * Direct (O_DIRECT) writes that need completion processing (O_DSYNC/O_SYNC or RWF_DSYNC:
         * the flush) finish in the issuing thread's task work (seed 002), not on a completion
         * worker pool (default false, Linux's workqueue punt). A thread waiting for the file's
         * direct I/O ({@code Fds.close}, {@code fsync}, {@code truncate}) runs its own first.
         *
         * @param enabled true to complete in the issuing thread
         * @return this builder
         */
        public Builder callerCompletion(boolean enabled) {
            setup.callerCompletion = enabled;
            return this;
        }

        /**
         * The longest a waiter spins before it sleeps, with direct (O_DIRECT) I/O in flight, or,
         * on a SINGLE_ISSUER ring with no armed polls, for task work from other threads
         * (MSG_RING messages, io-wq and timer completions); adaptive as the block layer's
         * hybrid polling: only while recent waits of that kind ended within it, and only with
         * more than one CPU and on a platform thread. Spinning saves the sleep's two context
         * switches and the waker's wake-up call at the cost of CPU time. Default 50 us;
         * {@link Duration#ZERO}: always sleep. Negative or longer than 1 s: EINVAL.
         *
         * @param limit the longest spin
         * @return this builder
         */
        public Builder waitSpin(Duration limit) {
            setup.waitSpinNanos = RingSetup.checkedWaitSpin(limit);
            return this;
        }

        /**
         * Creates the ring.
         *
         * @return the new ring
         * @throws IoUringException EINVAL for bad sizes or flags (DEFER_TASKRUN without
         *         SINGLE_ISSUER, ATTACH_WQ without a ring), EBADFD if the ring to attach to is closed
         */
        public IoUring build() {
            return new IoUring(new RingContext(setup.params()));
        }
    }

}
