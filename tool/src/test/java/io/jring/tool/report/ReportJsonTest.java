package io.jring.tool.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link ReportJson}. */
class ReportJsonTest {

    @Test
    void aReportReadsBackAsTheSameRunsAndWritesTheSameText() throws Exception {
        ReportData data = ReportPageTest.recorded();
        assertEquals(17, data.results().size());
        String json = ReportJson.write(data);
        ReportData again = ReportJson.read(json);
        assertEquals(data.about(), again.about());
        assertEquals(data.notes(), again.notes());
        for (int i = 0; i < data.results().size(); i++) {
            assertEquals(data.results().get(i).point(), again.results().get(i).point());
            assertEquals(data.results().get(i).iops(), again.results().get(i).iops());
            assertEquals(data.results().get(i).p999Nanos(), again.results().get(i).p999Nanos());
        }
        assertEquals(json, ReportJson.write(again));
        assertTrue(json.contains("\"iops\": 247376.376376"), "numbers exactly as the run printed them");
    }

    @Test
    void aRunWithoutOutputKeepsItsNote() {
        SweepPoint p = new SweepPoint(ReportEngine.FIO_LIBAIO, true, "4k", 8);
        ReportData data = new ReportData(java.util.Map.of(), java.util.List.of(), java.util.List.of(SweepResult.failed(p, "timed out after 130 s")));
        SweepResult back = ReportJson.read(ReportJson.write(data)).results().getFirst();
        assertEquals(p, back.point());
        assertEquals("timed out after 130 s", back.note());
    }

    @Test
    void otherJsonIsRefusedWithAReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReportJson.read("{\"jobs\": []}"));
        assertEquals("not a jring report's JSON (no \"jring report\": 1)", e.getMessage());
    }
}
