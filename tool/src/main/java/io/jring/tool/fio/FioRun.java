package io.jring.tool.fio;

import io.jring.Errno;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * One {@code jring fio} run: its jobs (numjobs clones of the spec), their files, and their
 * threads. {@link #prepare} lays out and warms the files, {@link #execute} runs every job on
 * its own platform thread (engines are opened there, then all start together) and returns
 * when all have ended, {@link #cleanup} removes the temp files. {@link #abort} (Ctrl-C) may
 * come from any thread: jobs stop issuing, reap what is in flight, and end normally, so the
 * report still prints.
 */
final class FioRun {
    /** Added to a job's number for its JIT warm-up job, whose offsets then differ from the job's. */
    static final int WARMUP_PATTERN_OFFSET = 1 << 16;
    /** The JIT warm-up runs at least this long... */
    static final long WARMUP_MIN_NANOS = 500_000_000L;
    /** ...and ends early once the JIT has been idle this long. */
    static final long JIT_QUIET_NANOS = 250_000_000L;
    /** Warm-up rounds: the second compiles again what the first one's end threw away. */
    static final int WARMUP_ROUNDS = 2;
    private final JobSpec spec;
    private final List<Job> jobs = new ArrayList<>();
    /** Files this run created and must remove; guarded by this. */
    private final Set<Path> tempFiles = new LinkedHashSet<>();

    FioRun(JobSpec spec) {
        this.spec = spec;
        for (int i = 0; i < spec.numjobs(); i++) {
            jobs.add(new Job(spec, i, JobFile.pathFor(spec, i)));
        }
    }

    List<Job> jobs() {
        return jobs;
    }

    /** Lays out, then warms or invalidates each distinct file; {@code info} gets fio's "Laying out IO file" lines. */
    void prepare(Consumer<String> info) throws IOException {
        for (Job job : firstJobPerFile()) {
            Path file = job.file;
            if (spec.filename() == null) {
                synchronized (this) {
                    tempFiles.add(file);
                }
            }
            try {
                if (JobFile.needsLayout(file, spec.size())) {
                    info.accept(spec.name() + ": Laying out IO file (1 file / " + Num2Str.of(spec.size(), true, Num2Str.BYTE) + ")");
                    JobFile.layOut(file, spec.size());
                }
            } catch (IOException e) {
                throw new IOException("cannot lay out " + file + ": " + reason(e), e);
            }
            try {
                if (spec.invalidate()) {
                    JobFile.invalidate(file);
                } else if (spec.warm()) {
                    JobFile.warm(file, spec.size());
                }
            } catch (IOException e) {
                throw new IOException("cannot " + (spec.invalidate() ? "invalidate " : "warm ") + file + ": " + reason(e), e);
            }
        }
    }

    private static String reason(IOException e) {
        return ErrnoText.describe(e);
    }

    /** Runs every job on its own thread; returns when all have ended. */
    void execute() throws InterruptedException {
        CountDownLatch opened = new CountDownLatch(jobs.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (Job job : jobs) {
            threads.add(Thread.ofPlatform().name("jring-fio-" + spec.name() + "-" + job.number)
                    .start(() -> runJob(job, opened, go)));
        }
        opened.await();
        if (spec.jitWarmupNanos() > 0 && spec.invalidate() && !spec.direct()) {
            dropCachesAgain();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    /** The JIT warm-up read the files into the page cache: what --invalidate promised is restored. */
    private void dropCachesAgain() {
        for (Job job : firstJobPerFile()) {
            try {
                JobFile.invalidate(job.file);
            } catch (IOException e) {
                job.failEngine(Errno.EIO, "cannot invalidate " + job.file + " after the JIT warm-up: " + reason(e));
            }
        }
    }

    /** The first job of each distinct file, in job order (clones may share a --filename). */
    private List<Job> firstJobPerFile() {
        Set<Path> seen = new LinkedHashSet<>();
        List<Job> first = new ArrayList<>();
        for (Job job : jobs) {
            if (seen.add(job.file)) {
                first.add(job);
            }
        }
        return first;
    }

    /**
     * Runs the job's engine on the job's file, unmeasured, on jobs of its own (other
     * offsets: a device cache must not serve the measured run's first reads), so the measured
     * run starts with the engine's code compiled by the JIT, as fio's is by its C compiler:
     * a first round for at least {@link #WARMUP_MIN_NANOS}, then until the JIT has compiled
     * nothing for {@link #JIT_QUIET_NANOS}; a second round until the JIT is quiet again,
     * because the first round's end takes branches the compiled code had never seen (the JIT
     * throws that code away and compiles it again: in the second round, not in the measured
     * run); both within --jit_warmup. Failures are left to the measured run's open, which
     * reports them.
     */
    static void warmUpJit(Job job) {
        long deadline = System.nanoTime() + job.spec.jitWarmupNanos();
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            long left = deadline - System.nanoTime();
            if (round > 0 && left < JIT_QUIET_NANOS) {
                return;
            }
            warmUpRound(job, round, left, round == 0 ? WARMUP_MIN_NANOS : JIT_QUIET_NANOS);
        }
    }

    private static void warmUpRound(Job job, int round, long nanos, long minNanos) {
        Job warm = new Job(job.spec.forJitWarmup(nanos), job.number + (round + 1) * WARMUP_PATTERN_OFFSET, job.file);
        IoEngine engine = null;
        Thread watcher = Thread.ofPlatform().daemon().name("jring-fio-jit-watch")
                .start(() -> stopWhenJitQuiet(warm, minNanos));
        try {
            engine = IoEngine.create(warm.spec.ioengine());
            engine.open(warm);
            warm.begin();
            engine.run(warm);
            warm.end();
        } catch (Exception e) {
            // the measured run opens the engine again and reports what is wrong
        } finally {
            watcher.interrupt();
            if (engine != null) {
                engine.close();
            }
        }
    }

    /**
     * Stops {@code warm}, after at least {@code minNanos}, once the JIT's total compilation
     * time stood still for {@link #JIT_QUIET_NANOS}.
     */
    private static void stopWhenJitQuiet(Job warm, long minNanos) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;   // no way to tell: the warm-up runs its whole --jit_warmup
        }
        try {
            Thread.sleep(Duration.ofNanos(Math.max(0, minNanos - JIT_QUIET_NANOS)));
            long last = jit.getTotalCompilationTime();
            for (;;) {
                Thread.sleep(Duration.ofNanos(JIT_QUIET_NANOS));
                long now = jit.getTotalCompilationTime();
                if (now == last) {
                    warm.stop();
                    return;
                }
                last = now;
            }
        } catch (InterruptedException done) {
            // the warm-up ended first
        }
    }

    private static void runJob(Job job, CountDownLatch opened, CountDownLatch go) {
        IoEngine engine = null;
        try {
            if (job.spec.jitWarmupNanos() > 0) {
                warmUpJit(job);
            }
            try {
                engine = IoEngine.create(job.spec.ioengine());
                engine.open(job);
            } catch (IoEngine.OpenFailure e) {
                job.failEngine(e.errno(), e.getMessage());
            } catch (FileSystemException e) {
                job.failEngine(ErrnoText.errnoOf(e), "cannot open " + job.file + ": " + ErrnoText.describe(e));
            } catch (Throwable t) {
                job.failEngine(Errno.EIO, "cannot set up " + job.spec.ioengine() + " on " + job.file + ": " + t);
            } finally {
                opened.countDown();
            }
            go.await();
            job.begin();
            if (job.stats.error == 0) {
                try {
                    engine.run(job);
                } catch (Throwable t) {
                    job.failEngine(Errno.EIO, job.spec.ioengine() + " engine failed: " + t);
                }
            }
            job.end();
        } catch (InterruptedException e) {
            job.failEngine(Errno.EINTR, "interrupted before starting");
        } finally {
            if (engine != null) {
                engine.close();
            }
        }
    }

    /** Stops every job; they end after reaping what is in flight. Any thread. */
    void abort() {
        for (Job job : jobs) {
            job.stop();
        }
    }

    /** Removes the temp files (not a --filename). Idempotent; any thread. */
    synchronized void cleanup() {
        for (Path file : tempFiles) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // best effort: a temp file in the temp dir
            }
        }
        tempFiles.clear();
    }
}
