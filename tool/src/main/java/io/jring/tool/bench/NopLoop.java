package io.jring.tool.bench;

import io.jring.Cqe;
import io.jring.CqeHandler;
import io.jring.IoUring;
import io.jring.TaskWorkKind;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;

/**
 * The thread that owns the NOP bench's ring (t/io_uring -N): prepares {@code batch} NOPs,
 * submits them and reaps until every CQE is back, until told to stop. Allocates nothing
 * per loop.
 */
final class NopLoop extends RingLoop {

    /** Batch round trips timed: one in 8, so reading the clock costs well under 1 ns/op. */
    static final int SAMPLE_MASK = 7;

    enum Reap {
        /** {@link IoUring#forEachCqe}: one pass over every ready CQE. */
        foreach,
        /** {@link IoUring#peekCqe} + {@link IoUring#cqeSeen}, one CQE at a time. */
        peek
    }

    private final int batch;
    private final RingFlags flags;
    private final TaskWorkKind kind;
    private final Reap reap;

    /**
     * NOPs completed so far. Written only by the loop thread with setOpaque once per batch
     * (no ordering is needed: readers want a recent value, not a consistent snapshot);
     * read with getOpaque by the controller and the status line.
     */
    @SuppressWarnings("unused")
    private long done;

    private final CountDownLatch ringReady = new CountDownLatch(1);
    /** The loop's ring, for a stats reader: written by the loop before ringReady opens, read after it. */
    private volatile IoUring ring;

    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(NopLoop.class, "done", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    NopLoop(int batch, RingFlags flags, TaskWorkKind kind, Reap reap) {
        this.batch = batch;
        this.flags = flags;
        this.kind = kind;
        this.reap = reap;
    }

    @Override
    public void run() {
        try (IoUring ring = IoUring.builder()
                .entries(Math.max(batch, 64))
                .flags(flags.setupFlags())
                .taskWorkList(kind)
                .build()) {
            sqEntries = ring.sqEntries();
            this.ring = ring;
            ringReady.countDown();
            if (reap == Reap.foreach) {
                loopForEach(ring);
            } else {
                loopPeek(ring);
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            ringReady.countDown();
        }
    }

    private void loopForEach(IoUring ring) {
        final int batch = this.batch;
        final CqeHandler onCqe = this::onCqe;
        long n = 0;
        int iter = 0;
        while (!stop) {
            boolean sample = (++iter & SAMPLE_MASK) == 0 && measuring;
            long t0 = sample ? System.nanoTime() : 0L;
            for (int i = 0; i < batch; i++) {
                ring.getSqe().prepNop();
            }
            ring.submit();
            int got = 0;
            while (got < batch) {
                int k = ring.forEachCqe(onCqe);
                if (k == 0) {
                    ring.waitCqe(); // not expected for NOPs; never spin forever on a lost CQE
                }
                got += k;
            }
            if (sample) {
                roundTrips.recordValue(System.nanoTime() - t0);
            }
            n += batch;
            DONE.setOpaque(this, n);
        }
    }

    private void loopPeek(IoUring ring) {
        final int batch = this.batch;
        long n = 0;
        int iter = 0;
        while (!stop) {
            boolean sample = (++iter & SAMPLE_MASK) == 0 && measuring;
            long t0 = sample ? System.nanoTime() : 0L;
            for (int i = 0; i < batch; i++) {
                ring.getSqe().prepNop();
            }
            ring.submit();
            for (int got = 0; got < batch; got++) {
                Cqe c = ring.peekCqe();
                if (c == null) {
                    c = ring.waitCqe();
                }
                if (c.res() < 0) {
                    errors++;
                }
                ring.cqeSeen(c);
            }
            if (sample) {
                roundTrips.recordValue(System.nanoTime() - t0);
            }
            n += batch;
            DONE.setOpaque(this, n);
        }
    }

    private void onCqe(long userData, int res, int cqeFlags) {
        if (res < 0) {
            errors++;
        }
    }

    /** Waits until the ring is built (or failed to build); rethrows a setup failure. */
    void awaitRing() throws InterruptedException {
        ringReady.await();
        rethrowFailure();
    }

    long done() {
        return (long) DONE.getOpaque(this);
    }

    /** After {@link #awaitRing}: the loop's ring (its stats may be read from any thread). */
    IoUring ring() {
        return ring;
    }
}
