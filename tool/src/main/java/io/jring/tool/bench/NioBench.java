package io.jring.tool.bench;

import io.jring.tool.report.Figures;
import io.jring.tool.report.Rotation;
import io.jring.tool.report.Rounds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench nio}: the same NIO.2 program on the JDK's provider and on jring's, in
 * one JVM with both providers named explicitly (the JDK's AsynchronousFileChannel as the
 * platform's file system provider opens it, jring's {@code JringAsynchronousFileChannel}),
 * alternating every round: 4 KiB random reads of a page-cached file through
 * {@code AsynchronousFileChannel}, {@code --in-flight} reads in flight started from 1 and
 * from 4 threads, buffered and with {@code ExtendedOpenOption.DIRECT}. Prints each
 * provider's median IOPS with the spread of its rounds, jring/JDK, the bytes allocated per
 * read and the JVM's thread count.
 */
@Command(name = "nio", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "NIO.2 AsynchronousFileChannel on the JDK's provider and on jring's, alternating: 4k random reads.",
            "Reads of a page-cached file (buffered) and of the same file with ExtendedOpenOption.DIRECT."})
public final class NioBench implements Callable<Integer> {

    @Option(names = "--in-flight", defaultValue = "32", description = "Reads in flight (default ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--threads", defaultValue = "1,4", paramLabel = "N|N,M,..",
            converter = Counts.Converter.class, description = "Threads starting reads (default ${DEFAULT-VALUE}).")
    Counts threads;

    @Option(names = "--io", defaultValue = "buffered,direct", split = ",", paramLabel = "buffered|direct",
            description = "File modes (default ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--size", defaultValue = "256", description = "File size in MiB (default ${DEFAULT-VALUE}).")
    int sizeMiB;

    @Option(names = "--dir", description = "Directory of the test file, on a file system with O_DIRECT (default: java.io.tmpdir).")
    Path dir;

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(3);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(1);

    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(3);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--in-flight", inFlight, 1, 4096);
        BenchOptions.requireRange(spec.commandLine(), "--size", sizeMiB, 1, Long.MAX_VALUE);
        PrintWriter out = spec.commandLine().getOut();
        Path file = Files.createTempFile(dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir")),
                "jring-nio", ".dat");
        try {
            fill(file, (long) sizeMiB << 20);
            long blocks = ((long) sizeMiB << 20) / NioReadTrial.BLOCK;
            out.printf("jring bench nio: AsynchronousFileChannel 4k randread, %d MiB file %s, %d in flight;"
                            + " %d rounds x %d s (+%d s warmup) per provider, alternating%n",
                    sizeMiB, file, inFlight, rounds.value(), seconds.value(), warmup.value());
            out.printf("  %-8s %-7s %10s %7s %10s %7s %8s %9s %9s %7s %7s%n", "io", "threads", "JDK IOPS", "spread",
                    "jring IOPS", "spread", "jring/JDK", "JDK B/op", "jring B/op", "JDK thr", "jring thr");
            out.flush();
            for (String mode : modes) {
                boolean direct = switch (mode) {
                    case "buffered" -> false;
                    case "direct" -> true;
                    default -> throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                            "--io must be buffered or direct, got " + mode);
                };
                for (int t : threads.values()) {
                    out.println(measure(file, blocks, direct, t));
                    out.flush();
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
        return 0;
    }

    private String measure(Path file, long blocks, boolean direct, int starters) throws Exception {
        int n = rounds.value();
        double[][] iops = new double[2][n];
        double[][] bytes = new double[2][n];
        int[] liveThreads = new int[2];
        Rotation.<Boolean, Exception>run(n, List.of(false, true), (r, i, jring) -> {
            NioReadTrial.Result res = new NioReadTrial(file, blocks, jring, direct, inFlight, starters)
                    .run(TimeUnit.SECONDS.toNanos(warmup.value()), TimeUnit.SECONDS.toNanos(seconds.value()), r);
            iops[i][r] = res.iops();
            bytes[i][r] = res.bytesPerOp();
            liveThreads[i] = Math.max(liveThreads[i], res.threads());
        });
        Rounds jdk = Rounds.of(iops[0]);
        Rounds jr = Rounds.of(iops[1]);
        return String.format("  %-8s %-7d %10s %7s %10s %7s %8s %9s %9s %7d %7d", direct ? "direct" : "buffered",
                starters, Figures.si(jdk.median()), Figures.percent(jdk.spread()), Figures.si(jr.median()),
                Figures.percent(jr.spread()), Figures.fixed(jr.median() / jdk.median(), 2) + "x",
                Figures.fixed(Rounds.of(bytes[0]).median(), 0), Figures.fixed(Rounds.of(bytes[1]).median(), 0),
                liveThreads[0], liveThreads[1]);
    }

    /** Writes the file once and reads it back, so that buffered reads find it in the page cache. */
    private static void fill(Path file, long size) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (long at = 0; at < size; at += chunk.capacity()) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    ch.write(chunk, at + chunk.position());
                }
            }
            ch.force(true);
            for (long at = 0; at < size; at += chunk.capacity()) {
                chunk.clear();
                ch.read(chunk, at);
            }
        }
    }
}
