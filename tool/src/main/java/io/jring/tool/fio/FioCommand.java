package io.jring.tool.fio;

import io.jring.tool.ProjectVersion;
import io.jring.tool.report.LiveStatus;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring fio}: fio's file benchmark on jring's engines, with fio's command line, job
 * files, semantics and normal and JSON output (BENCHMARKS.md "The tool"). Job options come
 * from the command line ({@link FioArgs}) and job files ({@link JobFileParser}) and follow
 * fio's defaults; with none it runs the page-cache demo ({@link FioJobs#DEMO}) and says so
 * first. Its own options here are fio's output options; the job's files are kept as fio keeps
 * them, the demo's temp file is removed, on Ctrl-C too.
 */
@Command(name = "fio", sortOptions = false,
        description = {
            "fio's file benchmark on jring's engines: fio's options (--bs=4k, sizes such as 4k, 256M or 1g with k = 1024), "
                    + "fio's job files, fio's defaults and fio's output.",
            "With no job options it runs a page-cache demo (4k random reads at iodepth 32 for 5 s on a page-cached "
                    + "256 MiB temp file) and says so in its first line."},
        footer = {"", "Examples:",
            "  jring fio",
            "  jring fio --name=cold --filename=/var/tmp/f --size=1g --rw=randread \\",
            "            --ioengine=io_uring --iodepth=32 --time_based --runtime=10",
            "  jring fio --name=warm --filename=/var/tmp/f --size=256m --rw=randread \\",
            "            --invalidate=0 --time_based --runtime=5",
            "  jring fio job.fio --section=rand-read --output-format=json --output=r.json"})
public final class FioCommand implements Callable<Integer> {

    /** fio's --output-format values that jring-fio writes. */
    enum OutputFormat { normal, json }

    /** fio's --eta: when the live status line is shown. */
    enum Eta { auto, always, never }

    @Option(names = "--output-format", defaultValue = "normal", paramLabel = "normal|json",
            description = "normal: fio's human report; json: fio's JSON layout (jobs[0].read.iops, ...).")
    OutputFormat outputFormat;

    @Option(names = "--eta", defaultValue = "auto", paramLabel = "auto|always|never",
            description = "The live status line: auto = on a terminal with normal output (default).")
    Eta eta;

    @Option(names = "--output", paramLabel = "<file>", description = "Write the report to this file instead of standard output, as fio does.")
    String output;

    @Option(names = "--section", paramLabel = "<name>", description = "Run only this section of the job files; may be repeated, as in fio.")
    List<String> sections = new ArrayList<>();

    @Option(names = {"-h", "--help"}, description = "Show this help message, with every job option, and exit.")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print version information and exit.")
    boolean versionRequested;

    /** Everything else, in order: job options and job files, read as fio reads them. */
    @Unmatched
    List<String> words = new ArrayList<>();

    @Spec
    CommandSpec spec;

    /** This command's own option names, for the nearest-name hint of an unknown option. */
    private static final List<String> OWN_OPTIONS = List.of("output-format", "eta", "output", "section", "help", "version");

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (help) {
            printHelp(out);
            return 0;
        }
        FioJobs jobs;
        try {
            jobs = FioJobs.of(FioArgs.read(words, OWN_OPTIONS), new LinkedHashSet<>(sections), w -> err.println("jring fio: " + w));
        } catch (IllegalArgumentException | IOException e) {
            err.println("jring fio: " + e.getMessage());
            err.flush();
            return 2;
        }
        boolean json = outputFormat == OutputFormat.json;
        PrintWriter report;
        try {
            report = output == null ? out : new PrintWriter(Files.newBufferedWriter(Path.of(output)), false);
        } catch (IOException e) {
            err.println("jring fio: cannot write " + output + ": " + ErrnoText.describe(e));
            err.flush();
            return 1;
        }
        try {
            return run(jobs, json, report, out, err);
        } finally {
            if (report != out) {
                report.close();
            }
        }
    }

    private int run(FioJobs jobs, boolean json, PrintWriter report, PrintWriter out, PrintWriter err) throws Exception {
        FioRun run = new FioRun(jobs.specs(), Fadvise.POSIX);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            err.println("jring-fio: terminating on signal");
            err.flush();
            run.abort();
            try {
                reported.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
            run.cleanup();
        }, "jring-fio-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (jobs.demo()) {
                PrintWriter first = json ? err : report;
                first.println(FioJobs.demoLine());
                first.flush();
            }
            if (!json) {
                NormalReport.printPreamble(report, run.jobs(), version());
                long warmup = jobs.specs().stream().mapToLong(JobSpec::jitWarmupNanos).max().orElse(0);
                if (warmup > 0) {
                    report.println(jobs.specs().getFirst().name() + ": JIT warm-up before the clock, until the JIT is idle, at most "
                            + FioUnits.describeNanos(warmup) + " per job (unmeasured; --jit_warmup=0 measures from the first I/O)");
                }
                report.flush();
            }
            boolean showEta = eta == Eta.always || (eta == Eta.auto && !json && output == null && LiveStatus.stdoutIsTerminal());
            run.execute(line -> {
                if (!json) {
                    report.println(line);
                    report.flush();
                }
            }, phase -> showEta ? FioEta.start(json ? err : out, phase) : null);
            int errors = 0;
            for (Job j : run.jobs()) {
                for (String w : j.warnings) {
                    err.println("jring-fio: " + w);
                }
                if (j.stats.error != 0) {
                    errors++;
                    err.println("jring-fio: " + j.stats.errorText);
                }
            }
            err.flush();
            List<ReportedJob> entries = ReportedJob.of(run.jobs());
            if (json) {
                report.print(JsonReport.render(entries, jobs.globalOptions(), version()));
            } else {
                report.println();
                NormalReport.print(report, entries);
            }
            report.flush();
            return errors == 0 ? 0 : 1;
        } finally {
            run.cleanup();
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it returns now that the report is out
            }
        }
    }

    /** The usage, then every job option: fio's names, which job files use without the dashes. */
    private void printHelp(PrintWriter out) {
        out.print(spec.commandLine().getUsageMessage());
        out.println();
        out.println("Job options (fio's names and meanings; in a job file without the dashes: bs=4k):");
        CommandLine.Help help = new CommandLine.Help(FioOptions.spec(), CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        out.print(help.optionList());
        out.flush();
    }

    /** fio's "fio version" field, e.g. "jring-fio-0.1.0-SNAPSHOT". */
    static String version() {
        return ProjectVersion.get().map(v -> "jring-fio-" + v).orElse("jring-fio");
    }
}
