package io.jring.tool.bench;

import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.TaskWorkKind;
import io.jring.tool.fio.FioUnits;
import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.Latency;
import io.jring.tool.report.LiveStatus;
import io.jring.tool.report.Rounds;
import io.jring.tool.report.Rotation;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench heavytw}: seed 000's experiment (000_fe983bc720f4678b.txt). O_DIRECT 4k
 * random reads at each queue depth while every completion also queues a heavy task-work
 * item ahead of the next submission ({@link HeavyTwTrial}); IOPS and average / p99 latency
 * per depth for each strategy, the strategies alternating within each depth, each round
 * starting one kind later, the median of {@code --rounds} reported; the ratio to LOCKED is
 * the median of the rounds' ratios.
 */
@Command(name = "heavytw", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Task work under load: O_DIRECT 4k random reads while every completion also queues a heavy task-work item.",
            "Each heavy item costs --heavy-us of CPU and runs ahead of the next submission. IOPS and the average and "
                    + "p99 latency are reported per queue depth and task-work strategy; strategies alternate and the "
                    + "median of --rounds is reported."})
public final class HeavyTwBench implements Callable<Integer> {

    @Mixin
    BenchOptions.Kind kinds = BenchOptions.Kind.compared("PRIORITY,LOCKED");

    @Option(names = "--depth", defaultValue = "1..256", paramLabel = "N|N,M,..|N..M", converter = Depths.class,
            description = "Queue depths: a list, or a range N..M of powers of two "
                    + "(default ${DEFAULT-VALUE}: 1, 2, 4, ..., 256).")
    Counts depths;

    @Option(names = "--heavy-us", defaultValue = "20",
            description = "CPU cost of each heavy task-work item, in microseconds of busy spin (default ${DEFAULT-VALUE}).")
    int heavyUs;

    @Option(names = "--heavy-ring", defaultValue = "same", paramLabel = "same|other",
            description = "The ring the heavy work belongs to: the reading ring, or another ring of the same thread, "
                    + "so that the work alternates between rings (default ${DEFAULT-VALUE}).")
    String heavyRing;

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(1);

    @Option(names = "--warmup-ms", defaultValue = "200",
            description = "Unmeasured time at the start of each measurement (default ${DEFAULT-VALUE}).")
    int warmupMs;

    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(3);

    @Option(names = "--file", paramLabel = "PATH",
            description = "File to read (kept); created and filled to --size if missing or shorter. "
                    + "Default: a temp file, removed at the end.")
    Path file;

    @Option(names = "--size", defaultValue = "1g", converter = FioUnits.Size.class,
            description = "File size, fio units (default ${DEFAULT-VALUE}).")
    long size;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    /** One kind at one depth: IOPS over the rounds, latency of all rounds merged. */
    public record Result(TaskWorkKind kind, int depth, Rounds iops, double avgLatNs, Latency lat, long errors,
                         double vsLocked, double heavyPerRun) {}

    @Override
    public Integer call() throws IOException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        List<TaskWorkKind> ks = kinds.kinds();
        boolean temp = file == null;
        Path path = temp ? Files.createTempFile(Path.of(System.getProperty("java.io.tmpdir")), "jring-heavytw", ".dat")
                : file;
        long errors = 0;
        try {
            prepareFile(path, size);
            long perTrial = TimeUnit.SECONDS.toNanos(seconds.value()) + TimeUnit.MILLISECONDS.toNanos(warmupMs);
            long planned = perTrial * rounds.value() * ks.size() * depths.values().length;
            if (!output.isJson()) {
                out.printf("jring bench heavytw: O_DIRECT 4k randread on %s (%s), heavy task work %d us per completion"
                                + " (%s ring); kinds %s alternating, %d rounds x %d s (+%d ms warmup) per kind and depth%n",
                        path, (size >> 20) + " MiB", heavyUs, heavyRing, ks, rounds.value(), seconds.value(), warmupMs);
                out.printf("  lat: from preparing a read to its CQE (includes the heavy work queued ahead of it)%n");
                if ("other".equals(heavyRing)) {
                    out.printf("  heavy/run: heavy items per run of them; completion work run between two heavy"
                            + " items splits a run%n");
                }
                out.flush();
            }
            int fd = Fds.open(path, OpenFlags.RDONLY | OpenFlags.DIRECT | OpenFlags.CLOEXEC, 0);
            try (LiveStatus status = output.startStatus(out, planned)) {
                if (!output.isJson()) {
                    status.println(out, header(ks));
                }
                for (int d : depths.values()) {
                    List<Result> results = measure(fd, d, status);
                    for (Result r : results) {
                        errors += r.errors();
                    }
                    if (output.isJson()) {
                        for (Result r : results) {
                            status.println(out, toJson(r).toString());
                        }
                    } else {
                        status.println(out, row(d, results));
                    }
                }
            } finally {
                Fds.close(fd);
            }
        } finally {
            if (temp) {
                Files.deleteIfExists(path);
            }
        }
        if (errors > 0 && !output.isJson()) {
            out.printf("  ERRORS: %d reads completed with something other than %d bytes%n", errors, HeavyTwTrial.BS);
        }
        out.flush();
        return errors == 0 ? 0 : 1;
    }

    private void validate() {
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--warmup-ms", warmupMs, 0, Long.MAX_VALUE);
        BenchOptions.requireRange(spec.commandLine(), "--heavy-us", heavyUs, 0, 10_000);
        if (size < 16L * HeavyTwTrial.BS || size % HeavyTwTrial.BS != 0) {
            throw new ParameterException(spec.commandLine(),
                    "--size must be a multiple of 4k and at least 64k, got " + size);
        }
        if (!"same".equals(heavyRing) && !"other".equals(heavyRing)) {
            throw new ParameterException(spec.commandLine(), "--heavy-ring must be same or other, got " + heavyRing);
        }
    }

    /** Lays the file out with incompressible data unless it already has {@code size} bytes. */
    static void prepareFile(Path path, long size) throws IOException {
        if (Files.exists(path) && Files.size(path) >= size) {
            return;
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
            SplittableRandom rnd = new SplittableRandom(42);
            long pos = 0;
            while (pos < size) {
                chunk.clear();
                while (chunk.remaining() >= 8) {
                    chunk.putLong(rnd.nextLong());
                }
                chunk.flip();
                chunk.limit((int) Math.min(chunk.limit(), size - pos));
                while (chunk.hasRemaining()) {
                    pos += ch.write(chunk, pos);
                }
            }
            ch.force(true);
        }
    }

    /** All rounds at one depth: kinds alternate, each round starting one kind later. */
    List<Result> measure(int fd, int depth, LiveStatus status) {
        List<TaskWorkKind> ks = kinds.kinds();
        int rounds = this.rounds.value();
        Map<TaskWorkKind, double[]> iops = new EnumMap<>(TaskWorkKind.class);
        Map<TaskWorkKind, Histogram> lat = new EnumMap<>(TaskWorkKind.class);
        Map<TaskWorkKind, Long> errors = new EnumMap<>(TaskWorkKind.class);
        Map<TaskWorkKind, long[]> heavy = new EnumMap<>(TaskWorkKind.class);
        for (TaskWorkKind k : ks) {
            iops.put(k, new double[rounds]);
            lat.put(k, Latency.newHistogram());
            errors.put(k, 0L);
            heavy.put(k, new long[2]);
        }
        long heavyNanos = TimeUnit.MICROSECONDS.toNanos(heavyUs);
        Rotation.run(rounds, ks, (r, i, k) -> {
            HeavyTwTrial trial = new HeavyTwTrial(k, depth, fd, size, heavyNanos, "other".equals(heavyRing),
                    31L * depth + r);
            status.phase("heavytw " + k + " depth=" + depth + " round " + (r + 1) + "/" + rounds, "IOPS",
                    trial.completedCounter()::get);
            HeavyTwTrial.Outcome o = trial.run(TimeUnit.MILLISECONDS.toNanos(warmupMs),
                    TimeUnit.SECONDS.toNanos(seconds.value()));
            iops.get(k)[r] = o.iops();
            lat.get(k).add(o.latency());
            errors.merge(k, o.errors(), Long::sum);
            heavy.get(k)[0] += o.ios();
            heavy.get(k)[1] += o.heavyRuns();
        });
        double[] locked = iops.get(TaskWorkKind.LOCKED);
        List<Result> out = new ArrayList<>();
        for (TaskWorkKind k : ks) {
            Rounds rr = Rounds.of(iops.get(k));
            // The median of each round's ratio: the two ran seconds apart, so a device or
            // neighbour that slows down for a while moves both sides of a ratio together.
            double vsLocked = Double.NaN;
            if (locked != null) {
                double[] ratios = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    ratios[r] = iops.get(k)[r] / locked[r];
                }
                vsLocked = Rounds.of(ratios).median();
            }
            Histogram h = lat.get(k);
            long[] hv = heavy.get(k);
            double perRun = hv[1] > 0 ? (double) hv[0] / hv[1] : Double.NaN;
            out.add(new Result(k, depth, rr, h.getMean(), Latency.of(h), errors.get(k), vsLocked, perRun));
        }
        return out;
    }

    JsonLine toJson(Result r) {
        JsonLine j = JsonLine.object()
                .put("bench", "heavytw")
                .put("kind", r.kind().name())
                .put("depth", r.depth())
                .put("heavy_us", heavyUs)
                .put("heavy_ring", heavyRing)
                .put("ops_per_sec", Math.round(r.iops().median()))
                .put("spread", r.iops().spread())
                .put("min", Math.round(r.iops().min()))
                .put("max", Math.round(r.iops().max()))
                .put("rounds", r.iops().count())
                .put("seconds", seconds.value())
                .put("avg_lat_ns", Math.round(r.avgLatNs()))
                .put("lat_ns", r.lat().toJson())
                .put("errors", r.errors());
        if (!Double.isNaN(r.heavyPerRun())) {
            j.put("heavy_items_per_run", r.heavyPerRun());
        }
        if (!Double.isNaN(r.vsLocked())) {
            j.put("vs_locked", r.vsLocked());
        }
        return j;
    }

    private String header(List<TaskWorkKind> ks) {
        StringBuilder sb = new StringBuilder(String.format("  %5s", "depth"));
        for (TaskWorkKind k : ks) {
            sb.append(String.format(" | %-8s %8s %6s %9s %9s", k, "IOPS", "spread", "avg lat", "p99 lat"));
            if ("other".equals(heavyRing)) {
                sb.append(String.format(" %8s", "heavy/run"));
            }
        }
        if (ks.contains(TaskWorkKind.LOCKED) && ks.size() > 1) {
            sb.append(" | IOPS vs LOCKED");
        }
        return sb.toString();
    }

    private static String row(int depth, List<Result> results) {
        StringBuilder sb = new StringBuilder(String.format("  %5d", depth));
        for (Result r : results) {
            sb.append(String.format(" | %-8s %8s %6s %9s %9s", "", Figures.si(r.iops().median()),
                    Figures.percent(r.iops().spread()), Latency.time(Math.round(r.avgLatNs())),
                    Latency.time(r.lat().p99())));
            if (!Double.isNaN(r.heavyPerRun())) {
                sb.append(String.format(" %8s", Figures.fixed(r.heavyPerRun(), 2)));
            }
        }
        if (results.size() > 1 && !Double.isNaN(results.get(0).vsLocked())) {
            sb.append(" |");
            for (Result r : results) {
                if (r.kind() != TaskWorkKind.LOCKED) {
                    sb.append(' ').append(r.kind()).append(' ').append(Figures.fixed(r.vsLocked(), 3)).append('x');
                }
            }
        }
        return sb.toString();
    }

    /**
     * {@code --depth}: a list such as {@code 1,8,32}, or a range {@code N..M} of the powers of
     * two from N up to M (seed 000's table is {@code 1..256}). Each depth 1..256.
     */
    public static final class Depths implements ITypeConverter<Counts> {
        @Override
        public Counts convert(String value) {
            return parse(value);
        }

        static Counts parse(String text) {
            List<Integer> out = new ArrayList<>();
            for (String part : text.strip().split(",")) {
                part = part.strip();
                int range = part.indexOf("..");
                if (range >= 0) {
                    int from = depth(part.substring(0, range), text);
                    int to = depth(part.substring(range + 2), text);
                    if (to < from) {
                        throw new TypeConversionException("range '" + part + "' goes down; write it as " + to + ".." + from);
                    }
                    for (int d = from; d <= to; d *= 2) {
                        add(out, d);
                    }
                } else {
                    add(out, depth(part, text));
                }
            }
            return new Counts(out.stream().mapToInt(Integer::intValue).toArray());
        }

        private static void add(List<Integer> out, int d) {
            if (!out.contains(d)) {
                out.add(d);
            }
        }

        private static int depth(String s, String whole) {
            int v;
            try {
                v = Integer.parseInt(s.strip());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + whole + "' is not a depth list like 32, 1,8,32 or 1..256");
            }
            if (v < 1 || v > 256) {
                throw new TypeConversionException("depths must be 1..256, got " + v + " in '" + whole + "'");
            }
            return v;
        }
    }
}
