package io.jring.tool.bench;

import io.jring.TaskWorkKind;
import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.Latency;
import io.jring.tool.report.LiveStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench msgring}: two threads, each owning a ring, streaming MSG_RING messages
 * at each other in batches (or ping-pong, one message in flight). Compared with the kernel
 * doing the same on this machine in the same run (tool/anchors/msgring.c).
 */
@Command(name = "msgring", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "MSG_RING throughput: messages between two threads that each own a ring.",
            "Both threads send --batch messages at a time to the other and count what arrives; --pingpong keeps "
                    + "one message in flight and times round trips. With --anchor the kernel's own io_uring is "
                    + "measured the same way first, and the ratio of the two is printed."})
public final class MsgRingBench implements Callable<Integer> {

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(3);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(1);

    @Option(names = "--batch", defaultValue = "32", description = "Messages per submit when streaming (default ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--no-defer",
            description = "Rings with SINGLE_ISSUER only; by default SINGLE_ISSUER|DEFER_TASKRUN.")
    boolean noDefer;

    @Mixin
    BenchOptions.Kind kind = BenchOptions.Kind.one(TaskWorkKind.MPSC);

    @Option(names = "--legacy",
            description = "Post each message straight into the target ring under its lock and wake its owner, as "
                    + "Linux did before MSG_RING used task work, instead of handing it over as task work.")
    boolean legacy;

    @Option(names = "--pingpong",
            description = "One message in flight: A sends, B answers, A times the round trip.")
    boolean pingpong;

    @Mixin
    BenchOptions.Anchor anchor = new BenchOptions.Anchor();

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    /** What one run measured: messages received over both directions, or round trips. */
    public record Result(int batch, RingFlags flags, TaskWorkKind kind, boolean pingpong, int sqEntries,
                         long msgs, long nanos, long errors, Latency roundTrip, LoopCounters.Snapshot cost) {
        public double msgsPerSec() {
            return nanos == 0 ? 0.0 : msgs * 1e9 / nanos;
        }

        public double nsPerMsg() {
            return msgs == 0 ? 0.0 : (double) nanos / msgs;
        }

        String mode() {
            return pingpong ? "pingpong" : "stream";
        }
    }

    RingFlags flags() {
        return noDefer ? RingFlags.single : RingFlags.defer;
    }

    /** Ping-pong keeps one message in flight whatever --batch says. */
    int effectiveBatch() {
        return pingpong ? 1 : batch;
    }

    @Override
    public Integer call() throws InterruptedException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        KernelAnchor.Run kernel = !anchor.isOn() ? null
                : KernelAnchor.run("msgring", Integer.toString(effectiveBatch()), Integer.toString(seconds.value()),
                        KernelAnchor.modeOf(flags()), pingpong ? "pingpong" : "stream");
        Result r;
        try (LiveStatus status = output.startStatus(out, TimeUnit.SECONDS.toNanos(warmup.value() + seconds.value()))) {
            r = measure(status);
        }
        if (output.isJson()) {
            JsonLine j = toJson(r);
            if (kernel != null && kernel.opsPerSec().isPresent()) {
                double k = kernel.opsPerSec().getAsDouble();
                j.put("kernel_ops_per_sec", Math.round(k)).put("kernel_ratio", r.msgsPerSec() / k);
            }
            out.println(j);
        } else {
            printHuman(out, r);
            KernelAnchor.printComparison(out, kernel, "MSG_RING", "msgring.c", unit(r), r.msgsPerSec());
        }
        out.flush();
        return r.errors() == 0 ? 0 : 1;
    }

    private void validate() {
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--batch", batch, 1, 4096);
    }

    /** Runs warmup then the measured window on two fresh rings and threads. */
    Result measure(LiveStatus status) throws InterruptedException {
        TaskWorkKind kind = this.kind.single();
        MsgRingLoop[] loops = MsgRingLoop.pair(effectiveBatch(), flags(), kind, pingpong, legacy);
        MsgRingLoop a = loops[0];
        MsgRingLoop b = loops[1];
        Thread ta = Thread.ofPlatform().name("jring-msgring-a").start(a);
        Thread tb = Thread.ofPlatform().name("jring-msgring-b").start(b);
        try {
            a.awaitRings();
            status.phase("msgring " + (pingpong ? "pingpong" : "stream") + " " + kind + " " + flags(),
                    pingpong ? "trips/s" : "msgs/s", () -> a.received() + b.received());
            TimeUnit.SECONDS.sleep(warmup.value());
            LoopCounters.Snapshot k0 = a.counters.snapshot().plus(b.counters.snapshot());
            long c0 = a.received() + b.received();
            long t0 = System.nanoTime();
            a.startMeasuring();
            TimeUnit.SECONDS.sleep(seconds.value());
            long c1 = a.received() + b.received();
            long t1 = System.nanoTime();
            LoopCounters.Snapshot cost = a.counters.snapshot().plus(b.counters.snapshot()).minus(k0);
            a.stop();
            b.stop();
            ta.join();
            tb.join();
            a.rethrowFailure();
            b.rethrowFailure();
            return new Result(effectiveBatch(), flags(), kind, pingpong, a.sqEntries(), c1 - c0, t1 - t0,
                    a.errors() + b.errors(), Latency.of(a.roundTrips()), cost);
        } finally {
            a.stop();
            b.stop();
            ta.join();
            tb.join();
        }
    }

    private static String unit(Result r) {
        return r.pingpong() ? "round trips/s" : "msgs/s";
    }

    static JsonLine toJson(Result r) {
        JsonLine j = JsonLine.object()
                .put("bench", "msgring")
                .put("mode", r.mode())
                .put("kind", r.kind().name())
                .put("flags", r.flags().name())
                .put("batch", r.batch())
                .put("msgs", r.msgs())
                .put("seconds", r.nanos() / 1e9)
                .put("ops_per_sec", Math.round(r.msgsPerSec()))
                .put("ns_per_op", r.nsPerMsg())
                .put("errors", r.errors())
                .put("cpu_ns_per_op", r.cost().cpuNanos() < 0 ? -1.0 : (double) r.cost().cpuNanos() / Math.max(1, r.msgs()))
                .put("wakeups_per_op", (double) r.cost().wakeups() / Math.max(1, r.msgs()))
                .put("bytes_per_op", r.cost().allocatedBytes() < 0 ? -1.0 : (double) r.cost().allocatedBytes() / Math.max(1, r.msgs()))
                .put("sleeps_per_sec", r.cost().sleeps() < 0 ? -1.0 : r.cost().sleeps() * 1e9 / Math.max(1, r.nanos()));
        if (r.roundTrip().count() > 0) {
            j.put("lat_of", "round_trip").put("lat_ns", r.roundTrip().toJson());
        }
        return j;
    }

    private void printHuman(PrintWriter out, Result r) {
        out.printf("jring bench msgring: %s batch=%d flags=%s kind=%s sq=%d, %d s measured after %d s warmup%n",
                r.mode(), r.batch(), r.flags(), r.kind(), r.sqEntries(), seconds.value(), warmup.value());
        if (r.pingpong()) {
            out.printf("  MSG_RING ping-pong: %s round trips/s (%s ns/round trip), %d round trips%n",
                    Figures.si(r.msgsPerSec()), Figures.fixed(r.nsPerMsg(), 1), r.msgs());
            out.printf("  round trip: median %s  p99 %s  (%s)%n",
                    Latency.time(r.roundTrip().p50()), Latency.time(r.roundTrip().p99()), r.roundTrip().toHuman());
        } else {
            out.printf("  MSG_RING: %s msgs/s over both directions (%s ns/msg), %d msgs%n",
                    Figures.si(r.msgsPerSec()), Figures.fixed(r.nsPerMsg(), 1), r.msgs());
        }
        printCost(out, r);
        if (r.errors() > 0) {
            out.printf("  ERRORS: %d MSG_RING sends completed with -errno%n", r.errors());
        }
    }

    /** Both loop threads over the measured window: what a message costs besides its rate. */
    private static void printCost(PrintWriter out, Result r) {
        LoopCounters.Snapshot c = r.cost();
        double msgs = Math.max(1, r.msgs());
        String per = r.pingpong() ? "trip" : "msg";
        out.printf("  both loops: %s ns CPU/%s, %s wakeups/%s, %s sleeps/s (voluntary context switches), %s %ss/sleep,"
                        + " %s B allocated/%s%n",
                c.cpuNanos() < 0 ? "-" : Figures.fixed(c.cpuNanos() / msgs, 1), per,
                Figures.fixed(c.wakeups() / msgs, 4), per,
                c.sleeps() < 0 ? "-" : Figures.si(c.sleeps() * 1e9 / Math.max(1, r.nanos())),
                c.sleeps() <= 0 ? "-" : Figures.si(msgs / c.sleeps()), per,
                c.allocatedBytes() < 0 ? "-" : Figures.fixed(c.allocatedBytes() / msgs, 4), per);
    }
}
