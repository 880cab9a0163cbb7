package io.jring.trace;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Opcode;
import io.jring.SqeFlags;
import jdk.jfr.Configuration;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.SettingDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The engine's JFR events (the kernel's io_uring tracepoints) reach a recording that enables
 * them; with JFR's default settings only ReqFailed and CqeOverflow are on, and ReqFailed
 * fires for failures, never for outcomes the application asked for (docs/JFR.md).
 */
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

    private static final long BAD_FD = 0x3fff_ffff;

    /** Runs {@code work} on a fresh ring under JFR's "default" settings; the user data of every ReqFailed event. */
    private List<Long> reqFailedUnderDefaultSettings(Consumer<IoUring> work) throws Exception {
        Path out = dir.resolve("default.jfr");
        try (Recording r = new Recording(Configuration.getConfiguration("default"))) {
            r.start();
            try (IoUring ring = IoUring.builder().entries(16).build()) {
                work.accept(ring);
            }
            r.stop();
            r.dump(out);
        }
        List<Long> uds = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(out)) {
            if (e.getEventType().getName().equals("jring.ReqFailed")) {
                uds.add(e.getLong("userData"));
            }
        }
        return uds;
    }

    private static void reap(IoUring ring, int n) {
        for (int i = 0; i < n; i++) {
            ring.cqeSeen(ring.waitCqe());
        }
    }

    @Test
    void reqFailedIsNotRecordedForAnExpiredTimeout() throws Exception {
        List<Long> failed = reqFailedUnderDefaultSettings(ring -> {
            ring.getSqe().prepTimeout(1_000_000, 0, 0).userData(1);
            ring.submit();
            reap(ring, 1);
            try (Arena arena = Arena.ofConfined()) {
                ring.getSqe().prepRead((int) BAD_FD, arena.allocate(8), 0).userData(2);
                ring.submit();
                reap(ring, 1);
            }
        });
        assertEquals(List.of(2L), failed, "only the read of a bad descriptor failed");
    }

    @Test
    void reqFailedIsNotRecordedForCancellationsAndOtherAskedForOutcomes() throws Exception {
        int[] p = Fds.pipe();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(8);
            List<Long> failed = reqFailedUnderDefaultSettings(ring -> {
                ring.getSqe().prepRead(p[0], buf, -1).userData(1);            // cancelled: -ECANCELED
                ring.getSqe().prepTimeout(10_000_000_000L, 0, 0).userData(2);  // removed: -ECANCELED
                ring.submit();
                ring.getSqe().prepCancel(1, 0).userData(3);
                ring.getSqe().prepTimeoutRemove(2).userData(4);
                ring.getSqe().prepCancel(77, 0).userData(5);                   // nothing to cancel: -ENOENT
                ring.getSqe().prepTimeoutRemove(78).userData(6);               // -ENOENT
                ring.getSqe().prepPollRemove(79).userData(7);                  // -ENOENT
                ring.getSqe().prepRead(p[0], buf, -1).userData(8).flags(SqeFlags.IO_LINK);
                ring.getSqe().prepLinkTimeout(1_000_000, 0).userData(9);       // -ETIME, its read -ECANCELED
                ring.getSqe().prepRecv(p[0], buf, 0).userData(10);             // not a socket: fails
                ring.getSqe().prepTimeout(1_000_000, 0, 0).userData(11).flags(SqeFlags.IO_LINK);
                ring.getSqe().prepNop().userData(12);                          // cancelled by the failed link
                ring.submit();
                reap(ring, 12);
            });
            assertEquals(List.of(10L), failed, "only the RECV on a pipe failed (-ENOTSOCK)");
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @Test
    void onlyReqFailedAndCqeOverflowAreOnByDefaultAndBothAreThrottled() {
        Map<Class<? extends Event>, Boolean> defaults = Map.of(
                SubmitSqeEvent.class, false, TaskAddEvent.class, false, TaskWorkRunEvent.class, false,
                CompleteEvent.class, false, PollArmEvent.class, false, ReqFailedEvent.class, true,
                CqeOverflowEvent.class, true);
        defaults.forEach((type, on) -> {
            EventType t = EventType.getEventType(type);
            assertEquals(on.toString(), setting(t, "enabled"), t.getName());
            if (on) {
                assertEquals("100/s", setting(t, "throttle"), t.getName());
            }
        });
    }

    @Test
    void aFailureIsAnUnexpectedErrorOfTheOpNotAnOutcomeItWasAskedFor() {
        assertFalse(ReqFailedEvent.isFailure(Opcode.TIMEOUT, -Errno.ETIME, 0, false));
        assertTrue(ReqFailedEvent.isFailure(Opcode.TIMEOUT, -Errno.EINVAL, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.LINK_TIMEOUT, -Errno.EALREADY, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.READ, -Errno.ECANCELED, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.READ, -Errno.EINTR, 0, true));
        assertTrue(ReqFailedEvent.isFailure(Opcode.READ, -Errno.EINTR, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.RECV, -Errno.EAGAIN, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.ASYNC_CANCEL, -Errno.ENOENT, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.TIMEOUT_REMOVE, -Errno.ENOENT, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.POLL_REMOVE, -Errno.EALREADY, 0, false));
        assertFalse(ReqFailedEvent.isFailure(Opcode.RECV, -Errno.ENOBUFS, SqeFlags.BUFFER_SELECT, false));
        assertTrue(ReqFailedEvent.isFailure(Opcode.RECV, -Errno.ENOBUFS, 0, false));
        assertTrue(ReqFailedEvent.isFailure(Opcode.READ, -Errno.EBADF, 0, false));
        assertTrue(ReqFailedEvent.isFailure(Opcode.RECV, -Errno.ECONNREFUSED, 0, false));
    }

    private static String setting(EventType t, String name) {
        return t.getSettingDescriptors().stream().filter(d -> d.getName().equals(name))
                .map(SettingDescriptor::getDefaultValue).findFirst().orElse(null);
    }
}
