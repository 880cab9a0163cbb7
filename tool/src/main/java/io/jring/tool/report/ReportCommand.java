package io.jring.tool.report;

import io.jring.tool.fio.FioUnits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jring report}: sweeps iodepth, block size and cache mode over jring and real fio's
 * engines and writes one self-contained HTML page with the plots, plus the raw JSON beside
 * it (docs/REPORT.md). {@code --from} renders the page again from that JSON.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Sweeps iodepth, block size and cache mode (buffered and O_DIRECT) over jring",
            "and real fio's io_uring, libaio and psync engines, and writes one HTML page:",
            "IOPS and p50/p99/p99.9 latency against iodepth, one line per engine, with the",
            "raw JSON beside it. The full sweep takes about 10 minutes, --quick about 2."},
        footer = {"", "Examples:",
            "  jring report --quick",
            "  jring report --bs=4k --modes=direct --directory=/mnt/nvme --output=nvme.html",
            "  jring report --from=jring-report.json --output=again.html"})
public final class ReportCommand implements Callable<Integer> {

    @Option(names = "--quick", description = "A short sweep: iodepths 1, 8 and 32, block size 4k, 1 s per run, no ramp.")
    boolean quick;

    @Option(names = "--iodepths", paramLabel = "<n>", split = ",",
            description = "The iodepths to sweep (default 1,2,4,...,256; --quick: 1,8,32).")
    int[] iodepths;

    @Option(names = "--bs", paramLabel = "<size>", split = ",", description = "Block sizes, k = 1024 as in fio (default 4k,64k; --quick: 4k).")
    List<String> blockSizes;

    @Option(names = "--engines", paramLabel = "<engine>", split = ",", defaultValue = "jring,fio-io_uring,fio-libaio,fio-psync",
            description = "Engines to run (default ${DEFAULT-VALUE}); fio's are skipped, with a note on the page, where fio or the engine is missing.")
    List<String> engines;

    @Option(names = "--modes", paramLabel = "<mode>", split = ",", defaultValue = "buffered,direct",
            description = "Cache modes: buffered (reads of a page-cached file) and direct (O_DIRECT) (default ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--rw", paramLabel = "read|randread|write|randwrite", defaultValue = "randread", description = "The I/O pattern (default ${DEFAULT-VALUE}).")
    String rw;

    @Option(names = "--size", paramLabel = "<size>", defaultValue = "256m", description = "Size of the file (default ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--runtime", paramLabel = "<seconds>", description = "Measured seconds per run (default 3; --quick: 1).")
    Integer runtime;

    @Option(names = "--ramp_time", paramLabel = "<seconds>", description = "Unmeasured seconds before each run (default 1; --quick: 0).")
    Integer rampTime;

    @Option(names = "--jit_warmup", paramLabel = "<time>", defaultValue = "10s",
            description = "jring fio's --jit_warmup: each jring run first runs unmeasured until the JIT is idle, at most this long (default ${DEFAULT-VALUE}).")
    String jitWarmup;

    @Option(names = "--filename", paramLabel = "<file>", description = "File to use (laid out if missing or short, kept). Default: a temp file in --directory, removed afterwards.")
    String filename;

    @Option(names = "--directory", paramLabel = "<dir>", description = "Directory for the temp file (default: java.io.tmpdir); its device is what O_DIRECT measures.")
    String directory;

    @Option(names = "--fio", paramLabel = "<path>", defaultValue = "fio", description = "The fio binary (default: fio on PATH).")
    String fioName;

    @Option(names = {"-o", "--output"}, paramLabel = "<file.html>", defaultValue = "jring-report.html",
            description = "The page (default ${DEFAULT-VALUE}); the JSON goes beside it, as <file>.json.")
    Path output;

    @Option(names = "--from", paramLabel = "<report.json>", description = "Write the page from a report's JSON, without running anything.")
    Path from;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (from != null) {
                ReportData data = ReportJson.read(Files.readString(from));
                Path page = spec.commandLine().getParseResult().hasMatchedOption("--output") ? output : sibling(from, ".html");
                Files.writeString(page, ReportPage.render(data, ReportJson.write(data)), StandardCharsets.UTF_8);
                out.println("jring report: wrote " + page + " from " + from + " (" + data.results().size() + " runs)");
                return 0;
            }
            return sweep(out);
        } catch (IllegalArgumentException | IOException e) {
            err.println("jring report: " + e.getMessage());
            err.flush();
            return e instanceof IOException ? 1 : 2;
        } finally {
            out.flush();
        }
    }

    private int sweep(PrintWriter out) throws IOException, InterruptedException {
        SweepPlan plan = plan();
        List<String> notes = new ArrayList<>();
        ChildProcess children = new ChildProcess();
        FioBinary fio = null;
        List<ReportEngine> chosen = new ArrayList<>(plan.engines());
        if (chosen.stream().anyMatch(e -> e.fio)) {
            fio = FioBinary.find(fioName, children);
            if (fio == null) {
                notes.add("fio engines skipped: no working fio at '" + fioName + "' (apt-get install fio, or --fio=PATH).");
                chosen.removeIf(e -> e.fio);
            } else {
                for (ReportEngine e : List.copyOf(chosen)) {
                    if (e.fio && !fio.engines().contains(e.ioengine)) {
                        notes.add(e.label() + " skipped: this fio (" + fio.version() + ") has no " + e.ioengine + " engine (fio --enghelp).");
                        chosen.remove(e);
                    }
                }
            }
        }
        String jringMain = spec.root().userObject().getClass().getName();
        if (chosen.contains(ReportEngine.JRING) && spec.root() == spec) {
            notes.add("jring skipped: 'report' runs jring fio through the jring command, and runs here on its own.");
            chosen.remove(ReportEngine.JRING);
        }
        boolean temp = filename == null;
        Path file = temp ? Path.of(directory != null ? directory : System.getProperty("java.io.tmpdir"),
                "jring-report." + ProcessHandle.current().pid() + ".dat") : Path.of(filename);
        Thread hook = new Thread(() -> {
            children.destroy();
            deleteIf(temp, file);
        }, "jring-report-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (SweepFile.layOut(file, FioUnits.parseSize(plan.size()))) {
                out.println("jring report: laid out " + file + " (" + plan.size() + ")");
            }
            List<Boolean> direct = new ArrayList<>(plan.directModes());
            String problem = direct.contains(true) ? SweepFile.directProblem(file) : null;
            if (problem != null) {
                notes.add(problem);
                direct.remove(Boolean.TRUE);
            }
            if (chosen.contains(ReportEngine.FIO_LIBAIO) && direct.contains(false)) {
                notes.add("fio libaio runs with O_DIRECT only: on a buffered file Linux AIO does the I/O inside io_submit, synchronously.");
            }
            plan = new SweepPlan(chosen, direct, plan.blockSizes(), plan.depths(), plan.rw(), plan.size(), plan.runtimeSeconds(),
                    plan.rampSeconds(), plan.jitWarmup());
            int runs = plan.points().size();
            out.printf("jring report: %d runs of %d s (+%d s ramp) each; jring's runs first warm up the JIT (at most %s)%n",
                    runs, plan.runtimeSeconds(), plan.rampSeconds(), plan.jitWarmup());
            notes.forEach(n -> out.println("note: " + n));
            out.flush();
            Map<String, String> about = about(plan, file, fio);
            List<SweepResult> results = new Sweep(plan, file, fio, jringMain, children, out).run();
            ReportData data = new ReportData(about, notes, results);
            String json = ReportJson.write(data);
            Path jsonPath = sibling(output, ".json");
            Files.writeString(jsonPath, json, StandardCharsets.UTF_8);
            Files.writeString(output, ReportPage.render(data, json), StandardCharsets.UTF_8);
            long ok = results.stream().filter(SweepResult::ok).count();
            out.println("jring report: wrote " + output + " and " + jsonPath + " (" + ok + " of " + results.size() + " runs with figures)");
            return ok > 0 ? 0 : 1;
        } finally {
            deleteIf(temp, file);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    /** The plan the options ask for, --quick's values where an option was not given; IllegalArgumentException if one is wrong. */
    SweepPlan plan() {
        if (!List.of("read", "randread", "write", "randwrite").contains(rw)) {
            throw new IllegalArgumentException("--rw must be read, randread, write or randwrite, not '" + rw + "'");
        }
        int[] depths = iodepths != null ? iodepths : quick ? SweepPlan.QUICK_DEPTHS : SweepPlan.FULL_DEPTHS;
        depths = Arrays.stream(depths).sorted().distinct().toArray();
        if (depths.length == 0 || depths[0] < 1 || depths[depths.length - 1] > 4096) {
            throw new IllegalArgumentException("--iodepths must be between 1 and 4096");
        }
        List<String> bss = blockSizes != null ? blockSizes : quick ? List.of("4k") : List.of("4k", "64k");
        List<Boolean> direct = modes.stream().map(SweepPoint::isDirect).distinct().toList();
        long fileSize = FioUnits.parseSize(size);
        for (String bs : bss) {
            long b = FioUnits.parseSize(bs);
            if (b <= 0 || b > fileSize) {
                throw new IllegalArgumentException("--bs=" + bs + " must be between 1 and --size (" + size + ")");
            }
            if (direct.contains(true) && b % 512 != 0) {
                throw new IllegalArgumentException("--bs=" + bs + ": O_DIRECT needs a multiple of 512 (or --modes=buffered)");
            }
        }
        int run = runtime != null ? runtime : quick ? 1 : 3;
        int ramp = rampTime != null ? rampTime : quick ? 0 : 1;
        if (run < 1 || ramp < 0) {
            throw new IllegalArgumentException("--runtime must be >= 1 and --ramp_time >= 0");
        }
        FioUnits.parseTimeNanos(jitWarmup);
        List<ReportEngine> chosen = engines.stream().map(ReportEngine::byId).distinct().toList();
        return new SweepPlan(chosen, direct, bss, depths, rw, size, run, ramp, jitWarmup);
    }

    /** What the page says about the sweep, taken as it starts. */
    private Map<String, String> about(SweepPlan plan, Path file, FioBinary fio) {
        Map<String, String> about = new LinkedHashMap<>();
        about.put("command", "jring " + String.join(" ", spec.root().commandLine().getParseResult().originalArgs()));
        about.put("date", ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME));
        about.put("cpu", Host.cpu());
        about.put("kernel", Host.kernel());
        about.put("load average", Host.loadAverage());
        about.put("fio", fio == null ? "not run" : fio.version() + " (" + fio.path() + ")");
        about.put("java", Host.java());
        about.put("file", Host.file(file) + ", " + plan.size());
        about.put("rw", plan.rw());
        about.put("each run", plan.runtimeSeconds() + " s measured after " + plan.rampSeconds() + " s of ramp; jring also warms up the JIT first (--jit_warmup="
                + plan.jitWarmup() + ")");
        if (plan.directModes().contains(false)) {
            about.put("buffered", "the file is read once before each buffered block of runs, and every run has --invalidate=0: the page cache is measured");
        }
        about.put("options", plan.optionsTemplate(file.toString()));
        return about;
    }

    /** {@code path} with its extension replaced by {@code ext}: report.html -> report.json. */
    static Path sibling(Path path, String ext) {
        String name = path.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return path.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ext);
    }

    private static void deleteIf(boolean temp, Path file) {
        if (temp) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
