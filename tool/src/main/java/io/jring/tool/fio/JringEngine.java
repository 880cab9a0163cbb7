package io.jring.tool.fio;

import io.jring.Cqe;
import io.jring.CqeHandler;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * The jring engine: fio's io_uring engine on a jring {@link IoUring}. One SINGLE_ISSUER ring
 * per job, {@code iodepth} slots each with its own native buffer (4096-aligned, from one
 * confined arena), and fio's loop ({@code do_io}): queue I/Os, committing every
 * {@code iodepth_batch_submit} of them; when the queue is full (or the job is stopping)
 * reap at least {@code iodepth_batch_complete_min} completions, at most
 * {@code iodepth_batch_complete_max}. Nothing is allocated per I/O: slots are ints on a
 * free stack, the CQE handler is one bound method reference.
 *
 * <p>Timing, kept cheap: one {@code System.nanoTime} per submitted batch and one per reap,
 * not per I/O. The I/Os of a batch share their start time (taken when the batch began being
 * prepared; the end of the previous submit when batches follow each other) and their
 * submission time (after {@code submit()} returned); all CQEs of one reap share their
 * completion time (when the reap began, or when {@code waitCqe} returned). So slat is the
 * batch's preparation plus submit, clat runs from the end of submit to the reap that saw the
 * CQE, as in fio, where a page-cache read that completed inline during submit still shows
 * the time until it was reaped.
 */
final class JringEngine implements IoEngine {
    private Job job;
    private IoUring ring;
    private int fd = -1;
    /** The fd field of each SQE: the real fd, or index 0 in the registered file table. */
    private int sqeFd;
    private int sqeFlags;
    private Arena arena;
    private MemorySegment[] bufs;
    private boolean fixedBufs;
    /** Every I/O is a whole buffer: prep's own length is right and no len() is set. */
    private boolean fixedBs;
    private int depth;
    private int batchSubmit;
    private int completeMin;
    private int completeMax;

    // Per slot (index = userData): direction, offset, length, start and submission times.
    private byte[] slotDir;
    private long[] slotOffset;
    private int[] slotLen;
    private long[] slotStart;
    private long[] slotIssue;
    /** Free slots, a stack of {@code nfree}. */
    private int[] free;
    private int nfree;
    /** Slots prepared in the SQ but not yet consumed by submit, in order. */
    private int[] pending;
    private int queued;
    private int inflight;
    /** Completion time given to every CQE of the current reap. */
    private long reapNanos;
    private final CqeHandler onCqe = this::onCqe;

    @Override
    public void open(Job job) throws IOException {
        this.job = job;
        JobSpec spec = job.spec;
        int bs = spec.maxBs();
        fixedBs = spec.bs().fixed(spec.rw());
        depth = spec.iodepth();
        batchSubmit = spec.batchSubmit();
        completeMin = spec.batchCompleteMin();
        completeMax = spec.batchCompleteMax();
        fixedBufs = spec.fixedBufs();
        openFile(job);
        try {
            ring = IoUring.builder().entries(depth).flags(Setup.SINGLE_ISSUER)
                    .waitSpin(Duration.ofNanos(spec.waitSpinNanos())).build();
            if (depth > 1) {
                // A read that misses the page cache, like direct I/O, blocks an io-wq worker
                // until the device answers; Linux keeps iodepth of them at the device without
                // workers (async buffered reads), so allow iodepth workers (Linux's default
                // bounded limit is min(entries, 4 * CPUs)).
                ring.registerIoWqMaxWorkers(depth, 0);
            }
            arena = Arena.ofConfined();
            bufs = new MemorySegment[depth];
            for (int i = 0; i < depth; i++) {
                bufs[i] = EngineFiles.buffer(arena, bs, 31L * job.number + i);
            }
            if (fixedBufs) {
                ring.registerBuffers(bufs);
            }
            if (spec.registerFiles()) {
                ring.registerFiles(new int[] {fd});
                sqeFd = 0;
                sqeFlags = SqeFlags.FIXED_FILE;
            } else {
                sqeFd = fd;
            }
        } catch (IoUringException e) {
            close();
            throw new OpenFailure(e.errno(), e.getMessage(), e);
        }
        slotDir = new byte[depth];
        slotOffset = new long[depth];
        slotLen = new int[depth];
        slotStart = new long[depth];
        slotIssue = new long[depth];
        free = new int[depth];
        pending = new int[depth];
        for (int i = 0; i < depth; i++) {
            free[i] = depth - 1 - i;
        }
        nfree = depth;
        warmUp();
        job.fileOpened(fd);   // after the warm-up read: the run starts with what invalidate promised
    }

    /**
     * One read through the ring before the clock starts, so the one-time costs of the first
     * I/O (class loading, linking the FFM downcalls, starting io-wq) are setup, not a
     * second-long first slat. Neither timed nor checked: if reads fail, the job's first
     * measured read reports it as fio would.
     */
    private void warmUp() {
        Sqe sqe = ring.getSqe();
        if (fixedBufs) {
            sqe.prepReadFixed(sqeFd, bufs[0], 0, 0);
        } else {
            sqe.prepRead(sqeFd, bufs[0], 0);
        }
        sqe.flags(sqeFlags).userData(-1);
        ring.submit();
        ring.cqeSeen(ring.waitCqe());
    }

    private void openFile(Job job) throws OpenFailure {
        try {
            fd = Fds.open(job.file, EngineFiles.openFlags(job.spec), 0);
        } catch (IoUringException e) {
            throw new OpenFailure(e.errno(), "cannot open " + job.file, e);
        }
    }

    /** Opens the file again for the next pass, then closes the old descriptor (the ring, buffers and slots stay). */
    @Override
    public void reopen(Job job) throws IOException {
        int old = fd;
        openFile(job);
        job.fileOpened(fd);
        try {
            if (job.spec.registerFiles()) {
                ring.updateFiles(0, new int[] {fd});
            } else {
                sqeFd = fd;
            }
        } catch (IoUringException e) {
            throw new OpenFailure(e.errno(), "cannot register " + job.file + " again", e);
        } finally {
            Fds.close(old);
        }
    }

    @Override
    public void run(Job job) {
        long now = System.nanoTime();
        boolean issuing = job.keepIssuing(now);
        while (issuing || inflight > 0 || queued > 0) {
            if (issuing && inflight + queued < depth) {
                issuing = fill();
            }
            if (queued > 0) {
                commit();
            }
            if (inflight == 0) {
                if (!issuing || job.stats.error != 0) {
                    break;
                }
                continue;
            }
            if (inflight >= depth || !issuing) {
                // fio's wait_for_completions: when full, at least min(batch_complete_min, depth), and at least 1.
                int min = issuing ? Math.max(1, Math.min(completeMin, inflight)) : inflight;
                reap(min);
                issuing = issuing && job.keepIssuing(reapNanos);
            }
        }
    }

    /** Prepares I/Os into free slots, committing full batches; false once the job stops issuing. */
    private boolean fill() {
        long start = System.nanoTime();
        while (inflight + queued < depth) {
            if (!job.nextIo(start)) {
                return false;
            }
            int dir = job.ioDir();
            int slot = free[--nfree];
            Sqe sqe = ring.getSqe();
            long offset = 0;
            int len = 0;
            if (dir == Ddir.SYNC) {
                // An fsync after N writes covers the writes before it: drain them first.
                sqe.prepFsync(sqeFd, job.syncDataOnly() ? io.jring.Fsync.DATASYNC : 0).flags(sqeFlags | SqeFlags.IO_DRAIN);
            } else {
                offset = job.ioOffset();
                len = job.ioLength();
                MemorySegment buf = bufs[slot];
                if (dir == Ddir.READ) {
                    if (fixedBufs) {
                        sqe.prepReadFixed(sqeFd, buf, offset, slot);
                    } else {
                        sqe.prepRead(sqeFd, buf, offset);
                    }
                } else if (fixedBufs) {
                    sqe.prepWriteFixed(sqeFd, buf, offset, slot);
                } else {
                    sqe.prepWrite(sqeFd, buf, offset);
                }
                if (!fixedBs) {
                    sqe.len(len);   // a size from a range: part of the slot's buffer
                }
                if (sqeFlags != 0) {
                    sqe.flags(sqeFlags);
                }
            }
            sqe.userData(slot);
            slotDir[slot] = (byte) dir;
            slotOffset[slot] = offset;
            slotLen[slot] = len;
            slotStart[slot] = start;
            pending[queued++] = slot;
            if (queued >= batchSubmit) {
                start = commit();
            }
        }
        return true;
    }

    /** Submits what is queued; returns the time right after. */
    private long commit() {
        int n;
        try {
            n = ring.submit();
        } catch (IoUringException e) {
            job.failEngine(e.errno(), "submit failed: " + e.getMessage());
            n = 0;
        }
        long now = System.nanoTime();
        if (n <= 0) {
            // Nothing consumed: a broken ring. Give the slots back and stop the job.
            if (job.stats.error == 0) {
                job.failEngine(io.jring.Errno.EIO, "submit consumed none of " + queued + " queued SQEs");
            }
            for (int i = 0; i < queued; i++) {
                free[nfree++] = pending[i];
            }
            queued = 0;
            return now;
        }
        for (int i = 0; i < n; i++) {
            slotIssue[pending[i]] = now;
        }
        if (n < queued) {
            // Without SUBMIT_ALL, submission stops after an SQE that failed early; the rest wait.
            System.arraycopy(pending, n, pending, 0, queued - n);
        }
        queued -= n;
        inflight += n;
        job.stats.markSubmit(n, inflight);
        return now;
    }

    /**
     * Reaps at least {@code min} CQEs and at most iodepth_batch_complete_max (fio's default: the
     * min, so one per reap; CQEs beyond it stay in the CQ for the next reap, as in fio).
     */
    private void reap(int min) {
        reapNanos = System.nanoTime();
        int got = completeMax >= depth ? ring.forEachCqe(onCqe) : peekUpTo(completeMax);
        while (got < min) {
            Cqe cqe = ring.waitCqe();
            reapNanos = System.nanoTime();
            onCqe(cqe.userData(), cqe.res(), cqe.flags());
            ring.cqeSeen(cqe);
            got++;
            if (got < completeMax) {
                got += completeMax >= depth ? ring.forEachCqe(onCqe) : peekUpTo(completeMax - got);
            }
        }
        job.stats.markComplete(got);
    }

    private int peekUpTo(int max) {
        int got = 0;
        Cqe cqe;
        while (got < max && (cqe = ring.peekCqe()) != null) {
            onCqe(cqe.userData(), cqe.res(), cqe.flags());
            ring.cqeSeen(cqe);
            got++;
        }
        return got;
    }

    private void onCqe(long userData, int res, int flags) {
        int slot = (int) userData;
        if (slot < 0 || slot >= depth) {
            return;
        }
        if (slotDir[slot] == Ddir.SYNC) {
            job.completeSync(res, slotStart[slot], reapNanos);
        } else {
            job.complete(slotDir[slot], res, slotLen[slot], slotOffset[slot], slotStart[slot], slotIssue[slot], reapNanos, true);
        }
        free[nfree++] = slot;
        inflight--;
    }

    @Override
    public void close() {
        if (ring != null) {
            ring.close();
            ring = null;
        }
        if (fd >= 0) {
            Fds.close(fd);
            fd = -1;
        }
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
