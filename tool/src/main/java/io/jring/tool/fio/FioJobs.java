package io.jring.tool.fio;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The jobs one {@code jring fio} command defines, resolved: the command line's
 * ({@code --name} starts each; options without any {@code --name} and no job file make one
 * job, named jring), then the job files' in order. With no fio job option at all it is the
 * demo job, {@link #DEMO}: the page cache, measured the way fio measures it with those options.
 *
 * @param specs         the job definitions, in order
 * @param globalOptions fio's "global options" for the JSON output
 * @param demo          whether this is the demo job
 */
record FioJobs(List<JobSpec> specs, Map<String, String> globalOptions, boolean demo) {

    /** The demo job's options: 4k random reads at depth 32 for 5 s on a page-cached 256 MiB temp file. */
    static final List<String> DEMO = List.of("--name=jring", "--rw=randread", "--bs=4k", "--iodepth=32", "--size=256m",
            "--time_based", "--runtime=5", "--invalidate=0", "--pre_read=1");

    /** The first line of the demo's output: what it measures and which options that means. */
    static String demoLine() {
        return "jring fio: no job options given, so this is the page-cache demo: jring fio " + String.join(" ", DEMO)
                + " on a temp file; give any job option and fio's defaults apply (invalidate=1: a cold cache).";
    }

    static FioJobs of(FioArgs args, Set<String> sections, Consumer<String> warnings) throws IOException {
        if (args.isEmpty()) {
            List<String> demoArgs = new ArrayList<>(DEMO.subList(1, DEMO.size()));
            demoArgs.addAll(args.globalArgs());   // jring's own tuning options, such as --jit_warmup
            Map<String, String> given = new LinkedHashMap<>();
            for (String a : demoArgs) {
                int eq = a.indexOf('=');
                given.put(a.substring(2, eq < 0 ? a.length() : eq), eq < 0 ? "" : a.substring(eq + 1));
            }
            JobDefinition demo = new JobDefinition("jring", demoArgs, given, "the demo job");
            return new FioJobs(List.of(demo.resolve(true, warnings)), Map.of(), true);
        }
        List<JobDefinition> defs = new ArrayList<>(args.jobs());
        Map<String, String> globals = new LinkedHashMap<>();
        if (args.jobs().isEmpty() && args.jobFiles().isEmpty()) {
            // fio wants a --name; jring takes the options as one job's, named jring.
            defs.add(new JobDefinition("jring", args.globalArgs(), args.globalOptions(), "the command line"));
        } else {
            globals.putAll(args.globalOptions());
        }
        JobFileParser parser = new JobFileParser();
        for (int i = 0; i < args.jobFiles().size(); i++) {
            // As fio: the command line's options are the defaults of the first job file only,
            // and each later file starts behind a stonewall.
            JobFileParser.Parsed p = parser.parse(Path.of(args.jobFiles().get(i)), i == 0 ? args.globalArgs() : List.of(),
                    sections, i > 0);
            defs.addAll(p.jobs());
            globals.putAll(p.globalOptions());
        }
        if (defs.isEmpty()) {
            throw new IllegalArgumentException(sections.isEmpty() ? "no jobs defined"
                    : "no job section named " + String.join(", ", sections));
        }
        List<JobSpec> specs = new ArrayList<>();
        for (JobDefinition d : defs) {
            specs.add(d.resolve(false, warnings));
        }
        return new FioJobs(specs, globals, false);
    }
}
