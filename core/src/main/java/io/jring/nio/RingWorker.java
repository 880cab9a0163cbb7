package io.jring.nio;

import io.jring.Cqe;
import io.jring.Fsync;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.sys.NativeMemory;
import io.jring.sys.PollCalls;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A platform thread that owns one ring and serves {@link FileOp}s queued by any thread: it
 * prepares them as SQEs, submits, and completes each op from its CQE. Page-cache hits
 * finish inline in its submit, misses go to the ring's io-wq, O_DIRECT files to the device;
 * meanwhile the callers are parked. Callers wake it through an eventfd whose 8-byte READ is
 * always in flight on the ring, and only when it published that it sleeps.
 */
final class RingWorker {
    private static final int ENTRIES = 256;
    /** Ops in flight at most: fewer than the SQ holds, so the wake READ always finds an SQE. */
    private static final int SLOTS = ENTRIES - 16;
    private static final long WAKE = -1L;

    private final IoUring ring = IoUring.builder().entries(ENTRIES).cqEntries(4 * ENTRIES).build();
    /** Ops queued by callers; polled by the worker thread only. */
    private final ConcurrentLinkedQueue<FileOp> queue = new ConcurrentLinkedQueue<>();
    /** Ops in flight by slot (user_data); worker thread only. */
    private final FileOp[] inFlight = new FileOp[SLOTS];
    private final int[] freeSlots = new int[SLOTS];
    private int freeCount;
    private final int wakeFd;
    private final MemorySegment wakeBuf = NativeMemory.shared().allocate(8, 8);

    /**
     * The worker is about to wait, or waits, for CQEs: set (volatile) by the worker before its
     * last look at the queue; callers that queued an op then CAS it off and write the eventfd
     * (Dekker with the queue's CAS: one side sees the other).
     */
    @SuppressWarnings("unused")
    private volatile boolean sleeping;
    private static final VarHandle SLEEPING;

    static {
        try {
            SLEEPING = MethodHandles.lookup().findVarHandle(RingWorker.class, "sleeping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    RingWorker(String name) {
        int efd = PollCalls.eventfd(SysCallContext.current(), 0, PollCalls.EFD_CLOEXEC | PollCalls.EFD_NONBLOCK);
        if (efd < 0) {
            throw new IllegalStateException("eventfd failed: " + efd);
        }
        wakeFd = efd;
        for (int i = 0; i < SLOTS; i++) {
            freeSlots[i] = SLOTS - 1 - i;
        }
        freeCount = SLOTS;
        Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    /** Any thread: queues {@code op}; the worker submits it. */
    void submit(FileOp op) {
        queue.offer(op);
        if ((boolean) SLEEPING.getVolatile(this) && SLEEPING.compareAndSet(this, true, false)) {
            PollCalls.eventfdWrite(SysCallContext.current(), wakeFd, 1L);
        }
    }

    private void run() {
        ring.getSqe().prepRead(wakeFd, wakeBuf, 0).userData(WAKE);
        ring.submit();
        for (;;) {
            boolean queued = fill();
            ring.submit();
            if (reap() == 0 && !queued) {
                SLEEPING.setVolatile(this, true);
                if (queue.isEmpty() || freeCount == 0) {
                    Cqe c = ring.waitCqe();
                    complete(c.userData(), c.res());
                    ring.cqeSeen(c);
                }
                SLEEPING.setVolatile(this, false);
            }
        }
    }

    /** Prepares queued ops while slots and SQEs last; true if any was prepared. */
    private boolean fill() {
        boolean any = false;
        FileOp op;
        while (freeCount > 0 && (op = queue.poll()) != null) {
            Sqe sqe = ring.getSqe();
            if (sqe == null) {
                ring.submit();
                sqe = ring.getSqe();
            }
            int slot = freeSlots[--freeCount];
            inFlight[slot] = op;
            prep(sqe, op).userData(slot);
            any = true;
        }
        return any;
    }

    private static Sqe prep(Sqe sqe, FileOp op) {
        return switch (op.kind) {
            case READV -> op.bufs.length == 1 ? sqe.prepRead(op.fd, op.bufs[0], op.offset)
                    : sqe.prepReadv(op.fd, op.bufs, op.offset);
            case WRITEV -> op.bufs.length == 1 ? sqe.prepWrite(op.fd, op.bufs[0], op.offset)
                    : sqe.prepWritev(op.fd, op.bufs, op.offset);
            case FSYNC -> sqe.prepFsync(op.fd, 0);
            case FDATASYNC -> sqe.prepFsync(op.fd, Fsync.DATASYNC);
            case FTRUNCATE -> sqe.prepFtruncate(op.fd, op.offset);
        };
    }

    /** Completes the ops whose CQEs are there; the number of CQEs taken. */
    private int reap() {
        int n = 0;
        for (Cqe c; (c = ring.peekCqe()) != null; n++) {
            complete(c.userData(), c.res());
            ring.cqeSeen(c);
        }
        return n;
    }

    private void complete(long ud, int res) {
        if (ud == WAKE) {
            ring.getSqe().prepRead(wakeFd, wakeBuf, 0).userData(WAKE);   // submitted with the next batch
            return;
        }
        int slot = (int) ud;
        FileOp op = inFlight[slot];
        inFlight[slot] = null;
        freeSlots[freeCount++] = slot;
        op.complete(res);
    }
}
