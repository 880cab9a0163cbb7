package io.jring.tool.bench;

import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.Latency;
import io.jring.tool.report.LiveStatus;
import io.jring.tool.report.Rounds;
import io.jring.tool.report.Rotation;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench diowrite}: seed 002's experiment. O_DIRECT | O_DSYNC 4k random writes
 * (every write needs its data flush as completion processing) at queue depths 1..16, with
 * the flush on the DIO completion pool ("off", Linux's workqueue punt) and in the issuer's
 * task ("on", {@code callerCompletion(true)}). Modes alternate within every round at every
 * depth, the first mode changing each round; each reports the median of its rounds.
 */
@Command(name = "diowrite", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Direct write throughput: O_DIRECT|O_DSYNC 4k random writes at each queue depth, with and without caller completion.",
            "Each write needs a flush when it completes. It runs on a pool of completion threads (off) or in the "
                    + "task that issued the write (on, caller completion); both are measured in one run, alternating."})
public final class DiowriteBench implements Callable<Integer> {

    @Option(names = "--caller-completion", defaultValue = "both", paramLabel = "on|off|both",
            description = "Mode(s) to measure (default ${DEFAULT-VALUE}: both, and their ratio).")
    String callerCompletion;

    @Option(names = "--depth", defaultValue = "1,2,4,8,16", paramLabel = "N|N,M,..|N..M",
            converter = Counts.Converter.class, description = "Queue depths (default ${DEFAULT-VALUE}).")
    Counts depths;

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(3);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(1);

    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(3);

    @Option(names = "--size", defaultValue = "128", description = "Test file size in MiB, written once before measuring (default ${DEFAULT-VALUE}).")
    int sizeMiB;

    @Option(names = "--dir", description = "Directory of the test file, on a file system with O_DIRECT (default: java.io.tmpdir).")
    Path dir;

    @Option(names = "--flags", defaultValue = "single", paramLabel = "single|defer|none",
            description = "Ring setup (default ${DEFAULT-VALUE}).")
    RingFlags flags;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    /** One mode at one depth over all rounds. */
    record Result(boolean caller, int depth, Rounds iops, Latency latency) {}

    List<Boolean> modes() {
        return switch (callerCompletion) {
            case "on" -> List.of(true);
            case "off" -> List.of(false);
            case "both" -> List.of(false, true);
            default -> throw new ParameterException(spec.commandLine(),
                    "--caller-completion must be on, off or both, got " + callerCompletion);
        };
    }

    @Override
    public Integer call() throws IOException {
        List<Boolean> modes = modes();
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--size", sizeMiB, 1, Long.MAX_VALUE);
        int seconds = this.seconds.value();
        int warmup = this.warmup.value();
        int rounds = this.rounds.value();
        PrintWriter out = spec.commandLine().getOut();
        Path file = Files.createTempFile(dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir")),
                "jring-diowrite", ".dat");
        try {
            fill(file, (long) sizeMiB << 20);
            long blocks = ((long) sizeMiB << 20) / DiowriteTrial.BLOCK;
            if (!output.isJson()) {
                out.printf("jring bench diowrite: O_DIRECT|O_DSYNC 4k randwrite, %d MiB file %s, ring %s;"
                                + " %d rounds x %d s (+%d s warmup) per mode and depth%n",
                        sizeMiB, file, flags, rounds, seconds, warmup);
                out.println(header(modes));
                out.flush();
            }
            long planned = TimeUnit.SECONDS.toNanos((long) (seconds + warmup) * rounds * modes.size()
                    * depths.values().length);
            try (LiveStatus status = output.startStatus(out, planned)) {
                for (int depth : depths.values()) {
                    List<Result> results = measure(file, blocks, depth, modes, status);
                    status.println(out, output.isJson() ? jsonLines(results) : humanLine(depth, results));
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
        out.flush();
        return 0;
    }

    /** Writes the whole file once, so the measured writes overwrite allocated blocks. */
    private static void fill(Path file, long size) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long at = 0; at < size; at += chunk.capacity()) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    ch.write(chunk, at + chunk.position());
                }
            }
            ch.force(true);
        }
    }

    List<Result> measure(Path file, long blocks, int depth, List<Boolean> modes, LiveStatus status) {
        int rounds = this.rounds.value();
        double[][] iops = new double[modes.size()][rounds];
        Histogram[] lat = new Histogram[modes.size()];
        Rotation.run(rounds, modes, (r, m, caller) -> {
            status.phase("diowrite qd" + depth + " caller-completion=" + (caller ? "on" : "off")
                    + " round " + (r + 1) + "/" + rounds, "", () -> 0L);
            DiowriteTrial.Result res = new DiowriteTrial(file, blocks, depth, caller, flags.setupFlags())
                    .run(TimeUnit.SECONDS.toNanos(warmup.value()), TimeUnit.SECONDS.toNanos(seconds.value()),
                            31L * r + depth);
            iops[m][r] = res.iops();
            if (lat[m] == null) {
                lat[m] = res.latency();
            } else {
                lat[m].add(res.latency());
            }
        });
        List<Result> out = new ArrayList<>();
        for (int m = 0; m < modes.size(); m++) {
            out.add(new Result(modes.get(m), depth, Rounds.of(iops[m]), Latency.of(lat[m])));
        }
        return out;
    }

    private static String header(List<Boolean> modes) {
        StringBuilder sb = new StringBuilder(String.format("  %-5s", "QD"));
        for (boolean caller : modes) {
            String m = caller ? "on" : "off";
            sb.append(String.format(" %10s %7s %9s %9s", m + " IOPS", "spread", "p50", "p99"));
        }
        if (modes.size() == 2) {
            sb.append(String.format(" %8s", "on/off"));
        }
        return sb.toString();
    }

    private static String humanLine(int depth, List<Result> results) {
        StringBuilder sb = new StringBuilder(String.format("  %-5d", depth));
        for (Result r : results) {
            sb.append(String.format(" %10s %7s %9s %9s", Figures.si(r.iops().median()), Figures.percent(r.iops().spread()),
                    Latency.time(r.latency().p50()), Latency.time(r.latency().p99())));
        }
        if (results.size() == 2) {
            double ratio = results.get(1).iops().median() / results.get(0).iops().median();
            sb.append(String.format(" %8s", Figures.fixed(ratio, 3) + "x"));
        }
        return sb.toString();
    }

    private String jsonLines(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        for (Result r : results) {
            if (sb.length() > 0) {
                sb.append(System.lineSeparator());
            }
            JsonLine j = JsonLine.object()
                    .put("bench", "diowrite")
                    .put("caller_completion", r.caller())
                    .put("depth", r.depth())
                    .put("iops", Math.round(r.iops().median()))
                    .put("spread", r.iops().spread())
                    .put("rounds", r.iops().count())
                    .put("seconds", seconds.value())
                    .put("lat_ns", r.latency().toJson());
            if (results.size() == 2 && r.caller()) {
                j.put("vs_off", r.iops().median() / results.get(0).iops().median());
            }
            sb.append(j);
        }
        return sb.toString();
    }
}
