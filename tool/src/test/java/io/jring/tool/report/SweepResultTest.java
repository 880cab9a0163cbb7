package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link SweepResult}. */
class SweepResultTest {

    private static final SweepPoint POINT = new SweepPoint(ReportEngine.FIO_PSYNC, false, "4k", 1);

    @Test
    void readsIopsAndFallsBackToCompletionLatencyWithoutLatPercentiles() throws IOException {
        // fio 3.33's own output, run without --lat_percentiles: only clat_ns has percentiles.
        String fio;
        try (InputStream in = SweepResultTest.class.getResourceAsStream("/io/jring/tool/fio/fio-3.33-randread-psync.json")) {
            fio = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        SweepResult r = SweepResult.of(POINT, JsonReader.parse("note: a line fio prints before its JSON\n" + fio));
        assertTrue(r.ok());
        assertNull(r.note());
        assertEquals(270117.882118, r.iops(), 1e-6);
        assertEquals(1736, r.p50Nanos());
        assertEquals(50432, r.p99Nanos());
        assertEquals(72192, r.p999Nanos());
    }

    @Test
    void aJobErrorOrNoIoIsANoteNotAFigure() {
        SweepResult failed = SweepResult.of(POINT, JsonReader.parse(
                "{\"jobs\":[{\"error\":2,\"read\":{\"iops\":0,\"total_ios\":0},\"write\":{\"iops\":0,\"total_ios\":0}}]}"));
        assertFalse(failed.ok());
        assertEquals("the job failed with error 2", failed.note());
        assertTrue(Double.isNaN(failed.iops()));
        SweepResult idle = SweepResult.of(POINT, JsonReader.parse(
                "{\"jobs\":[{\"error\":0,\"read\":{\"iops\":0,\"total_ios\":0},\"write\":{\"iops\":0,\"total_ios\":0}}]}"));
        assertEquals("the job did no I/O", idle.note());
        assertEquals("the output has no jobs[0] with read and write figures", SweepResult.of(POINT, JsonReader.parse("{}")).note());
    }

    @Test
    void writesAreReadFromTheWriteSide() {
        SweepResult w = SweepResult.of(POINT, JsonReader.parse("{\"jobs\":[{\"error\":0,\"read\":{\"iops\":0,\"total_ios\":0},"
                + "\"write\":{\"iops\":1000.5,\"total_ios\":1001,\"lat_ns\":{\"percentile\":{\"50.000000\":10,\"99.000000\":20,\"99.900000\":30}}}}]}"));
        assertEquals(1000.5, w.iops());
        assertEquals(20, w.latencyNanos(99));
        assertEquals(30, w.latencyNanos(99.9));
    }
}
