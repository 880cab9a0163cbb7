package io.jring.tool.fio;

import io.jring.tool.ProjectVersion;
import io.jring.tool.report.LiveStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring fio}: fio's file benchmark on jring's engines, with fio's option names and
 * fio's normal and JSON output (BENCHMARKS.md "The tool"). With no options: a 256 MiB temp
 * file, laid out and read once, then 4k random reads at depth 32 for 5 s on the jring
 * engine; the file is removed afterwards, on Ctrl-C too.
 */
@Command(name = "fio", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "fio-style file benchmark: fio's options (--opt=value, sizes like 4k/256M/1g with k = 1024) and fio's output.",
            "With no options: 4k randread, iodepth 32, 5 s, on a 256 MiB page-cached temp file, jring engine."},
        footer = {"", "Examples:",
            "  jring fio",
            "  jring fio --rw=randread --bs=4k --iodepth=1 --ioengine=psync --runtime=3",
            "  jring fio --direct=1 --filename=/var/tmp/f --size=1g --output-format=json"})
public final class FioCommand implements Callable<Integer> {

    @Mixin
    FioOptions options = new FioOptions();

    /** fio's --output-format values that jring-fio writes. */
    enum OutputFormat { normal, json }

    @Option(names = "--output-format", defaultValue = "normal", paramLabel = "normal|json",
            description = "normal: fio's human report; json: fio's JSON layout (jobs[0].read.iops, ...).")
    OutputFormat outputFormat;

    @Option(names = "--eta", defaultValue = "auto", paramLabel = "auto|always|never",
            description = "The live status line: auto = on a terminal with normal output (default).")
    String eta;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!eta.equals("auto") && !eta.equals("always") && !eta.equals("never")) {
            throw new ParameterException(spec.commandLine(), "--eta must be auto, always or never, not '" + eta + "'");
        }
        JobSpec job;
        try {
            job = options.toSpec(spec.commandLine().getParseResult());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        boolean json = outputFormat == OutputFormat.json;
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();

        FioRun run = new FioRun(job);
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
            if (!json) {
                NormalReport.printPreamble(out, job, version());
            }
            try {
                run.prepare(line -> {
                    if (!json) {
                        out.println(line);
                        out.flush();
                    }
                });
            } catch (IOException e) {
                err.println("jring-fio: " + e.getMessage());
                err.flush();
                return 1;
            }
            if (job.jitWarmupNanos() > 0 && !json) {
                out.println(job.name() + ": JIT warm-up before the clock, until the JIT is idle, at most "
                        + FioUnits.describeNanos(job.jitWarmupNanos()) + " (unmeasured; --jit_warmup=0 measures from the first I/O)");
                out.flush();
            }
            boolean showEta = eta.equals("always") || (eta.equals("auto") && !json && LiveStatus.stdoutIsTerminal());
            try (FioEta status = showEta ? FioEta.start(json ? err : out, run.jobs()) : null) {
                run.execute();
            }
            int errors = 0;
            for (Job j : run.jobs()) {
                if (j.stats.error != 0) {
                    errors++;
                    err.println("jring-fio: " + j.stats.errorText);
                }
            }
            err.flush();
            GroupStats group = GroupStats.of(run.jobs());
            if (json) {
                out.print(JsonReport.render(run.jobs(), group, version()));
                out.flush();
            } else {
                out.println();
                NormalReport.print(out, run.jobs(), group);
            }
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

    /** fio's "fio version" field, e.g. "jring-fio-0.1.0-SNAPSHOT". */
    static String version() {
        return ProjectVersion.get().map(v -> "jring-fio-" + v).orElse("jring-fio");
    }
}
