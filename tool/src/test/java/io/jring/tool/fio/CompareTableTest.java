package io.jring.tool.fio;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CompareTable} and {@link Contender}: medians, spreads, ratios and the commands run. */
class CompareTableTest {

    @Test
    void tableShowsMediansSpreadAndRatiosToTheAnchors() {
        Map<Contender, double[]> results = new LinkedHashMap<>();
        results.put(new Contender(true, "io_uring", 32), new double[] {300_000, 310_000, 290_000});
        results.put(new Contender(false, "jring", 32), new double[] {390_000, 360_000, 400_000});
        results.put(new Contender(true, "psync", 1), new double[] {500_000, 500_000, 500_000});
        results.put(new Contender(false, "afc", 32), new double[] {Double.NaN, Double.NaN, Double.NaN});
        StringWriter sw = new StringWriter();
        Map<Contender, double[]> p99s = new LinkedHashMap<>();
        p99s.put(new Contender(true, "io_uring", 32), new double[] {100_000, 120_000, 110_000});
        p99s.put(new Contender(false, "jring", 32), new double[] {99_000, Double.NaN, 130_000});
        Map<Contender, double[]> cpus = new LinkedHashMap<>();
        cpus.put(new Contender(true, "io_uring", 32), new double[] {40.0, 44.0, 42.0});
        cpus.put(new Contender(false, "jring", 32), new double[] {97.0, 99.0, 98.4});
        CompareTable.print(new PrintWriter(sw), results, p99s, cpus, false, new int[] {32});
        String out = sw.toString();
        assertTrue(out.matches("(?s).*\n32 +jring +390\\.0K +10\\.3% +3 +1\\.30x +0\\.78x +115 us +1\\.04x +98%\n.*"), out);
        assertTrue(out.matches("(?s).*\n32 +fio io_uring +300\\.0K +6\\.7% +3 +1\\.00x +0\\.60x +110 us +1\\.00x +42%\n.*"), out);
        assertTrue(out.matches("(?s).*\n1 +fio psync +500\\.0K +0\\.0% +3 +- +1\\.00x +- +- +-\n.*"), out);
        assertTrue(out.contains("afc"), out);
        assertTrue(out.contains("QD32: jring / fio io_uring = 1.30x (target >= 1.20x: met)"), out);
        assertTrue(out.contains("QD32: jring / fio psync = 0.78x (target >= 0.85x: MISSED)"), out);
        assertTrue(!out.contains("issue 7"), "the O_DIRECT targets only with --direct=1");
    }

    /** With O_DIRECT, issue 7's targets per depth: IOPS >= 0.95x and p99 <= 1.10x of fio io_uring's. */
    @Test
    void directRunsCheckIssue7sIopsAndP99Targets() {
        Map<Contender, double[]> results = new LinkedHashMap<>();
        results.put(new Contender(true, "io_uring", 1), new double[] {20_000});
        results.put(new Contender(false, "jring", 1), new double[] {19_800});
        results.put(new Contender(true, "io_uring", 8), new double[] {70_000});
        results.put(new Contender(false, "jring", 8), new double[] {60_000});
        Map<Contender, double[]> p99s = new LinkedHashMap<>();
        p99s.put(new Contender(true, "io_uring", 1), new double[] {60_000});
        p99s.put(new Contender(false, "jring", 1), new double[] {63_000});
        p99s.put(new Contender(true, "io_uring", 8), new double[] {200_000});
        p99s.put(new Contender(false, "jring", 8), new double[] {260_000});
        StringWriter sw = new StringWriter();
        CompareTable.print(new PrintWriter(sw), results, p99s, Map.of(), true, new int[] {1, 8});
        String out = sw.toString();
        assertTrue(out.contains("QD1 O_DIRECT (issue 7): jring / fio io_uring = 0.99x (target >= 0.95x: met)"), out);
        assertTrue(out.contains("QD1 O_DIRECT (issue 7): p99 jring / fio io_uring = 1.05x (target <= 1.10x: met)"), out);
        assertTrue(out.contains("QD8 O_DIRECT (issue 7): jring / fio io_uring = 0.86x (target >= 0.95x: MISSED)"), out);
        assertTrue(out.contains("QD8 O_DIRECT (issue 7): p99 jring / fio io_uring = 1.30x (target <= 1.10x: MISSED)"), out);
    }

    @Test
    void theP99IsReadFromFiosLatPercentiles() {
        Object json = io.jring.tool.report.JsonReader.parse(
                "{\"jobs\":[{\"read\":{\"lat_ns\":{\"percentile\":{\"50.000000\":1000,\"99.000000\":43520}}}}]}");
        assertEquals(43_520.0, CompareCommand.p99Nanos(json));
        assertTrue(Double.isNaN(CompareCommand.p99Nanos(io.jring.tool.report.JsonReader.parse("{\"jobs\":[{\"read\":{}}]}"))));
    }

    @Test
    void bothSidesGetTheSameFioOptions() {
        CompareCommand.Plan plan = new CompareCommand.Plan("256m", "4k", 3, 1, false);
        List<String> fio = new Contender(true, "io_uring", 32).command("/usr/bin/fio", Path.of("/tmp/f"), plan);
        List<String> jring = new Contender(false, "jring", 32).command("/usr/bin/fio", Path.of("/tmp/f"), plan);
        List<String> options = fio.subList(1, fio.size());
        List<String> jringOptions = jring.subList(jring.size() - options.size(), jring.size());
        assertEquals(options.stream().map(o -> o.replace("=io_uring", "=jring")).toList(), jringOptions);
        assertTrue(options.contains("--invalidate=0"));
        assertTrue(options.contains("--output-format=json"));
        assertTrue(options.contains("--lat_percentiles=1"), "both report the total latency's p99");
        assertTrue(jring.contains("fio") && jring.contains(io.jring.tool.JringCommand.class.getName()));
    }

    @Test
    void aMissingFioIsNotFound() {
        assertNull(CompareCommand.findOnPath("no-such-fio-binary-here"));
    }
}
