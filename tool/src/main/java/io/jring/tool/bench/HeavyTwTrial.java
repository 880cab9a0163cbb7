package io.jring.tool.bench;

import io.jring.CqeHandler;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.TaskWorkKind;
import io.jring.core.RingTaskTarget;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;
import org.HdrHistogram.Histogram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One measurement of {@link HeavyTwBench} on the calling thread: O_DIRECT 4k random reads
 * kept at {@code depth} in flight on a fresh ring of one task-work strategy, where every
 * completion the application sees queues one heavy task-work item (a busy spin) on this
 * thread's list of that strategy, for this ring. The heavy items run at the thread's next
 * entry into the ring, the submit of the next reads, so they sit ahead of that submission
 * while the device's completions keep arriving as completion work (reaped by this thread in
 * its waits, or by the DirectIo reaper while it is busy elsewhere): seed 000's setup. The
 * heavy work belongs to the reading ring, as the seed's did, or to a second ring of the
 * thread ({@code heavyOnOtherRing}), so that a FIFO run switches ring between a completion
 * and a heavy item (a CQ publish each time) where PRIORITY runs the completions as one batch.
 *
 * <p>Latency runs from preparing a read (before the submit that runs the heavy work) to the
 * application seeing its CQE, so it includes the heavy work queued ahead of the read.
 */
final class HeavyTwTrial {
    static final int BS = 4096;

    private final TaskWorkKind kind;
    private final int depth;
    private final int fd;
    private final long blocks;
    private final long heavyNanos;
    private final boolean heavyOnOtherRing;
    private final SplittableRandom random;

    private IoUring ring;
    /** With heavyOnOtherRing: a second ring of this thread that the heavy work belongs to. */
    private IoUring other;
    /**
     * The ring the heavy items belong to: the engine's own target for the ring
     * ({@link RingTaskTarget}), so they share runs with its completion work as the seed's did.
     */
    private TaskWorkTarget target;
    private TaskContext tc;
    private MemorySegment[] bufs;
    private long[] start;
    /** Slots whose read completed during the last reap, to prepare again. */
    private int[] refill;
    private int nRefill;
    private int inflight;
    private boolean measuring;
    private Histogram latency;
    private long errors;
    private final AtomicLong completed = new AtomicLong();
    /** Idle heavy items, reused so the loop allocates nothing in steady state. Owner thread only. */
    private final ArrayDeque<Heavy> idle = new ArrayDeque<>();
    private final CqeHandler onCqe = this::onCqe;

    HeavyTwTrial(TaskWorkKind kind, int depth, int fd, long fileSize, long heavyNanos, boolean heavyOnOtherRing,
                 long seed) {
        this.kind = kind;
        this.heavyOnOtherRing = heavyOnOtherRing;
        this.depth = depth;
        this.fd = fd;
        this.blocks = fileSize / BS;
        this.heavyNanos = heavyNanos;
        this.random = new SplittableRandom(seed);
    }

    /**
     * The other ring, counting the runs of heavy work: every completion that FIFO order puts
     * between two heavy items splits a run (and publishes the reading ring's CQ once more).
     * Only the owner thread runs the items, so the count is plain.
     */
    private static final class CountingTarget implements TaskWorkTarget {
        private final TaskWorkTarget ring;
        long runs;

        CountingTarget(TaskWorkTarget ring) {
            this.ring = ring;
        }

        @Override
        public void beginTaskRun() {
            runs++;
            ring.beginTaskRun();
        }

        @Override
        public void endTaskRun(int items) {
            ring.endTaskRun(items);
        }
    }

    /**
     * What one trial measured; {@code heavyRuns} counts the runs the heavy items of the
     * measured window came in ({@code -1} when the heavy work is on the reading ring).
     */
    record Outcome(long ios, long nanos, Histogram latency, long errors, long heavyRuns) {
        double iops() {
            return nanos == 0 ? 0.0 : ios * 1e9 / nanos;
        }
    }

    /** Completions seen so far (for the live status). */
    AtomicLong completedCounter() {
        return completed;
    }

    /**
     * Runs {@code warmupNanos} unmeasured, then {@code nanos} measured; then lets the reads in
     * flight finish and closes the ring.
     */
    Outcome run(long warmupNanos, long nanos) {
        latency = new Histogram(60_000_000_000L, 3);
        ring = IoUring.builder().entries(depth).flags(Setup.SINGLE_ISSUER).taskWorkList(kind).build();
        if (heavyOnOtherRing) {
            other = IoUring.builder().entries(4).flags(Setup.SINGLE_ISSUER).taskWorkList(kind).build();
        }
        target = heavyOnOtherRing ? new CountingTarget(RingTaskTarget.of(other)) : RingTaskTarget.of(ring);
        tc = TaskContext.current();
        try (Arena arena = Arena.ofConfined()) {
            bufs = new MemorySegment[depth];
            start = new long[depth];
            refill = new int[depth];
            for (int i = 0; i < depth; i++) {
                bufs[i] = arena.allocate(BS, BS);
                refill[nRefill++] = i;
            }
            long t0 = System.nanoTime();
            long measureFrom = t0 + warmupNanos;
            long end = measureFrom + nanos;
            long c0 = 0;
            long runs0 = 0;
            for (;;) {
                prepareRefills();
                // Runs the heavy work queued by the last reap, submits, waits for a completion;
                // the CQEs are handled inside the ring, so the heavy adds find the owner ACTIVE.
                ring.submitAndWait(1);
                ring.forEachCqe(onCqe);
                long now = System.nanoTime();
                if (!measuring && now >= measureFrom) {
                    measuring = true;
                    c0 = completed.get();
                    runs0 = heavyRuns();
                    latency.reset();
                    errors = 0;
                }
                if (now >= end) {
                    measuring = false;
                    long ios = completed.get() - c0;
                    long runs = heavyOnOtherRing ? heavyRuns() - runs0 : -1;
                    drain();
                    return new Outcome(ios, now - measureFrom, latency, errors, runs);
                }
            }
        } finally {
            ring.close();
            if (other != null) {
                other.close();
            }
        }
    }

    private long heavyRuns() {
        return target instanceof CountingTarget c ? c.runs : 0;
    }

    /** After the measured window: reaps what is in flight and runs the heavy work left, then the ring can close. */
    private void drain() {
        nRefill = 0;
        while (inflight > 0) {
            ring.submitAndWait(1);
            ring.forEachCqe(onCqe);
            nRefill = 0;
        }
        ring.submit();
    }

    private void prepareRefills() {
        long now = System.nanoTime();
        for (int i = 0; i < nRefill; i++) {
            int slot = refill[i];
            long offset = random.nextLong(blocks) * BS;
            ring.getSqe().prepRead(fd, bufs[slot], offset).userData(slot);
            start[slot] = now;
            inflight++;
        }
        nRefill = 0;
    }

    private void onCqe(long userData, int res, int flags) {
        int slot = (int) userData;
        inflight--;
        completed.getAndIncrement();
        if (measuring) {
            latency.recordValue(System.nanoTime() - start[slot]);
            if (res != BS) {
                errors++;
            }
        }
        refill[nRefill++] = slot;
        Heavy h = idle.poll();
        tc.addTaskWork(h != null ? h : new Heavy(), kind);
    }

    /**
     * Ordinary (not completion) task work of this ring that costs {@link #heavyNanos} of CPU:
     * the seed's "heavy" task work. Goes back to the idle pool when it has run.
     */
    private final class Heavy extends TaskWork {
        @Override
        public TaskWorkTarget target() {
            return target;
        }

        @Override
        public void runTaskWork(boolean cancel) {
            long until = System.nanoTime() + heavyNanos;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            idle.push(this);
        }
    }
}
