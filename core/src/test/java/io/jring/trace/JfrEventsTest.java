package io.jring.trace;

import io.jring.IoUring;
import io.jring.SqeFlags;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The engine's JFR events (the kernel's io_uring tracepoints) reach a recording that enables them. */
@Timeout(30)
class JfrEventsTest {
    @TempDir Path dir;

    @Test
    void enabledEventsAreRecordedForSubmitTaskWorkCompletionAndFailure() throws Exception {
        Path out = dir.resolve("r.jfr");
        try (Recording r = new Recording()) {
            for (String e : List.of("jring.SubmitSqe", "jring.TaskAdd", "jring.TaskWorkRun", "jring.Complete",
                    "jring.ReqFailed", "jring.CqeOverflow")) {
                r.enable(e);
            }
            r.start();
            try (IoUring ring = IoUring.builder().entries(4).cqEntries(4).build()) {
                ring.getSqe().prepNop().userData(1);
                ring.getSqe().prepNop().userData(2).flags(SqeFlags.ASYNC);
                ring.getSqe().opcode(200).userData(3);
                ring.submit();
                for (int i = 0; i < 4; i++) {
                    ring.getSqe().prepNop().userData(10 + i);
                }
                ring.submit();
                int seen = 0;
                while (seen < 7) {
                    ring.cqeSeen(ring.waitCqe());
                    seen++;
                }
            }
            r.stop();
            r.dump(out);
        }
        Map<String, Integer> counts = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(out)) {
            counts.merge(e.getEventType().getName(), 1, Integer::sum);
        }
        assertTrue(counts.getOrDefault("jring.SubmitSqe", 0) >= 7, counts.toString());
        assertTrue(counts.getOrDefault("jring.Complete", 0) >= 7, counts.toString());
        assertTrue(counts.getOrDefault("jring.TaskAdd", 0) >= 1, counts.toString());
        assertTrue(counts.getOrDefault("jring.TaskWorkRun", 0) >= 1, counts.toString());
        assertTrue(counts.getOrDefault("jring.ReqFailed", 0) >= 1, counts.toString());
        assertTrue(counts.getOrDefault("jring.CqeOverflow", 0) >= 1, counts.toString());
    }
}
