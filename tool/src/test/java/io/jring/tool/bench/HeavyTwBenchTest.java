package io.jring.tool.bench;

import io.jring.Fds;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.TaskWorkKind;
import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Assumptions;
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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Option parsing of {@link HeavyTwBench} and one short real run on a small O_DIRECT file. */
class HeavyTwBenchTest {

    @TempDir
    Path dir;

    private static HeavyTwBench parse(String... args) {
        ParseResult pr = JringCommand.commandLine().parseArgs(args);
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return (HeavyTwBench) pr.commandSpec().userObject();
    }

    @Test
    void defaultsAreTheSeedsExperiment() {
        HeavyTwBench b = parse("bench", "heavytw");
        assertEquals(List.of(TaskWorkKind.LOCKED, TaskWorkKind.PRIORITY), b.kinds.kinds());
        assertArrayEquals(new int[] {1, 2, 4, 8, 16, 32, 64, 128, 256}, b.depths.values());
        assertEquals(20, b.heavyUs);
        assertEquals("same", b.heavyRing);
        assertEquals(1, b.seconds.value());
        assertEquals(3, b.rounds.value());
        assertEquals(1L << 30, b.size);
        assertEquals(null, b.file);
    }

    @Test
    void depthTakesAListOrARangeOfPowersOfTwo() {
        assertArrayEquals(new int[] {1, 8, 32}, parse("bench", "heavytw", "--depth=1,8,32").depths.values());
        assertArrayEquals(new int[] {4, 8, 16}, parse("bench", "heavytw", "--depth=4..16").depths.values());
        assertArrayEquals(new int[] {3, 6, 12, 1}, parse("bench", "heavytw", "--depth=3..12,1,6").depths.values());
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "heavytw", "--depth=0"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "heavytw", "--depth=512"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "heavytw", "--depth=8..2"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("bench", "heavytw", "--depth=x"));
    }

    @Test
    void badValuesAreRefusedWithUsage() {
        for (String bad : new String[] {"--heavy-us=-1", "--seconds=0", "--rounds=0", "--size=1000",
                "--heavy-ring=elsewhere", "--warmup-ms=-5"}) {
            StringWriter err = new StringWriter();
            CommandLine cl = JringCommand.commandLine();
            cl.setOut(new PrintWriter(new StringWriter()));
            cl.setErr(new PrintWriter(err));
            assertEquals(2, cl.execute("bench", "heavytw", bad), bad);
            assertTrue(err.toString().contains(bad.substring(0, bad.indexOf('='))), err.toString());
        }
    }

    @Test
    @Timeout(120) // laying out the file and two short phases; generous for a loaded machine
    void shortRunReportsIopsAndLatencyAsJson() throws Exception {
        Path file = dir.resolve("heavytw.dat");
        HeavyTwBench.prepareFile(file, 1 << 20);
        try {
            Fds.close(Fds.open(file, OpenFlags.RDONLY | OpenFlags.DIRECT, 0));
        } catch (IoUringException e) {
            Assumptions.abort("O_DIRECT not supported in " + dir + ": " + e.getMessage());
        }
        StringWriter sw = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(sw));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute("bench", "heavytw", "--file=" + file, "--size=1m", "--depth=4", "--seconds=1",
                "--rounds=1", "--warmup-ms=0", "--kind=PRIORITY", "--heavy-us=5", "--heavy-ring=other", "--output-format=json");
        assertEquals("", err.toString());
        assertEquals(0, rc, sw.toString());
        List<String> lines = sw.toString().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), sw.toString());
        for (String line : lines) {
            Map<String, Object> o = JsonReader.parseObject(line);
            assertEquals("heavytw", o.get("bench"));
            assertEquals("PRIORITY", o.get("kind"));
            assertEquals(4.0, o.get("depth"));
            assertEquals(5.0, o.get("heavy_us"));
            assertEquals("other", o.get("heavy_ring"));
            assertEquals(0.0, o.get("errors"), line);
            assertTrue((Double) o.get("ops_per_sec") > 0, line);
            assertTrue((Double) o.get("avg_lat_ns") > 0, line);
            assertTrue((Double) o.get("heavy_items_per_run") > 0, line);
            @SuppressWarnings("unchecked")
            Map<String, Object> lat = (Map<String, Object>) o.get("lat_ns");
            assertTrue((Double) lat.get("p50") > 0 && (Double) lat.get("p50") <= (Double) lat.get("p99"), line);
        }
        assertTrue(Files.exists(file), "a file given with --file is kept");
    }
}
