package io.jring.tool.report;

import io.jring.tool.JringCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link ReportCommand}, through the jring command as a user runs it; nothing here runs a benchmark. */
class ReportCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return JringCommand.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(args);
    }

    private static SweepPlan plan(String... args) {
        CommandLine cl = JringCommand.commandLine();
        CommandLine.ParseResult parsed = cl.parseArgs(args);
        return ((ReportCommand) parsed.subcommand().commandSpec().userObject()).plan();
    }

    @Test
    void fromRendersThePageAgainWithoutRunning(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("old.json");
        try (InputStream in = ReportCommandTest.class.getResourceAsStream("report-quick.json")) {
            Files.write(json, in.readAllBytes());
        }
        assertEquals(0, run("report", "--from=" + json));
        Path page = dir.resolve("old.html");
        assertEquals("jring report: wrote " + page + " from " + json + " (17 runs)\n", out.toString());
        assertEquals(8, ReportPageTest.parse(Files.readString(page)).getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength());
    }

    @Test
    void quickMeansThreeDepthsOneBlockSizeAndOneSecondUnlessAnOptionSaysOtherwise() {
        SweepPlan quick = plan("report", "--quick");
        assertArrayEquals(new int[] {1, 8, 32}, quick.depths());
        assertEquals(List.of("4k"), quick.blockSizes());
        assertEquals(1, quick.runtimeSeconds());
        assertEquals(0, quick.rampSeconds());
        assertEquals(List.of(false, true), quick.directModes());
        assertEquals(List.of(ReportEngine.values()), quick.engines());

        SweepPlan mixed = plan("report", "--quick", "--iodepths=4,2", "--runtime=2", "--modes=direct");
        assertArrayEquals(new int[] {2, 4}, mixed.depths());
        assertEquals(2, mixed.runtimeSeconds());
        assertEquals(List.of(true), mixed.directModes());

        SweepPlan full = plan("report");
        assertArrayEquals(SweepPlan.FULL_DEPTHS, full.depths());
        assertEquals(List.of("4k", "64k"), full.blockSizes());
        assertEquals(3, full.runtimeSeconds());
        assertEquals(1, full.rampSeconds());
    }

    @Test
    void aWrongOptionIsOneLineSayingWhatIsWrong() {
        assertEquals(2, run("report", "--rw=trim"));
        assertEquals("jring report: --rw must be read, randread, write or randwrite, not 'trim'\n", err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("report", "--engines=jring,fio-spdk"));
        assertEquals("jring report: no report engine 'fio-spdk': use jring, fio-io_uring, fio-libaio, fio-psync\n", err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("report", "--bs=1000"));
        assertEquals("jring report: --bs=1000: O_DIRECT needs a multiple of 512 (or --modes=buffered)\n", err.toString());
    }

    @Test
    void withoutFioTheFioEnginesAreSkippedWithANoteOnThePage(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("p.html");
        int rc = run("report", "--fio=" + dir.resolve("no-fio"), "--engines=fio-io_uring,fio-psync", "--modes=buffered",
                "--size=64k", "--directory=" + dir, "--output=" + page);
        assertEquals(1, rc, "nothing was measured");
        String note = "fio engines skipped: no working fio at '" + dir.resolve("no-fio") + "' (apt-get install fio, or --fio=PATH).";
        assertTrue(out.toString().contains("note: " + note), out::toString);
        assertTrue(ReportPageTest.parse(Files.readString(page)).getDocumentElement().getTextContent().contains(note));
        assertTrue(Files.exists(dir.resolve("p.json")));
        try (var files = Files.list(dir)) {
            assertEquals(List.of("p.html", "p.json"), files.map(f -> f.getFileName().toString()).sorted().toList(), "the temp file is gone");
        }
    }
}
