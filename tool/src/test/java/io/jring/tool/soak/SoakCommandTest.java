package io.jring.tool.soak;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link SoakCommand}: options, and the 20 s soak bin/test runs (zero lost, zero duplicated, faults injected). */
class SoakCommandTest {

    private static SoakCommand parse(String... args) {
        ParseResult pr = JringCommand.commandLine().parseArgs(args);
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return (SoakCommand) pr.commandSpec().userObject();
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void defaultsAreOneMinuteThreeThreadsAndOnePercentFaults() {
        SoakCommand c = parse("soak");
        assertEquals(1, c.minutes);
        assertEquals(null, c.seconds);
        assertEquals(3, c.threads);
        assertEquals(0.01, c.faultRate);
        assertEquals(1, c.seed);
    }

    @Test
    void threadsOutsideTwoToFourAreRefused() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertNotEquals(0, run(out, err, "soak", "--seconds=1", "--threads=5"));
        assertTrue(err.toString().contains("--threads must be 2..4"), err.toString());
    }

    @Test
    @Timeout(120)
    void twentySecondSoakLosesAndDuplicatesNothingUnderInjectedFaults() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = run(out, err, "soak", "--seconds=20", "--threads=3", "--seed=16", "--output-format=json");
        List<String> lines = out.toString().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), out + "\n" + err);
        Map<String, Object> r = JsonReader.parseObject(lines.get(0));
        assertEquals(0.0, JsonReader.number(r, "lost"), lines.get(0));
        assertEquals(0.0, JsonReader.number(r, "duplicated"), lines.get(0));
        assertTrue(JsonReader.number(r, "faults") > 0, "no fault was injected: " + lines.get(0));
        assertTrue(JsonReader.number(r, "ops") > 1000, lines.get(0));
        assertTrue(JsonReader.number(r, "msg_ring_deliveries") > 0, lines.get(0));
        assertEquals(0, rc, lines.get(0) + "\n" + err);
    }
}
