package io.jring.tool.soak;

import io.jring.IoUring;
import io.jring.Setup;
import io.jring.fault.FaultKind;
import io.jring.fault.FaultPlan;
import io.jring.fault.Faults;
import io.jring.tool.bench.OutputOptions;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.LiveStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring soak}: a bounded soak of the engine under injected faults. 2-4 threads, each
 * with its own ring (plain, SINGLE_ISSUER, DEFER_TASKRUN, then a plain ring attached to the
 * first one's io-wq), run rounds of mixed file, pipe, socket and loopback TCP I/O with
 * timeouts, cancels, links and MSG_RINGs to each other's rings, while the fault seam
 * ({@code io.jring.fault.Faults}) fails calls at {@code --fault-rate}. Every CQE is checked
 * to come exactly once per user data. Exit status 1 if any was lost or duplicated.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Soak under injected faults: 2-4 threads' rings run mixed files, pipes, sockets, loopback TCP,",
            "timeouts, cancels, links and MSG_RING while syscalls fail at --fault-rate (EAGAIN, short",
            "transfers, EINTR, EIO, ENOSPC, descriptors closed mid-flight, io-wq workers dying).",
            "Checks every CQE arrives exactly once; exit status 1 if any was lost or duplicated."})
public final class SoakCommand implements Callable<Integer> {

    /** The faults the soak injects, each at --fault-rate (owner exit is left to OwnerExitFaultTest). */
    static final FaultKind[] KINDS = {FaultKind.EAGAIN, FaultKind.SHORT, FaultKind.EINTR, FaultKind.EIO,
        FaultKind.ENOSPC, FaultKind.CLOSE, FaultKind.WORKER_DEATH};

    @Option(names = "--minutes", defaultValue = "1", description = "How long to run (default ${DEFAULT-VALUE}).")
    int minutes;

    @Option(names = "--seconds", description = "How long to run, in seconds (overrides --minutes; for short runs).")
    Integer seconds;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the fault streams (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--fault-rate", defaultValue = "0.01",
            description = "Probability that an eligible syscall gets each fault kind (0..1, default ${DEFAULT-VALUE}).")
    double faultRate;

    @Option(names = "--threads", defaultValue = "3", description = "Threads, each with its own ring: 2..4 (default ${DEFAULT-VALUE}).")
    int threads;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    /** What a soak saw. */
    public record Result(long seconds, int threads, long seed, double faultRate, long sqes, long cqes,
                         long deliveries, long rounds, long faults, long[] faultsByKind, long lost,
                         long duplicated, long late, long overdueRounds, String failure) {
        public boolean clean() {
            return lost == 0 && duplicated == 0 && failure == null;
        }
    }

    @Override
    public Integer call() throws Exception {
        validate();
        // The seam is read once, at the first syscall: arm it before the soak makes one.
        if (System.getProperty(Faults.PROPERTY) == null) {
            System.setProperty(Faults.PROPERTY, "true");
        }
        if (faultRate > 0 && !Faults.ENABLED) {
            throw new ParameterException(spec.commandLine(), "the fault seam is off in this JVM (-D"
                    + Faults.PROPERTY + "=false?); run with --fault-rate=0 or without that option");
        }
        PrintWriter out = spec.commandLine().getOut();
        long durationNanos = TimeUnit.SECONDS.toNanos(seconds != null ? seconds : 60L * minutes);
        Result r;
        try (LiveStatus status = output.startStatus(out, durationNanos)) {
            r = soak(durationNanos, status);
        }
        if (output.isJson()) {
            out.println(toJson(r));
        } else {
            printHuman(out, r);
        }
        out.flush();
        return r.clean() ? 0 : 1;
    }

    private void validate() {
        if (threads < 2 || threads > 4) {
            throw new ParameterException(spec.commandLine(), "--threads must be 2..4, got " + threads);
        }
        if (!(faultRate >= 0 && faultRate <= 1)) {
            throw new ParameterException(spec.commandLine(), "--fault-rate must be in 0..1, got " + faultRate);
        }
        if (seconds != null ? seconds < 1 : minutes < 1) {
            throw new ParameterException(spec.commandLine(), "the soak must run for at least 1 s");
        }
    }

    Result soak(long durationNanos, LiveStatus status) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("jring-soak");
        SoakRun run = new SoakRun(durationNanos);
        List<IoUring> rings = new ArrayList<>();
        SoakWorker[] workers = new SoakWorker[threads];
        FaultPlan plan = FaultPlan.seeded(seed).rate(faultRate, KINDS).build();
        long t0 = System.nanoTime();
        try (Faults.Session faults = faultRate > 0 ? Faults.install(plan) : null) {
            for (int i = 0; i < threads; i++) {
                IoUring ring = ringFor(i, rings);
                rings.add(ring);
                Path file = Files.createTempFile(dir, "soak" + i, ".dat");
                Files.write(file, new byte[64 * 4096]);
                workers[i] = new SoakWorker(i, ring, run, file);
            }
            run.setWorkers(workers);
            status.phase("soak " + threads + " threads, fault rate " + faultRate, "ops/s", run::ops);
            List<Thread> started = new ArrayList<>();
            for (SoakWorker w : workers) {
                started.add(Thread.ofPlatform().name("soak-" + w.id).start(w));
            }
            for (Thread t : started) {
                t.join();
            }
            for (IoUring ring : rings.reversed()) {
                ring.close();   // from this thread: SINGLE_ISSUER rings are closed by a non-owner
            }
            for (SoakWorker w : workers) {
                w.release();
            }
            return result(workers, faults, (System.nanoTime() - t0) / 1_000_000_000L);
        } finally {
            for (IoUring ring : rings) {
                ring.close();
            }
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** Thread i's ring: plain, SINGLE_ISSUER, DEFER_TASKRUN, then plain attached to ring 0's io-wq. */
    private static IoUring ringFor(int i, List<IoUring> earlier) {
        IoUring.Builder b = IoUring.builder().entries(64);
        return switch (i) {
            case 0 -> b.flags(Setup.SUBMIT_ALL).build();
            case 1 -> b.flags(Setup.SUBMIT_ALL | Setup.SINGLE_ISSUER).build();
            case 2 -> b.flags(Setup.SUBMIT_ALL | Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN).build();
            default -> b.flags(Setup.SUBMIT_ALL | Setup.ATTACH_WQ).attachWq(earlier.get(0)).build();
        };
    }

    private Result result(SoakWorker[] workers, Faults.Session faults, long elapsedSeconds) {
        long sqes = 0, cqes = 0, deliveries = 0, rounds = 0, lost = 0, duplicated = 0, late = 0, overdue = 0;
        String failure = null;
        for (SoakWorker w : workers) {
            sqes += w.sqes;
            cqes += w.ledger.cqes;
            deliveries += w.ledger.deliveries;
            rounds += w.rounds;
            lost += w.ledger.lost();
            duplicated += w.ledger.duplicated;
            late += w.ledger.late;
            overdue += w.overdueRounds;
            if (w.failure != null && failure == null) {
                failure = "soak-" + w.id + ": " + w.failure;
            }
        }
        long[] byKind = new long[FaultKind.values().length];
        long total = 0;
        if (faults != null) {
            for (FaultKind k : FaultKind.values()) {
                byKind[k.ordinal()] = faults.injected(k);
                total += byKind[k.ordinal()];
            }
        }
        return new Result(elapsedSeconds, threads, seed, faultRate, sqes, cqes, deliveries, rounds, total, byKind,
                lost, duplicated, late, overdue, failure);
    }

    static JsonLine toJson(Result r) {
        JsonLine byKind = JsonLine.object();
        for (FaultKind k : KINDS) {
            byKind.put(k.name(), r.faultsByKind()[k.ordinal()]);
        }
        JsonLine j = JsonLine.object()
                .put("command", "soak")
                .put("seconds", r.seconds())
                .put("threads", r.threads())
                .put("seed", r.seed())
                .put("fault_rate", r.faultRate())
                .put("ops", r.sqes())
                .put("cqes", r.cqes())
                .put("msg_ring_deliveries", r.deliveries())
                .put("rounds", r.rounds())
                .put("faults", r.faults())
                .put("faults_by_kind", byKind)
                .put("lost", r.lost())
                .put("duplicated", r.duplicated())
                .put("late", r.late())
                .put("overdue_rounds", r.overdueRounds());
        if (r.failure() != null) {
            j.put("failure", r.failure());
        }
        return j;
    }

    private static void printHuman(PrintWriter out, Result r) {
        out.printf(Locale.ROOT, "jring soak: %d s, %d threads (rings: %s), seed %d, fault rate %s per call and kind%n",
                r.seconds(), r.threads(), ringNames(r.threads()), r.seed(), r.faultRate());
        out.printf(Locale.ROOT, "  ops: %d SQEs submitted, %d CQEs reaped (%d MSG_RING deliveries), %d rounds%n",
                r.sqes(), r.cqes(), r.deliveries(), r.rounds());
        StringBuilder kinds = new StringBuilder();
        for (FaultKind k : KINDS) {
            kinds.append(kinds.isEmpty() ? "" : ", ").append(k).append(' ').append(r.faultsByKind()[k.ordinal()]);
        }
        out.printf(Locale.ROOT, "  faults injected: %d (%s)%n", r.faults(), kinds);
        out.printf(Locale.ROOT, "  lost: %d, duplicated: %d (late: %d, rounds that gave up waiting: %d)%n",
                r.lost(), r.duplicated(), r.late(), r.overdueRounds());
        if (r.failure() != null) {
            out.println("  FAILED: " + r.failure());
        }
        out.println(r.clean() ? "  clean: every CQE arrived exactly once" : "  NOT CLEAN");
    }

    private static String ringNames(int threads) {
        String[] names = {"plain", "SINGLE_ISSUER", "DEFER_TASKRUN", "ATTACH_WQ"};
        return String.join(", ", java.util.Arrays.copyOf(names, threads));
    }
}
