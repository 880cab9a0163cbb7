package io.jring.tool.bench;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Option parsing of {@link DiowriteBench} and a short real run of both modes. */
class DiowriteBenchTest {
    @TempDir Path dir;

    private static DiowriteBench parse(String... args) {
        ParseResult pr = JringCommand.commandLine().parseArgs(args);
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return (DiowriteBench) pr.commandSpec().userObject();
    }

    @Test
    void defaultsAreTheSeedsDepthsAndBothModes() {
        DiowriteBench b = parse("bench", "diowrite");
        assertArrayEquals(new int[] {1, 2, 4, 8, 16}, b.depths.values());
        assertEquals(List.of(false, true), b.modes());
        assertEquals(RingFlags.single, b.flags);
        assertEquals(List.of(true), parse("bench", "diowrite", "--caller-completion=on").modes());
        assertEquals(List.of(false), parse("bench", "diowrite", "--caller-completion=off").modes());
    }

    @Test
    void rejectsAnUnknownMode() {
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        assertEquals(2, cl.execute("bench", "diowrite", "--caller-completion=maybe"));
        assertTrue(err.toString().contains("--caller-completion must be on, off or both"), err.toString());
    }

    @Test
    @Timeout(60)
    void aShortRunMeasuresBothModesAtOneDepthAndRemovesItsFile() throws Exception {
        StringWriter sw = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(sw));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute("bench", "diowrite", "--depth=2", "--seconds=1", "--warmup=0", "--rounds=1",
                "--size=4", "--dir=" + dir, "--output-format=json");
        assertEquals(0, rc, err.toString());
        List<String> lines = sw.toString().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(2, lines.size(), sw.toString());
        Map<String, Object> off = JsonReader.parseObject(lines.get(0));
        Map<String, Object> on = JsonReader.parseObject(lines.get(1));
        assertEquals("diowrite", off.get("bench"));
        assertEquals(false, off.get("caller_completion"));
        assertEquals(true, on.get("caller_completion"));
        assertEquals(2.0, on.get("depth"));
        assertTrue((Double) off.get("iops") >= 0 && (Double) on.get("iops") >= 0, sw.toString());
        assertTrue(on.containsKey("vs_off"));
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "the test file is deleted");
        }
    }
}
