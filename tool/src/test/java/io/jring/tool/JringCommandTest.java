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

    @Test
    void benchAloneShowsUsage() {
        String out = run("bench");
        assertEquals("2", out.substring(0, out.indexOf('|')));
        assertTrue(out.contains("nop"), out);
    }
}
