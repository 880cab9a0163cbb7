package io.jring.tool;

import io.jring.tool.bench.BenchCommand;
import io.jring.tool.echo.EchoServerCommand;
import io.jring.tool.fio.CompareCommand;
import io.jring.tool.fio.FioCommand;
import io.jring.tool.soak.SoakCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * The {@code jring} command (run through {@code bin/jring}): io_uring-style benchmarks of
 * the engine, shaped after fio and t/io_uring (BENCHMARKS.md "The tool").
 * With no command it runs {@code fio} with no job options: its page-cache demo (4k random reads, QD32, on a temp file).
 */
@Command(name = "jring", mixinStandardHelpOptions = true, versionProvider = JringCommand.Version.class,
        description = "jring: Linux io_uring's architecture in Java. Benchmarks and tools.",
        subcommands = {BenchCommand.class, FioCommand.class, CompareCommand.class, EchoServerCommand.class,
                SoakCommand.class, io.jring.tool.report.ReportCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "With no command, runs 'jring fio' with no job options: its page-cache demo, 4k random reads at iodepth 32 "
                + "for 5 s on a page-cached 256 MiB temp file (its first line gives the equivalent options)."})
public final class JringCommand implements Callable<Integer> {

    /** What runs when no command is given. */
    static final String[] DEFAULT_COMMAND = {"fio"};

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return runDefault(spec.commandLine());
    }

    /**
     * Says so, then runs {@link #DEFAULT_COMMAND} (plus {@code extraArgs}, for tests) on a
     * fresh command tree printing where {@code from} prints. (Executing the already-parsed
     * subcommand from inside its parent's execute() trips picocli's parse state.)
     */
    static int runDefault(CommandLine from, String... extraArgs) {
        PrintWriter out = from.getOut();
        out.println("jring: no command given; running 'jring " + String.join(" ", DEFAULT_COMMAND)
                + "' with defaults (jring --help lists the commands)");
        out.flush();
        String[] args = Arrays.copyOf(DEFAULT_COMMAND, DEFAULT_COMMAND.length + extraArgs.length);
        System.arraycopy(extraArgs, 0, args, DEFAULT_COMMAND.length, extraArgs.length);
        return commandLine().setOut(out).setErr(from.getErr()).execute(args);
    }

    /** The configured command line: case-insensitive enum values (--flags=SINGLE, --kind=mpsc). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new JringCommand()).setCaseInsensitiveEnumValuesAllowed(true);
        shareVersion(cl);
        cl.setParameterExceptionHandler(JringCommand::oneLineError);
        return cl;
    }

    /**
     * A usage error is one line on stderr, no usage dump: an unknown option with the nearest
     * known one, anything else with where to find help.
     */
    static int oneLineError(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName();
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
                && u.getUnmatched().getFirst().startsWith("-")) {
            String typed = u.getUnmatched().getFirst();
            int eq = typed.indexOf('=');
            java.util.List<String> known = new java.util.ArrayList<>();
            for (CommandLine.Model.OptionSpec o : cmd.getCommandSpec().options()) {
                known.addAll(java.util.List.of(o.names()));
            }
            String nearest = OptionNames.nearest(typed, known);
            err.println(name + ": unknown option '" + (eq < 0 ? typed : typed.substring(0, eq)) + "'"
                    + (nearest == null ? "" : " (nearest: " + nearest + ")"));
        } else {
            err.println(name + ": " + ex.getMessage() + " (see '" + name + " --help')");
        }
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Every subcommand answers -V/--version as the top command does (picocli gives them none of their own). */
    private static void shareVersion(CommandLine parent) {
        for (CommandLine sub : parent.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            if (spec.versionProvider() == null && spec.version().length == 0) {
                spec.versionProvider(new Version());
            }
            shareVersion(sub);
        }
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** {@code --version}: the project version (filtered in at build time) and the runtime. */
    public static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {
                "jring " + ProjectVersion.get().orElse("(unknown version)"),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + "), "
                        + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " CPUs"
            };
        }
    }
}
