package io.jring.tool.bench;

import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.Rounds;
import io.jring.tool.report.Rotation;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench vt} (issue 22): virtual threads on jring. File reads: {@code --threads}
 * virtual threads doing 4k random reads of one file through jring's FileChannel and the JDK's,
 * alternated round by round, with O_DIRECT, with a cold page cache (POSIX_FADV_DONTNEED before
 * each trial) and from the page cache: reads per second and the most platform threads alive.
 * Waits: virtual threads each waiting for a RECV, against one alone. JFR's
 * jdk.VirtualThreadPinned events over the whole run are counted.
 */
@Command(name = "vt", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Virtual threads: file reads through jring's FileChannel vs the JDK's, and RECV waits that park.",
            "Platform threads: the most alive during a trial (carriers, jring's threads, the JVM's). The JDK's extra "
                    + "carriers outlive its trials (30 s keep-alive), so compare thread counts with --impl jring and "
                    + "--impl jdk in separate runs."})
public final class VtBench implements Callable<Integer> {

    @Option(names = "--threads", defaultValue = "1000", description = "Virtual threads reading (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--size", defaultValue = "1024", description = "Test file size in MiB (default ${DEFAULT-VALUE}).")
    int sizeMiB;

    @Option(names = "--modes", defaultValue = "direct,cold,cached", split = ",",
            description = "File read modes: direct, cold, cached (default ${DEFAULT-VALUE}); none: skip the file part.")
    List<String> modes;

    @Option(names = "--impl", defaultValue = "both", paramLabel = "jring|jdk|both",
            description = "FileChannel(s) to measure (default ${DEFAULT-VALUE}).")
    String impl;

    @Option(names = "--recv-threads", defaultValue = "1000",
            description = "Virtual threads waiting for a RECV; 0 skips the part (default ${DEFAULT-VALUE}).")
    int recvThreads;

    @Option(names = "--recv-delay-ms", defaultValue = "1500", description = "Each RECV's data comes this long after it was submitted (default ${DEFAULT-VALUE}).")
    int recvDelayMs;

    @Option(names = "--dir", description = "Directory of the test file, on a file system with O_DIRECT (default: java.io.tmpdir).")
    Path dir;

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(3);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(1);

    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(5);

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--threads", threads, 1, 100_000);
        BenchOptions.requireRange(spec.commandLine(), "--size", sizeMiB, 1, 1 << 20);
        List<Boolean> impls = switch (impl) {
            case "jring" -> List.of(true);
            case "jdk" -> List.of(false);
            case "both" -> List.of(true, false);
            default -> throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--impl must be jring, jdk or both, got " + impl);
        };
        PrintWriter out = spec.commandLine().getOut();
        Path jfr = Files.createTempFile("jring-vt", ".jfr");
        warmUp(impls);
        try (Recording rec = new Recording()) {
            rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            rec.start();
            if (!modes.contains("none")) {
                fileReads(out, impls);
            }
            if (recvThreads > 0) {
                recvWaits(out);
            }
            rec.stop();
            rec.dump(jfr);
            List<jdk.jfr.consumer.RecordedEvent> events = RecordingFile.readAllEvents(jfr);
            long pinned = events.size();
            out.println(output.isJson() ? JsonLine.object().put("bench", "vt").put("pinned_events", pinned)
                    : "  JFR jdk.VirtualThreadPinned events over the run: " + pinned);
            if (pinned > 0 && !output.isJson()) {
                out.println("  the first: " + events.get(0));
            }
        } finally {
            Files.deleteIfExists(jfr);
        }
        out.flush();
        return 0;
    }

    /**
     * Loads and initialises the classes of the measured paths before the recording starts:
     * a virtual thread that loads a class another thread is loading pins (a JVM limit, once
     * per class), which says nothing of the steady paths. Only the measured channels: the
     * JDK's would leave extra carriers behind.
     */
    private void warmUp(List<Boolean> impls) throws Exception {
        Path f = Files.createTempFile(dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir")), "jring-vt-warm", ".dat");
        try {
            fill(f, 1 << 20);
            for (VtReadTrial.Mode m : VtReadTrial.Mode.values()) {
                for (boolean jring : impls) {
                    VtReadTrial.run(f, 256, m, jring, 16, 0, TimeUnit.MILLISECONDS.toNanos(100), 1);
                }
            }
        } finally {
            Files.deleteIfExists(f);
        }
        VtRecvTrial.run(16, TimeUnit.MILLISECONDS.toNanos(10));
    }

    private void fileReads(PrintWriter out, List<Boolean> impls) throws Exception {
        Path file = Files.createTempFile(dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir")), "jring-vt", ".dat");
        try {
            fill(file, (long) sizeMiB << 20);
            long blocks = ((long) sizeMiB << 20) / VtReadTrial.BLOCK;
            if (!output.isJson()) {
                out.printf("jring bench vt: %d virtual threads, 4k random reads of a %d MiB file, %d cores;"
                                + " %d rounds x %d s (+%d s warmup), alternated%n",
                        threads, sizeMiB, Runtime.getRuntime().availableProcessors(), rounds.value(), seconds.value(),
                        warmup.value());
                out.printf("  %-7s %-6s %10s %7s %9s%n", "mode", "impl", "reads/s", "spread", "platform");
                out.flush();
            }
            for (String m : modes) {
                VtReadTrial.Mode mode = VtReadTrial.Mode.valueOf(m);
                double[][] rate = new double[impls.size()][rounds.value()];
                int[] peak = new int[impls.size()];
                Rotation.run(rounds.value(), impls, (r, i, jring) -> {
                    VtReadTrial.Result res = VtReadTrial.run(file, blocks, mode, jring, threads,
                            TimeUnit.SECONDS.toNanos(warmup.value()), TimeUnit.SECONDS.toNanos(seconds.value()), 17L * r + i);
                    rate[i][r] = res.readsPerSecond();
                    peak[i] = Math.max(peak[i], res.peakPlatformThreads());
                });
                for (int i = 0; i < impls.size(); i++) {
                    Rounds rr = Rounds.of(rate[i]);
                    String name = impls.get(i) ? "jring" : "jdk";
                    out.println(output.isJson()
                            ? JsonLine.object().put("bench", "vt").put("mode", m).put("impl", name)
                                    .put("reads_per_s", Math.round(rr.median())).put("spread", rr.spread())
                                    .put("rounds", rr.count()).put("peak_platform_threads", peak[i])
                            : String.format("  %-7s %-6s %10s %7s %9d", m, name, Figures.si(rr.median()),
                                    Figures.percent(rr.spread()), peak[i]));
                }
                if (impls.size() == 2 && !output.isJson()) {
                    out.printf("  %-7s jring/jdk %s (medians; per-round ratios %s)%n", m,
                            Figures.fixed(Rounds.of(rate[0]).median() / Rounds.of(rate[1]).median(), 3) + "x",
                            ratios(rate[0], rate[1]));
                }
                out.flush();
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String ratios(double[] a, double[] b) {
        List<String> s = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            s.add(Figures.fixed(a[i] / b[i], 2));
        }
        return String.join(" ", s);
    }

    private void recvWaits(PrintWriter out) throws InterruptedException {
        long delay = TimeUnit.MILLISECONDS.toNanos(recvDelayMs);
        double[] one = new double[rounds.value()];
        double[] many = new double[rounds.value()];
        double[] submitted = new double[rounds.value()];
        for (int r = 0; r < rounds.value(); r++) {
            one[r] = VtRecvTrial.run(1, delay) / 1e6;
            many[r] = VtRecvTrial.run(recvThreads, delay) / 1e6;
            submitted[r] = VtRecvTrial.lastSubmitNanos / 1e6;
        }
        Rounds sub = Rounds.of(submitted);
        Rounds o = Rounds.of(one);
        Rounds m = Rounds.of(many);
        out.println(output.isJson()
                ? JsonLine.object().put("bench", "vt").put("part", "recv").put("threads", recvThreads)
                        .put("one_ms", o.median()).put("all_ms", m.median()).put("last_submit_ms", sub.median()).put("ratio", m.median() / o.median())
                : String.format("  RECV waits: %d virtual threads (a ring and a socket pair each, data %d ms after each"
                        + " submit): all done in %s ms (spread %s; the last RECV submitted at %s ms), one alone %s ms: %sx",
                        recvThreads, recvDelayMs, Figures.fixed(m.median(), 1), Figures.percent(m.spread()),
                        Figures.fixed(sub.median(), 1), Figures.fixed(o.median(), 1), Figures.fixed(m.median() / o.median(), 3)));
        out.flush();
    }

    /** Writes the file once with non-zero data (so nothing reads a hole). */
    private static void fill(Path file, long size) throws java.io.IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        while (chunk.hasRemaining()) {
            chunk.put((byte) 0x5a);
        }
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
}
