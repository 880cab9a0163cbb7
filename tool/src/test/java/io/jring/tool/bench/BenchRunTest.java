package io.jring.tool.bench;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Short real runs of {@link NopBench} and {@link TwaddBench}: they complete and report what BENCHMARKS.md asks. */
class BenchRunTest {

    private record Run(int rc, String out) {}

    private static Run run(String... args) {
        StringWriter sw = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(sw));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute(args);
        assertEquals("", err.toString());
        return new Run(rc, sw.toString());
    }

    private static List<String> lines(String out) {
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    @Test
    void nopRunReportsAPositiveRateAndTheAnchorRatio() {
        Run r = run("bench", "nop", "--seconds=1", "--warmup=0");
        assertEquals(0, r.rc(), r.out());
        Matcher m = Pattern.compile("NOP: ([0-9.]+)([KMG]?) ops/s").matcher(r.out());
        assertTrue(m.find(), r.out());
        assertTrue(Double.parseDouble(m.group(1)) > 0, r.out());
        assertTrue(r.out().contains("x kernel anchor (BENCHMARKS.md"), r.out());
    }

    @Test
    void nopJsonIsOneObjectWithTheDocumentedKeys() {
        Run r = run("bench", "nop", "--seconds=1", "--warmup=0", "--batch=8", "--output-format=json");
        assertEquals(0, r.rc(), r.out());
        List<String> lines = lines(r.out());
        assertEquals(1, lines.size(), r.out());
        Map<String, Object> o = JsonReader.parseObject(lines.get(0));
        assertEquals("nop", o.get("bench"));
        assertEquals("MPSC", o.get("kind"));
        assertEquals(8.0, o.get("batch"));
        assertTrue((Double) o.get("ops_per_sec") > 0, lines.get(0));
        @SuppressWarnings("unchecked")
        Map<String, Object> lat = (Map<String, Object>) o.get("lat_ns");
        assertEquals(Set.of("p50", "p99", "p999"), lat.keySet());
        assertTrue((Double) lat.get("p50") > 0 && (Double) lat.get("p50") <= (Double) lat.get("p999"));
    }

    @Test
    void twaddJsonHasOneObjectPerKindAndProducerCount() {
        Run r = run("bench", "twadd", "--seconds=1", "--warmup=0", "--rounds=1", "--producers=1",
                "--kind=LOCKED,MPSC", "--items=256", "--output-format=json");
        assertEquals(0, r.rc(), r.out());
        List<String> lines = lines(r.out());
        assertEquals(2, lines.size(), r.out());
        for (String line : lines) {
            Map<String, Object> o = JsonReader.parseObject(line);
            assertEquals("twadd", o.get("bench"));
            assertTrue(Set.of("LOCKED", "MPSC").contains(o.get("kind")), line);
            assertEquals(1.0, o.get("producers"));
            assertTrue((Double) o.get("ops_per_sec") > 0, line);
            assertTrue(o.containsKey("spread"), line);
        }
    }
}
