package io.jring.tool.fio;

import io.jring.Fds;
import io.jring.IoUringException;
import io.jring.OpenFlags;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A running job as its engine sees it (fio's {@code thread_data}): what to issue next
 * ({@link #nextIo}), when to stop, its passes over the region, the advice its file gets at
 * every open, and where completions are accounted. The engine's loop calls it from the job's
 * thread only; {@link #stop} and the progress counters are the only cross-thread parts.
 *
 * <p>Passes follow fio's {@code keep_running}: {@code loops} of them, more while
 * {@code io_size} is not done; the engine opens the file again for each, and every open
 * drops the region's cached pages ({@code invalidate}) and gives the {@code fadvise_hint},
 * as fio's {@code td_io_open_file}. A time based job makes one pass that starts over when
 * the region is done, invalidating the cache again if buffered (fio's
 * {@code loop_cache_invalidate}).
 *
 * <p>Accounting follows fio: I/O that completes during {@code --ramp_time} is not measured;
 * a completion with {@code res < 0} is the job's error and stops it (fio's default
 * {@code continue_on_error=none}); a completion with fewer bytes than asked is a short I/O,
 * counted with the bytes it did.
 */
public final class Job {
    /** fio's bwavgtime/iopsavgtime: one bandwidth and one IOPS sample per 500 ms. */
    static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    final JobSpec spec;
    /** 0-based clone number (fio's job number within numjobs). */
    final int number;
    /** fio's thread_number: 1-based over every job and clone of the run; seeds the job's streams. */
    final long threadNumber;
    /** fio's groupid. */
    final int groupId;
    final Path file;
    final JobStats stats = new JobStats();
    private final IoPattern pattern;
    private final Fadvise fadvise;
    /** What went wrong without failing the job (fio's log_info), e.g. an invalidation the file system refused. Job thread. */
    final List<String> warnings = new ArrayList<>(0);

    /**
     * Set by another thread (Ctrl-C, or the run giving up) or by this one on an error; read
     * once per batch by {@link #keepIssuing}. Volatile: a plain load on x86, and the job sees
     * it within one batch.
     */
    private volatile boolean stopped;

    /**
     * For the live status line: read ios, read bytes, write ios, write bytes. Written by the
     * job thread with setOpaque (a plain store on x86, never torn), read opaque by the status
     * thread, which only needs a recent value.
     */
    private final AtomicLongArray progress = new AtomicLongArray(4);

    /** When the job began issuing (System.nanoTime), 0 before: for the status line's progress and ETA. */
    private volatile long begunNanos;
    /** When the job ended (System.nanoTime), 0 before; written by the job thread, read after it was joined. */
    private long endedNanos;

    // Job-thread only, plain fields.
    private long startNanos;
    private long measureStartNanos;
    private long endNanos;
    private long nextSampleNanos;
    private long lastSampleNanos;
    private long lastCompletionNanos;
    private long issuedBytes;
    /** I/Os issued, and those of them that completed during the ramp: fio's number_ios counts the rest. */
    private long issuedIos;
    private long rampIos;
    private final long ioLimit;
    private int passes = 1;
    private boolean passOver;
    /** The engine's descriptor of the file, -1 if it does not expose one (the JDK engines). */
    private int openFd = -1;
    // The I/O nextIo decided.
    private int ioDir;
    private long ioOffset;
    private int ioLength;
    private final long[] sampledBytes = new long[2];
    private final long[] sampledIos = new long[2];
    private long readIosSeen;
    private long readBytesSeen;
    private long writeIosSeen;
    private long writeBytesSeen;
    private CpuUsage cpuAtStart;

    Job(JobSpec spec, int number, long threadNumber, int groupId, Path file, Fadvise fadvise) {
        this.spec = spec;
        this.number = number;
        this.threadNumber = threadNumber;
        this.groupId = groupId;
        this.file = file;
        this.fadvise = fadvise;
        this.pattern = new IoPattern(spec, threadNumber);
        this.ioLimit = spec.ioLimit();
    }

    /** Starts the clocks; called by the job's thread right before the engine's loop. */
    void begin() {
        cpuAtStart = CpuUsage.atStart();
        long now = System.nanoTime();
        startNanos = now;
        measureStartNanos = now + spec.rampNanos();
        endNanos = spec.runtimeNanos() == 0 ? Long.MAX_VALUE : measureStartNanos + spec.runtimeNanos();
        lastSampleNanos = measureStartNanos;
        nextSampleNanos = measureStartNanos + SAMPLE_NANOS;
        lastCompletionNanos = measureStartNanos;
        begunNanos = now;
    }

    /** Stops the clocks after the engine's loop has reaped everything. */
    void end() {
        long now = System.nanoTime();
        endedNanos = now;
        stats.totalRunNanos = now - startNanos;
        stats.runtimeNanos = Math.max(0, lastCompletionNanos - measureStartNanos);
        stats.cpu = CpuUsage.atEnd().since(cpuAtStart);
    }

    /** Asks the job to stop issuing; in-flight I/O is still reaped. Any thread. */
    public void stop() {
        stopped = true;
    }

    /** Whether to issue another I/O at time {@code now} (System.nanoTime). */
    boolean keepIssuing(long now) {
        return !stopped && !passOver && now < endNanos && (spec.timeBased() || issuedBytes < ioLimit) && !numberIosDone();
    }

    /**
     * fio's exceeds_number_ios: the I/Os done since the ramp, queued and in flight included,
     * reached number_ios times loops.
     */
    private boolean numberIosDone() {
        long n = spec.control().numberIos();
        return n > 0 && issuedIos - rampIos >= n * spec.loops();
    }

    /**
     * fio's get_io_u: decides the next I/O ({@link #ioDir}, {@link #ioOffset},
     * {@link #ioLength}) and counts it as issued; false when the job stops issuing (its time or
     * bytes are done, it failed or was stopped, or the pass is over).
     */
    boolean nextIo(long now) {
        if (!keepIssuing(now)) {
            return false;
        }
        int dir = pattern.nextDir();
        ioDir = dir;
        if (dir == Ddir.SYNC) {
            ioOffset = 0;
            ioLength = 0;
            if (!pattern.dataSync() && now >= measureStartNanos) {
                stats.syncIos++;   // fio's total_io_u[DDIR_SYNC]: fsyncs issued; fdatasyncs only have latency
            }
            return true;
        }
        long offset = pattern.next(dir);
        if (offset < 0) {
            passOver = true;
            return false;
        }
        if (pattern.takeWrapped() && spec.invalidate() && !spec.direct()) {
            invalidate(openFd);
        }
        ioOffset = offset;
        ioLength = pattern.length();
        issuedBytes += ioLength;
        issuedIos++;
        return true;
    }

    int ioDir() {
        return ioDir;
    }

    /** The SYNC {@link #nextIo} decided is an fdatasync (fdatasync=N), not an fsync. */
    boolean syncDataOnly() {
        return pattern.dataSync();
    }

    long ioOffset() {
        return ioOffset;
    }

    int ioLength() {
        return ioLength;
    }

    /**
     * After a pass: whether another one follows (fio's keep_running): while loops remain, or
     * while io_size is not done; never for a time based job (its one pass wraps) or one that
     * stopped. If so the pattern starts over and the engine opens the file again.
     */
    boolean nextPass(long now) {
        if (stopped || stats.error != 0 || now >= endNanos || spec.timeBased() || issuedBytes >= ioLimit || numberIosDone()) {
            return false;
        }
        boolean more = passes < spec.loops() || (spec.ioSize() > 0 && spec.ioSize() - issuedBytes >= spec.maxBs());
        if (more) {
            passes++;
            passOver = false;
            pattern.startPass();
        }
        return more;
    }

    /**
     * The end of a pass (fio's do_io after its last completion): with end_fsync, a job that
     * writes and did not fail fsyncs its file, and the fsync's time counts in the run time,
     * as in fio. A failed fsync is the job's error.
     */
    void passEnded() {
        if (!spec.control().endFsync() || !spec.rw().hasWrites() || stats.error != 0) {
            return;
        }
        try {
            int fd = Fds.open(file, OpenFlags.RDONLY | OpenFlags.CLOEXEC, 0);
            try {
                Fds.fsync(fd, false);
            } finally {
                Fds.close(fd);
            }
        } catch (IoUringException e) {
            failEngine(e.errno(), "end_fsync failed for file " + file + ": " + ErrnoText.of(e.errno()));
        }
        lastCompletionNanos = Math.max(lastCompletionNanos, System.nanoTime());
    }

    /** Passes begun so far. */
    int passes() {
        return passes;
    }

    /**
     * The engine opened the job's file ({@code fd}, or -1 if the engine keeps it to itself):
     * fio's td_io_open_file drops the region's cached pages with invalidate=1, then gives the
     * fadvise_hint. A refusal is a warning, as in fio; the hint needs the engine's own
     * descriptor (the advice is per open file), so the JDK engines get none.
     */
    void fileOpened(int fd) {
        openFd = fd;
        if (spec.invalidate()) {
            invalidate(fd);
        }
        int advice = spec.fadviseHint().advice(spec.rw());
        if (advice >= 0 && fd >= 0) {
            int err = fadvise.advise(fd, spec.offset(), spec.size(), advice);
            if (err != 0 && warnings.isEmpty()) {
                warnings.add("fadvise hint " + Fadvise.name(advice) + " failed on " + file + ": " + ErrnoText.of(err));
            }
        }
    }

    /** fio's file_invalidate_cache: POSIX_FADV_DONTNEED over the region, on {@code fd} or on a descriptor of our own. */
    private void invalidate(int fd) {
        int err;
        if (fd >= 0) {
            err = fadvise.advise(fd, spec.offset(), spec.size(), Fadvise.DONTNEED);
        } else {
            try {
                int own = Fds.open(file, OpenFlags.RDONLY | OpenFlags.CLOEXEC, 0);
                try {
                    err = fadvise.advise(own, spec.offset(), spec.size(), Fadvise.DONTNEED);
                } finally {
                    Fds.close(own);
                }
            } catch (IoUringException e) {
                err = e.errno();
            }
        }
        if (err != 0) {
            warnings.add("cache invalidation of " + file + " failed: " + ErrnoText.of(err));
        }
    }

    /**
     * A READ or WRITE of {@code len} bytes at {@code offset} completed with {@code res}
     * (bytes, or -errno): prepared at {@code startNanos}, submitted at {@code issueNanos},
     * completed (seen) at {@code doneNanos}. {@code hasSlat}: the engine submits
     * asynchronously, so submission latency is meaningful (fio reports none for sync engines).
     */
    void complete(int ddir, long res, int len, long offset, long startNanos, long issueNanos, long doneNanos, boolean hasSlat) {
        if (res < 0) {
            fail(ddir, (int) -res, offset, len);
            return;
        }
        if (ddir == Ddir.READ) {
            progress.setOpaque(0, ++readIosSeen);
            progress.setOpaque(1, readBytesSeen += res);
        } else {
            progress.setOpaque(2, ++writeIosSeen);
            progress.setOpaque(3, writeBytesSeen += res);
        }
        if (doneNanos < measureStartNanos) {
            rampIos++;
            return;
        }
        DirStats d = stats.dir(ddir);
        d.ios++;
        d.bytes += res;
        if (res < len) {
            d.shortIos++;
        }
        if (hasSlat) {
            d.slat.record(issueNanos - startNanos);
        }
        d.clat.record(doneNanos - issueNanos);
        d.lat.record(doneNanos - startNanos);
        if (doneNanos > lastCompletionNanos) {
            lastCompletionNanos = doneNanos;
        }
        if (doneNanos >= nextSampleNanos) {
            sample(doneNanos);
        }
    }

    /** A READ or WRITE done by a synchronous call from {@code startNanos} to {@code doneNanos}. */
    void completeInline(int ddir, long res, int len, long offset, long startNanos, long doneNanos) {
        stats.markSubmit(1, 1);
        stats.markComplete(1);
        complete(ddir, res, len, offset, startNanos, startNanos, doneNanos, false);
    }

    /** An fsync or fdatasync (from {@code --fsync=N}, {@code --fdatasync=N}) prepared at {@code startNanos} completed with {@code res}. */
    void completeSync(long res, long startNanos, long doneNanos) {
        if (res < 0) {
            fail(Ddir.SYNC, (int) -res, 0, 0);
            return;
        }
        if (doneNanos < measureStartNanos) {
            return;
        }
        stats.syncLat.record(doneNanos - startNanos);
    }

    /** The engine could not go on (open failed, the ring refused work): the job's error. */
    void failEngine(int errno, String what) {
        if (stats.error == 0) {
            stats.error = errno;
            stats.errorText = what;
        }
        stopped = true;
    }

    /** When the job ended (System.nanoTime); read once the job's thread has been joined. */
    long endedNanos() {
        return endedNanos;
    }

    /** When the job began issuing (System.nanoTime), or 0 if it has not yet. Any thread. */
    long begunNanos() {
        return begunNanos;
    }

    /** Reads then writes: ios and bytes so far, for the status line. Any thread. */
    long progress(int index) {
        return progress.getOpaque(index);
    }

    private void fail(int ddir, int errno, long offset, int len) {
        if (stats.error == 0) {
            stats.error = errno;
            // fio: "fio: io_u error on file /tmp/x: Invalid argument: read offset=4096, buflen=4096"
            stats.errorText = "io_u error on file " + file + ": " + ErrnoText.of(errno) + ": " + Ddir.name(ddir)
                    + (ddir == Ddir.SYNC ? "" : " offset=" + offset + ", buflen=" + len);
        }
        stopped = true;
    }

    private void sample(long now) {
        long elapsed = now - lastSampleNanos;
        sampleDir(Ddir.READ, stats.read, elapsed, spec.rw().hasReads());
        sampleDir(Ddir.WRITE, stats.write, elapsed, spec.rw().hasWrites());
        lastSampleNanos = now;
        nextSampleNanos = now + SAMPLE_NANOS;
    }

    private void sampleDir(int ddir, DirStats d, long elapsed, boolean active) {
        if (!active) {
            return;
        }
        long bytes = d.bytes - sampledBytes[ddir];
        long ios = d.ios - sampledIos[ddir];
        d.bw.add((long) (bytes * 1e9 / elapsed / 1024.0));
        d.iops.add((long) (ios * 1e9 / elapsed));
        sampledBytes[ddir] = d.bytes;
        sampledIos[ddir] = d.ios;
    }
}
