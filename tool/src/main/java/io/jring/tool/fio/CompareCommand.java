package io.jring.tool.fio;

import io.jring.tool.bench.BenchOptions;
import io.jring.tool.report.Figures;
import io.jring.tool.report.Rotation;
import io.jring.tool.report.JsonReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring compare}: the anchors that are installed (fio's io_uring and psync engines,
 * libaio with --direct=1) against jring's engines, 4k random reads on one warmed file, at
 * each depth, in alternating rounds; prints the median IOPS of the rounds, their spread and
 * the ratios to fio io_uring and fio psync (BENCHMARKS.md: every claim is a ratio measured
 * side by side in one run). Each run is its own process: real fio, or a fresh JVM running
 * {@code jring fio}, with the same options and a ramp before measuring (JIT warm-up for the
 * JVM; harmless for fio).
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "fio against jring's engines on the same warmed file, side by side: a ratio table.",
            "fio's io_uring and psync engines (libaio too with --direct=1) and jring's jring, afc, psync and filechannel:",
            "4k randread at QD 1 and 32 in alternating rounds; median IOPS, spread, ratios to fio io_uring and fio psync."})
public final class CompareCommand implements java.util.concurrent.Callable<Integer> {

    @Option(names = "--size", paramLabel = "<size>", defaultValue = "256m", description = "File size (default ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--bs", paramLabel = "<size>", defaultValue = "4k", description = "Block size (default ${DEFAULT-VALUE}).")
    String bs;

    @Option(names = "--runtime", paramLabel = "<seconds>", defaultValue = "3", description = "Measured seconds per run (default ${DEFAULT-VALUE}).")
    int runtime;

    @Option(names = "--ramp_time", paramLabel = "<seconds>", defaultValue = "1", description = "Unmeasured seconds before each run (default ${DEFAULT-VALUE}).")
    int rampTime;

    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(3);

    @Option(names = "--direct", paramLabel = "0|1", arity = "0..1", fallbackValue = "1", defaultValue = "0", converter = FioUnits.Bool.class,
            description = "1 = O_DIRECT (adds fio libaio; no page cache).")
    boolean direct;

    @Option(names = "--iodepths", paramLabel = "<n>", defaultValue = "1,32", split = ",", description = "Depths for the async engines (default ${DEFAULT-VALUE}).")
    int[] iodepths;

    @Option(names = "--engines", paramLabel = "<engine>", defaultValue = "jring,afc,psync,filechannel", split = ",",
            description = "jring's engines to run (default ${DEFAULT-VALUE}).")
    List<String> engines;

    @Option(names = "--filename", paramLabel = "<file>", description = "File to use (kept). Default: a temp file in --directory, removed afterwards.")
    String filename;

    @Option(names = "--directory", paramLabel = "<dir>", description = "Directory for the temp file (default: java.io.tmpdir).")
    String directory;

    @Option(names = "--fio", paramLabel = "<path>", defaultValue = "fio", description = "The fio binary (default: fio on PATH).")
    String fioBinary;

    @Spec
    CommandSpec spec;

    /** What every run gets. */
    record Plan(String size, String bs, int runtimeSeconds, int rampSeconds, boolean direct) {}

    /** The child process running now, destroyed on Ctrl-C. */
    private volatile Process current;

    @Override
    public Integer call() throws Exception {
        long sizeBytes;
        try {
            sizeBytes = FioUnits.parseSize(size);
            FioUnits.parseSize(bs);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        BenchOptions.validate(spec);
        if (runtime < 1 || rampTime < 0) {
            throw new ParameterException(spec.commandLine(), "--runtime must be >= 1, --ramp_time >= 0");
        }
        for (String e : engines) {
            if (!IoEngine.NAMES.contains(e)) {
                throw new ParameterException(spec.commandLine(), "--engines: no jring engine '" + e + "' (" + String.join(", ", IoEngine.NAMES) + ")");
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        String fio = findOnPath(fioBinary);
        if (fio == null) {
            out.println("fio not found: apt-get install fio (running jring's engines alone, without fio ratios)");
        }
        List<Contender> contenders = contenders(fio != null);
        Plan plan = new Plan(size, bs, runtime, rampTime, direct);
        boolean temp = filename == null;
        Path file = temp
                ? Path.of(directory != null ? directory : System.getProperty("java.io.tmpdir"),
                        "jring-compare." + ProcessHandle.current().pid() + ".dat")
                : Path.of(filename);
        Thread hook = new Thread(() -> {
            Process p = current;
            if (p != null) {
                p.destroyForcibly();
            }
            if (temp) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }, "jring-compare-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.printf(Locale.ROOT, "jring compare: %s randread, %s, file %s (%s), %d round%s of %d s (+%d s ramp) per configuration%n",
                    bs, direct ? "O_DIRECT" : "page cache (file read once first, --invalidate=0)", file,
                    Num2Str.of(sizeBytes, true, Num2Str.BYTE), rounds.value(), rounds.value() == 1 ? "" : "s", runtime, rampTime);
            out.flush();
            if (FileSetup.needsLayout(file, sizeBytes)) {
                out.println("laying out " + file);
                out.flush();
                FileSetup.layOutForReads(file, sizeBytes);
            }
            if (!direct) {
                FileSetup.preRead(file, 0, sizeBytes);
            }
            Map<Contender, double[]> results = new LinkedHashMap<>();
            Map<Contender, double[]> p99s = new LinkedHashMap<>();
            Map<Contender, double[]> cpus = new LinkedHashMap<>();
            for (Contender c : contenders) {
                results.put(c, nanRounds());
                p99s.put(c, nanRounds());
                cpus.put(c, nanRounds());
            }
            // Each round starts one configuration later, so none always runs first or after the same one.
            Rotation.run(rounds.value(), contenders, (r, k, c) -> {
                Sample s = runOnce(c, c.command(fio, file, plan), out);
                results.get(c)[r] = s.iops();
                p99s.get(c)[r] = s.p99Nanos();
                cpus.get(c)[r] = s.cpuPercent();
                if (!Double.isNaN(s.iops())) {
                    out.printf(Locale.ROOT, "round %d/%d  QD%-3d %-18s %10s IOPS  p99 %s  job cpu %s%n", r + 1, rounds.value(),
                            c.depth(), c.label(), Figures.si(s.iops()), Double.isNaN(s.p99Nanos()) ? "-"
                                    : String.format(Locale.ROOT, "%.0f us", s.p99Nanos() / 1000.0),
                            Double.isNaN(s.cpuPercent()) ? "-" : String.format(Locale.ROOT, "%.0f%%", s.cpuPercent()));
                }
                out.flush();
            });
            out.println();
            CompareTable.print(out, results, p99s, cpus, direct, iodepths);
            return 0;
        } finally {
            if (temp) {
                Files.deleteIfExists(file);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    /** The configurations, in the order of a round: per depth the async ones, then the sync ones. */
    private List<Contender> contenders(boolean withFio) {
        List<Contender> list = new ArrayList<>();
        for (int depth : iodepths) {
            if (withFio) {
                list.add(new Contender(true, "io_uring", depth));
                if (direct) {
                    list.add(new Contender(true, "libaio", depth));
                }
            }
            for (String e : engines) {
                if (!IoEngine.isSync(e)) {
                    list.add(new Contender(false, e, depth));
                }
            }
        }
        if (withFio) {
            list.add(new Contender(true, "psync", 1));
        }
        for (String e : engines) {
            if (IoEngine.isSync(e)) {
                list.add(new Contender(false, e, 1));
            }
        }
        return list;
    }

    private double[] nanRounds() {
        double[] v = new double[rounds.value()];
        Arrays.fill(v, Double.NaN);
        return v;
    }

    /** One run's read IOPS, p99 total latency in ns and job CPU in per cent; NaN where the run gave none. */
    record Sample(double iops, double p99Nanos, double cpuPercent) {
        static final Sample FAILED = new Sample(Double.NaN, Double.NaN, Double.NaN);
    }

    /** Runs one configuration and returns its figures, or {@link Sample#FAILED} (with the reason printed). */
    private Sample runOnce(Contender c, List<String> cmd, PrintWriter out) throws InterruptedException {
        String what = c.label() + " QD" + c.depth();
        try {
            Process p = new ProcessBuilder(cmd).start();
            current = p;
            p.getOutputStream().close();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            String stdout = readAll(p.getInputStream());
            if (!p.waitFor(runtime + rampTime + 120L, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                out.println(what + ": timed out");
                return Sample.FAILED;
            }
            current = null;
            Object json;
            try {
                json = JsonReader.parse(stdout);
            } catch (IllegalArgumentException e) {
                out.println(what + ": failed (exit " + p.exitValue() + "): " + firstLines(stderr.join() + stdout));
                return Sample.FAILED;
            }
            double error = JsonReader.number(json, "jobs.0.error");
            double iops = JsonReader.number(json, "jobs.0.read.iops");
            if (error != 0 || Double.isNaN(iops) || iops <= 0) {
                out.println(what + ": failed (error " + (long) error + "): " + firstLines(stderr.join()));
                return Sample.FAILED;
            }
            return new Sample(iops, p99Nanos(json),
                    JsonReader.number(json, "jobs.0.usr_cpu") + JsonReader.number(json, "jobs.0.sys_cpu"));
        } catch (IOException e) {
            out.println(what + ": cannot run " + cmd.getFirst() + ": " + e.getMessage());
            return Sample.FAILED;
        }
    }

    /** {@code jobs[0].read.lat_ns.percentile["99.000000"]} (the key has dots, so not a path), or NaN. */
    static double p99Nanos(Object json) {
        Object percentiles = JsonReader.at(json, "jobs.0.read.lat_ns.percentile");
        return percentiles instanceof Map<?, ?> m && m.get("99.000000") instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String firstLines(String text) {
        String t = text.strip();
        String[] lines = t.split("\n", 4);
        return String.join(" | ", Arrays.copyOf(lines, Math.min(3, lines.length)));
    }

    /** The executable {@code name} (a path, or looked up on PATH), or null. */
    static String findOnPath(String name) {
        if (name.contains("/")) {
            return Files.isExecutable(Path.of(name)) ? name : null;
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
