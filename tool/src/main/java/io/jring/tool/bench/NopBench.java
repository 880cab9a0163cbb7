package io.jring.tool.bench;

import io.jring.TaskWorkKind;
import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.Latency;
import io.jring.tool.report.LiveStatus;
import io.jring.tool.report.ThreadCpu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench nop}: submit+reap NOP throughput of one ring driven by one thread,
 * shaped after fio's t/io_uring -N. Compared with the kernel's own NOP rate on this machine
 * class (BENCHMARKS.md anchors: 10-11M ops/s in batches of 32).
 */
@Command(name = "nop", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "NOP throughput: how fast one thread submits and reaps requests that do nothing.",
            "The thread prepares --batch NOPs, submits them and reaps every completion, over and over. With --anchor "
                    + "the kernel's own io_uring is measured the same way first, and the ratio of the two is printed."})
public final class NopBench implements Callable<Integer> {

    /** Kernel io_uring NOP rate on this machine class, mid-point of BENCHMARKS.md's 10-11M. */
    public static final double KERNEL_ANCHOR_OPS = 10.5e6;

    @Option(names = "--batch", defaultValue = "32", description = "NOPs per submit (default ${DEFAULT-VALUE}).")
    int batch;

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(5);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(2);

    @Option(names = "--flags", defaultValue = "single", paramLabel = "single|defer|none",
            description = "Ring setup: single = SINGLE_ISSUER, defer = SINGLE_ISSUER|DEFER_TASKRUN, none (default ${DEFAULT-VALUE}).")
    RingFlags flags;

    @Mixin
    BenchOptions.Kind kind = BenchOptions.Kind.one(TaskWorkKind.MPSC);

    @Option(names = "--reap", defaultValue = "foreach", paramLabel = "foreach|peek",
            description = "How CQEs are reaped: forEachCqe, or peekCqe+cqeSeen (default ${DEFAULT-VALUE}).")
    NopLoop.Reap reap;

    @Option(names = "--stats-every", defaultValue = "0", paramLabel = "<ms>",
            description = "Another thread reads the ring's stats() every <ms> milliseconds while it runs, as a "
                    + "metrics exporter would; 0 = never (default ${DEFAULT-VALUE}).")
    int statsEveryMs;

    @Mixin
    BenchOptions.Anchor anchor = new BenchOptions.Anchor();

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    /** What one run measured. */
    public record Result(int batch, RingFlags flags, TaskWorkKind kind, String reap, int sqEntries,
                         long ops, long nanos, long cpuNanos, long errors, Latency roundTrip,
                         int statsEveryMs, long statsReads) {
        public double opsPerSec() {
            return nanos == 0 ? 0.0 : ops * 1e9 / nanos;
        }

        public double nsPerOp() {
            return ops == 0 ? 0.0 : (double) nanos / ops;
        }

        public double anchorRatio() {
            return opsPerSec() / KERNEL_ANCHOR_OPS;
        }

        /**
         * NOPs per second of the loop thread's own CPU time: what the loop would do with a
         * core to itself. On a shared machine this is the steadier figure; NaN if unknown.
         */
        public double opsPerCpuSec() {
            return cpuNanos <= 0 ? Double.NaN : ops * 1e9 / cpuNanos;
        }

        /** Share of the window the loop thread was on a CPU (1.0 = never preempted). */
        public double cpuShare() {
            return cpuNanos <= 0 || nanos == 0 ? Double.NaN : (double) cpuNanos / nanos;
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        KernelAnchor.Run kernel = !anchor.isOn() ? null
                : KernelAnchor.run("nop", Integer.toString(batch), Integer.toString(seconds.value()),
                        KernelAnchor.modeOf(flags));
        Result r;
        try (LiveStatus status = output.startStatus(out, TimeUnit.SECONDS.toNanos(warmup.value() + seconds.value()))) {
            r = measure(status);
        }
        if (output.isJson()) {
            JsonLine j = toJson(r);
            if (kernel != null && kernel.opsPerSec().isPresent()) {
                double k = kernel.opsPerSec().getAsDouble();
                j.put("kernel_ops_per_sec", Math.round(k)).put("kernel_ratio", r.opsPerSec() / k);
            }
            out.println(j);
        } else {
            printHuman(out, r);
            KernelAnchor.printComparison(out, kernel, "NOP", "nop.c", "ops/s", r.opsPerSec());
        }
        out.flush();
        return r.errors() == 0 ? 0 : 1;
    }

    private void validate() {
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--batch", batch, 1, 32768);
        BenchOptions.requireRange(spec.commandLine(), "--stats-every", statsEveryMs, 0, 3_600_000);
    }

    /** Runs warmup then the measured window on a fresh ring and thread. */
    Result measure(LiveStatus status) throws InterruptedException {
        TaskWorkKind kind = this.kind.single();
        NopLoop loop = new NopLoop(batch, flags, kind, reap);
        Thread t = Thread.ofPlatform().name("jring-nop").start(loop);
        StatsReader stats = null;
        try {
            loop.awaitRing();
            if (statsEveryMs > 0) {
                stats = StatsReader.start(loop.ring(), statsEveryMs);
            }
            status.phase("nop " + kind + " " + flags + " batch=" + batch, "ops/s", loop::done);
            TimeUnit.SECONDS.sleep(warmup.value());
            long cpu0 = ThreadCpu.of(t);
            long c0 = loop.done();
            long t0 = System.nanoTime();
            loop.startMeasuring();
            TimeUnit.SECONDS.sleep(seconds.value());
            long c1 = loop.done();
            long t1 = System.nanoTime();
            long cpu1 = ThreadCpu.of(t);
            long reads = stats == null ? 0 : stats.stop();
            loop.stop();
            t.join();
            loop.rethrowFailure();
            return new Result(batch, flags, kind, reap.name(), loop.sqEntries(), c1 - c0, t1 - t0,
                    cpu0 < 0 || cpu1 < 0 ? -1L : cpu1 - cpu0, loop.errors(), Latency.of(loop.roundTrips()),
                    statsEveryMs, reads);
        } finally {
            if (stats != null) {
                stats.stop();
            }
            loop.stop();
            t.join();
        }
    }

    static JsonLine toJson(Result r) {
        JsonLine j = JsonLine.object()
                .put("bench", "nop")
                .put("kind", r.kind().name())
                .put("flags", r.flags().name())
                .put("batch", r.batch())
                .put("reap", r.reap())
                .put("ops", r.ops())
                .put("seconds", r.nanos() / 1e9)
                .put("ops_per_sec", Math.round(r.opsPerSec()))
                .put("ns_per_op", r.nsPerOp())
                .put("anchor_ratio", r.anchorRatio())
                .put("ops_per_cpu_sec", Math.rint(r.opsPerCpuSec()))
                .put("cpu_share", r.cpuShare())
                .put("errors", r.errors())
                .put("stats_every_ms", r.statsEveryMs())
                .put("stats_reads", r.statsReads());
        if (r.roundTrip().count() > 0) {
            // Latency of one batch's round trip: first SQE prepared -> last CQE reaped.
            j.put("lat_of", "batch").put("lat_ns", r.roundTrip().toJson());
        }
        return j;
    }

    private void printHuman(PrintWriter out, Result r) {
        out.printf("jring bench nop: batch=%d flags=%s kind=%s reap=%s sq=%d, %d s measured after %d s warmup%n",
                r.batch(), r.flags(), r.kind(), r.reap(), r.sqEntries(), seconds.value(), warmup.value());
        out.printf("  NOP: %s ops/s (%s ns/op), %d ops%n",
                Figures.si(r.opsPerSec()), Figures.fixed(r.nsPerOp(), 1), r.ops());
        out.printf("  %sx kernel anchor (BENCHMARKS.md: kernel io_uring NOP = 10-11M ops/s; ratio against %s)%n",
                Figures.fixed(r.anchorRatio(), 2), Figures.si(KERNEL_ANCHOR_OPS));
        if (!Double.isNaN(r.opsPerCpuSec())) {
            out.printf("  on-CPU: %s ops per CPU-second of the loop thread (%sx anchor); it had a CPU %s of the time%n",
                    Figures.si(r.opsPerCpuSec()), Figures.fixed(r.opsPerCpuSec() / KERNEL_ANCHOR_OPS, 2),
                    Figures.percent(r.cpuShare()));
        }
        if (r.roundTrip().count() > 0) {
            out.printf("  batch round trip (1 in %d batches): %s%n", NopLoop.SAMPLE_MASK + 1, r.roundTrip().toHuman());
        }
        if (r.statsEveryMs() > 0) {
            out.printf("  stats() read every %d ms by another thread: %d reads%n", r.statsEveryMs(), r.statsReads());
        }
        if (r.errors() > 0) {
            out.printf("  ERRORS: %d NOP CQEs carried -errno%n", r.errors());
        }
    }
}
