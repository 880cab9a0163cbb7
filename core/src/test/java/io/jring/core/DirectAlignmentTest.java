package io.jring.core;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** O_DIRECT alignment is checked before the device: -EINVAL, and the ReqFailed event says which rule. */
@Timeout(30)
class DirectAlignmentTest {
    @TempDir Path dir;

    @Test
    void misalignedAddressLengthAndOffsetFailWithTheirReasonAndAlignedOnesPass() throws Exception {
        Path f = dir.resolve("a");
        Files.write(f, new byte[64 * 1024]);
        Path out = dir.resolve("r.jfr");
        Map<Long, String> reasons = new HashMap<>();
        int fd = Fds.open(f, OpenFlags.RDWR | OpenFlags.DIRECT, 0);
        try (Recording r = new Recording()) {
            r.enable("jring.ReqFailed");
            r.start();
            try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofShared()) {
                MemorySegment base = arena.allocate(3 * 4096, 4096);
                ring.getSqe().prepRead(fd, base.asSlice(1, 4096), 0).userData(1);       // address
                ring.getSqe().prepRead(fd, base.asSlice(0, 4095), 0).userData(2);       // length
                ring.getSqe().prepWrite(fd, base.asSlice(0, 4096), 100).userData(3);    // offset
                ring.getSqe().prepRead(fd, base.asSlice(4096, 4096), 8192).userData(4); // aligned
                ring.submitAndWait(4);
                for (int i = 0; i < 4; i++) {
                    Cqe c = ring.waitCqe();
                    assertEquals(c.userData() == 4 ? 4096 : -Errno.EINVAL, c.res(), "request " + c.userData());
                    ring.cqeSeen(c);
                }
            }
            r.stop();
            r.dump(out);
        } finally {
            Fds.close(fd);
        }
        for (RecordedEvent e : RecordingFile.readAllEvents(out)) {
            reasons.put(e.getLong("userData"), e.getString("reason"));
        }
        assertTrue(reasons.get(1L).contains("buffer address"), reasons.toString());
        assertTrue(reasons.get(2L).contains("length 4095"), reasons.toString());
        assertTrue(reasons.get(3L).contains("file offset 100"), reasons.toString());
        assertFalse(reasons.containsKey(4L), reasons.toString());
    }
}
