package io.jring.tool.bench;

import io.jring.TaskWorkKind;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Option parsing of {@link MsgRingBench} and short real runs (anchor off: the test must not depend on gcc). */
class MsgRingBenchTest {

    private static MsgRingBench parse(String... args) {
        ParseResult pr = JringCommand.commandLine().parseArgs(args);
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return (MsgRingBench) pr.commandSpec().userObject();
    }

    private static String runJson(String... args) {
        StringWriter sw = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(sw));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute(args);
        assertEquals("", err.toString());
        assertEquals(0, rc, sw.toString());
        List<String> lines = sw.toString().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), sw.toString());
        return lines.get(0);
    }

    @Test
    void defaultsMatchTheBrief() {
        MsgRingBench b = parse("bench", "msgring");
        assertEquals(3, b.seconds.value());
        assertEquals(1, b.warmup.value());
        assertEquals(32, b.batch);
        assertFalse(b.noDefer);
        assertEquals(RingFlags.defer, b.flags());
        assertEquals(TaskWorkKind.MPSC, b.kind.single());
        assertFalse(b.pingpong);
        assertEquals("auto", b.anchor.mode().name());
        assertEquals(OutputFormat.normal, b.output.format());
    }

    @Test
    void takesEveryOption() {
        MsgRingBench b = parse("bench", "msgring", "--seconds=2", "--warmup=0", "--batch=8", "--no-defer",
                "--kind=llist", "--pingpong", "--anchor=off", "--output-format=json");
        assertEquals(2, b.seconds.value());
        assertEquals(0, b.warmup.value());
        assertEquals(8, b.batch);
        assertEquals(RingFlags.single, b.flags());
        assertEquals(TaskWorkKind.LLIST, b.kind.single());
        assertTrue(b.pingpong);
        assertEquals(1, b.effectiveBatch());
        assertEquals("off", b.anchor.mode().name());
        assertEquals(OutputFormat.json, b.output.format());
    }

    @Test
    void rejectsAnUnknownKind() {
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "msgring", "--kind=FIFO"));
    }

    @Test
    @Timeout(10)
    void aOneSecondStreamingRunMovesMessages() {
        Map<String, Object> o = JsonReader.parseObject(runJson("bench", "msgring", "--seconds=1", "--warmup=0",
                "--anchor=off", "--output-format=json"));
        assertEquals("msgring", o.get("bench"));
        assertEquals("stream", o.get("mode"));
        assertEquals("defer", o.get("flags"));
        assertTrue((Double) o.get("msgs") > 0, o.toString());
        assertEquals(0.0, o.get("errors"));
    }

    @Test
    @Timeout(10)
    void aOneSecondPingPongRunTimesRoundTrips() {
        Map<String, Object> o = JsonReader.parseObject(runJson("bench", "msgring", "--seconds=1", "--warmup=0",
                "--no-defer", "--pingpong", "--anchor=off", "--output-format=json"));
        assertEquals("pingpong", o.get("mode"));
        assertEquals("single", o.get("flags"));
        assertTrue((Double) o.get("msgs") > 0, o.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> lat = (Map<String, Object>) o.get("lat_ns");
        assertTrue((Double) lat.get("p50") > 0 && (Double) lat.get("p50") <= (Double) lat.get("p99"), o.toString());
    }
}
