package io.jring.tool;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link JringCommand}: the command tree, --help, --version and the default command. */
class JringCommandTest {

    private static String run(String... args) {
        StringWriter sw = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(sw));
        cl.setErr(new PrintWriter(sw));
        int rc = cl.execute(args);
        return rc + "|" + sw;
    }

    @Test
    void helpListsTheBenchCommand() {
        String out = run("--help");
        assertTrue(out.startsWith("0|"), out);
        assertTrue(out.contains("bench"), out);
        String bench = run("bench", "--help");
        assertTrue(bench.contains("nop") && bench.contains("twadd"), bench);
    }

    @Test
    void versionNamesTheProjectAndTheRuntime() {
        String out = run("--version");
        assertTrue(out.startsWith("0|jring "), out);
        assertTrue(out.contains("Java " + Runtime.version().feature()), out);
    }

    /** -V (and --version) answer the same in every subcommand, not only at the top. */
    @Test
    void versionWorksInEverySubcommand() {
        java.util.List<String[]> paths = new java.util.ArrayList<>();
        collect(JringCommand.commandLine(), new java.util.ArrayList<>(), paths);
        assertTrue(paths.size() > 5, "subcommands found: " + paths.size());
        for (String[] path : paths) {
            String[] args = java.util.Arrays.copyOf(path, path.length + 1);
            args[path.length] = "-V";
            String out = run(args);
            assertTrue(out.startsWith("0|jring "), String.join(" ", args) + " -> " + out);
        }
    }

    private static void collect(CommandLine cl, java.util.List<String> prefix, java.util.List<String[]> into) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getValue().getCommand() instanceof CommandLine.HelpCommand) {
                continue;
            }
            java.util.List<String> path = new java.util.ArrayList<>(prefix);
            path.add(e.getKey());
            into.add(path.toArray(String[]::new));
            collect(e.getValue(), path, into);
        }
    }

    /**
     * The bench commands' help is for users: each description starts with a complete sentence
     * (the line the command list shows) and names no project internals (seed files, issue
     * numbers, documents, source paths).
     */
    @Test
    void benchHelpIsWrittenForUsers() {
        CommandLine bench = JringCommand.commandLine().getSubcommands().get("bench");
        java.util.List<CommandLine> commands = new java.util.ArrayList<>(bench.getSubcommands().values());
        commands.add(bench);
        for (CommandLine c : commands) {
            if (c.getCommand() instanceof CommandLine.HelpCommand) {
                continue;
            }
            String name = c.getCommandSpec().qualifiedName();
            String[] description = c.getCommandSpec().usageMessage().description();
            assertTrue(description.length > 0 && description[0].endsWith("."), name + ": " + String.join("|", description));
            String help = c.getUsageMessage(CommandLine.Help.Ansi.OFF);
            for (String internal : new String[] {"seed 0", "Seed 0", "issue ", "BENCHMARKS.md", "tool/anchors", "t/io_uring"}) {
                assertTrue(!help.contains(internal), name + " help mentions '" + internal + "':\n" + help);
            }
        }
    }

    @Test
    void noCommandResolvesToFio() {
        CommandLine cl = JringCommand.commandLine();
        CommandLine target = cl;
        for (String name : JringCommand.DEFAULT_COMMAND) {
            target = target.getSubcommands().get(name);
        }
        assertInstanceOf(io.jring.tool.fio.FioCommand.class, target.getCommand());
    }

    @Test
    void noCommandSaysSoAndRunsFio(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        StringWriter sw = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(sw));
        cl.setErr(new PrintWriter(sw));
        int rc = JringCommand.runDefault(cl, "--size=4M", "--runtime=1", "--directory=" + dir);
        String out = sw.toString();
        assertEquals(0, rc, out);
        assertTrue(out.startsWith("jring: no command given; running 'jring fio'"), out);
    }

    @Test
    void unknownOptionIsAUsageError() {
        String out = run("bench", "nop", "--bogus");
        assertNotEquals("0", out.substring(0, out.indexOf('|')));
        assertTrue(out.contains("--bogus"), out);
    }

    /** Any command: an unknown option is one line naming the nearest known one, no usage dump. */
    @Test
    void anUnknownOptionIsOneLineNamingTheNearest() {
        assertEquals("2|jring bench nop: unknown option '--bach' (nearest: --batch)\n", run("bench", "nop", "--bach=8"));
        assertEquals("2|jring bench nop: Invalid value for option '--batch': 'x' is not an int (see 'jring bench nop --help')\n",
                run("bench", "nop", "--batch=x"));
    }

    @Test
    void benchAloneShowsUsage() {
        String out = run("bench");
        assertEquals("2", out.substring(0, out.indexOf('|')));
        assertTrue(out.contains("nop"), out);
    }
}
