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
        CompareTable.print(new PrintWriter(sw), results, false, new int[] {32});
        String out = sw.toString();
        assertTrue(out.matches("(?s).*\n32 +jring +390\\.0K +10\\.3% +3 +1\\.30x +0\\.78x\n.*"), out);
        assertTrue(out.matches("(?s).*\n32 +fio io_uring +300\\.0K +6\\.7% +3 +1\\.00x +0\\.60x\n.*"), out);
        assertTrue(out.contains("afc"), out);
        assertTrue(out.contains("QD32: jring / fio io_uring = 1.30x (target >= 1.20x: met)"), out);
        assertTrue(out.contains("QD32: jring / fio psync = 0.78x (target >= 0.85x: MISSED)"), out);
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
        assertTrue(jring.contains("fio") && jring.contains(io.jring.tool.JringCommand.class.getName()));
    }

    @Test
    void aMissingFioIsNotFound() {
        assertNull(CompareCommand.findOnPath("no-such-fio-binary-here"));
    }
}
