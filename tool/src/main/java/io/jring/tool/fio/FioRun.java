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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One {@code jring fio} run: its jobs (numjobs clones of each job definition), their groups
 * and files, and their threads. As in fio, every job runs at the same time unless one has
 * {@code stonewall}: that one and those after it wait until every job before it has ended
 * (a phase); {@code stonewall} and {@code new_group} start a new reporting group.
 * {@link #execute} runs the phases in order: it lays out each phase's files (and pre-reads
 * them), then runs each job on its own platform thread (engines are opened there, then all
 * start together). {@link #cleanup} removes the demo's temp files. {@link #abort} (Ctrl-C)
 * may come from any thread: jobs stop issuing, reap what is in flight, and end normally,
 * later phases do not start, and the report still prints.
 */
final class FioRun {
    /** Added to a job's thread number for its JIT warm-up job, whose offsets then differ from the job's. */
    static final int WARMUP_PATTERN_OFFSET = 1 << 16;
    /** The JIT warm-up runs at least this long... */
    static final long WARMUP_MIN_NANOS = 500_000_000L;
    /** ...and ends early once the JIT has been idle this long. */
    static final long JIT_QUIET_NANOS = 250_000_000L;
    /** Warm-up rounds: the second compiles again what the first one's end threw away. */
    static final int WARMUP_ROUNDS = 2;

    private final Fadvise fadvise;
    private final List<Job> jobs = new ArrayList<>();
    private final List<List<Job>> phases = new ArrayList<>();
    /** Set by abort (any thread), read between phases. */
    private volatile boolean aborted;
    /**
     * When the first phase's jobs were let go (System.nanoTime; jring's JIT warm-up is before
     * it, as fio has none): startdelay counts from here. Written by the running thread before
     * the phase's go latch opens, read by the job threads after it (the latch orders them).
     */
    private long runStartNanos;
    /** The demo's temp files, to remove; guarded by this. */
    private final Set<Path> tempFiles = new LinkedHashSet<>();

    FioRun(List<JobSpec> specs, Fadvise fadvise) {
        this.fadvise = fadvise;
        int group = 0;
        int jobsInGroup = 0;
        long threadNumber = 0;
        List<Job> phase = null;
        for (JobSpec spec : specs) {
            // fio's add_job: stonewall or new_group opens a group once the current one has jobs.
            if ((spec.stonewall() || spec.newGroup()) && jobsInGroup > 0) {
                group++;
                jobsInGroup = 0;
            }
            if (phase == null || (spec.stonewall() && !phase.isEmpty())) {
                phase = new ArrayList<>();
                phases.add(phase);
            }
            for (int clone = 0; clone < spec.numjobs(); clone++) {
                Job job = new Job(spec, clone, ++threadNumber, group, FileSetup.pathFor(spec, clone), fadvise);
                jobs.add(job);
                phase.add(job);
                jobsInGroup++;
            }
        }
    }

    List<Job> jobs() {
        return jobs;
    }

    List<List<Job>> phases() {
        return phases;
    }

    /**
     * Runs the phases in order; {@code info} gets fio's "Laying out IO file" lines,
     * {@code status} gives each phase's live status line (or null).
     */
    void execute(Consumer<String> info, Function<List<Job>, AutoCloseable> status) throws Exception {
        for (List<Job> phase : phases) {
            if (aborted) {
                break;
            }
            prepare(phase, info);
            try (AutoCloseable line = status.apply(phase)) {
                runPhase(phase);
            }
            removeUnlinked(phase);
        }
    }

    /** Lays out each distinct file of the phase that needs it, then pre-reads those asked for; a failure is its jobs' error. */
    private void prepare(List<Job> phase, Consumer<String> info) {
        Map<Path, List<Job>> byFile = new LinkedHashMap<>();
        for (Job job : phase) {
            byFile.computeIfAbsent(job.file, f -> new ArrayList<>()).add(job);
        }
        for (Map.Entry<Path, List<Job>> e : byFile.entrySet()) {
            Path file = e.getKey();
            Job first = e.getValue().getFirst();
            if (first.spec.temporary()) {
                synchronized (this) {
                    tempFiles.add(file);
                }
            }
            try {
                if (FileSetup.needsLayout(file, first.spec)) {
                    info.accept(first.spec.name() + ": Laying out IO file (1 file / " + ((first.spec.offset() + first.spec.size()) >> 20) + "MiB)");
                    FileSetup.layOut(file, first.spec, fadvise);
                }
            } catch (IOException ex) {
                failAll(e.getValue(), ErrnoText.errnoOf(ex), "cannot lay out " + file + ": " + ErrnoText.describe(ex));
                continue;
            }
            if (first.spec.preRead()) {
                try {
                    FileSetup.preRead(file, first.spec.offset(), first.spec.size());
                } catch (IOException ex) {
                    failAll(e.getValue(), ErrnoText.errnoOf(ex), "cannot pre-read " + file + ": " + ErrnoText.describe(ex));
                }
            }
        }
    }

    private static void failAll(List<Job> jobs, int errno, String what) {
        for (Job job : jobs) {
            job.failEngine(errno, what);
        }
    }

    /** Runs every job of the phase on its own thread; returns when all have ended. */
    private void runPhase(List<Job> phase) throws InterruptedException {
        CountDownLatch opened = new CountDownLatch(phase.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (Job job : phase) {
            threads.add(Thread.ofPlatform().name("jring-fio-" + job.spec.name() + "-" + job.number)
                    .start(() -> runJob(job, opened, go)));
        }
        opened.await();
        if (runStartNanos == 0) {
            runStartNanos = System.nanoTime();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    /** fio's unlink=1: the phase's files removed once its jobs are done. */
    private void removeUnlinked(List<Job> phase) {
        for (Job job : phase) {
            if (job.spec.unlink() && Files.isRegularFile(job.file)) {
                try {
                    Files.deleteIfExists(job.file);
                } catch (IOException e) {
                    job.warnings.add("cannot remove " + job.file + ": " + ErrnoText.describe(e));
                }
            }
        }
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
     * reports them. The measured run's own open invalidates the file again (invalidate=1),
     * so what the warm-up read is not cached for it.
     */
    void warmUpJit(Job job) {
        long deadline = System.nanoTime() + job.spec.jitWarmupNanos();
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            long left = deadline - System.nanoTime();
            if (round > 0 && left < JIT_QUIET_NANOS) {
                return;
            }
            warmUpRound(job, round, left, round == 0 ? WARMUP_MIN_NANOS : JIT_QUIET_NANOS);
        }
    }

    private void warmUpRound(Job job, int round, long nanos, long minNanos) {
        Job warm = new Job(job.spec.forJitWarmup(nanos), job.number, job.threadNumber + (round + 1L) * WARMUP_PATTERN_OFFSET,
                job.groupId, job.file, fadvise);
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

    /** One job's thread: warm-up, open, then its passes (fio's thread_main: open the file again for each). */
    private void runJob(Job job, CountDownLatch opened, CountDownLatch go) {
        IoEngine engine = null;
        try {
            try {
                if (job.stats.error == 0) {
                    if (job.spec.jitWarmupNanos() > 0) {
                        warmUpJit(job);
                    }
                    engine = IoEngine.create(job.spec.ioengine());
                    engine.open(job);
                }
            } catch (Throwable t) {
                fail(job, t);
            } finally {
                opened.countDown();
            }
            go.await();
            startDelay(job);
            job.begin();
            if (job.stats.error == 0) {
                try {
                    engine.run(job);
                    job.passEnded();
                    while (job.nextPass(System.nanoTime())) {
                        engine.reopen(job);
                        engine.run(job);
                        job.passEnded();
                    }
                } catch (Throwable t) {
                    fail(job, t);
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

    /** fio's startdelay: the job starts that long after the run began (its clock starts after). */
    private void startDelay(Job job) throws InterruptedException {
        long wait = runStartNanos + job.spec.control().startDelayNanos() - System.nanoTime();
        if (job.spec.control().startDelayNanos() > 0 && wait > 0) {
            Thread.sleep(Duration.ofNanos(wait));
        }
    }

    private static void fail(Job job, Throwable t) {
        switch (t) {
            case IoEngine.OpenFailure e -> job.failEngine(e.errno(), e.getMessage());
            case FileSystemException e -> job.failEngine(ErrnoText.errnoOf(e), "cannot open " + job.file + ": " + ErrnoText.describe(e));
            default -> job.failEngine(Errno.EIO, job.spec.ioengine() + " engine failed on " + job.file + ": " + t);
        }
    }

    /** Stops every job; they end after reaping what is in flight, and no later phase starts. Any thread. */
    void abort() {
        aborted = true;
        for (Job job : jobs) {
            job.stop();
        }
    }

    /** Removes the demo's temp files (never a job's own files). Idempotent; any thread. */
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
