package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.BAD_FD;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.segment;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.submitAndNext;
import static io.jring.conformance.ConformanceSupport.writeLater;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Registered (fixed) files (liburing test/file-register.c): IOSQE_FIXED_FILE makes the fd
 * field an index into the ring's table. An empty slot (-1), an index past the table, or no
 * table at all give -EBADF when the request is issued. The table holds its own reference:
 * the descriptor may be closed, and a request in flight keeps its file even if its slot is
 * updated or the table unregistered. Registration errors are exceptions with Linux's errno:
 * a second table EBUSY, none to remove or update ENXIO, no files EINVAL, a bad descriptor
 * EBADF, an update past the end EINVAL.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FileRegisterTest {
    @TempDir
    Path dir;

    private static int errnoOf(Executable call) {
        return assertThrows(IoUringException.class, call).errno();
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReadAndAWriteThroughFixedFiles(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "0123456789");
            int[] p = fds.pipe();
            ring.registerFiles(new int[] {p[1], file, p[0]});
            MemorySegment buf = arena.allocate(10);
            sqe(ring).prepRead(1, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(1, 10), submitAndNext(ring));
            assertEquals("0123456789", ConformanceSupport.ascii(buf, 10));
            sqe(ring).prepWrite(0, segment(arena, "via slot 0"), -1).userData(2).flags(SqeFlags.FIXED_FILE);
            sqe(ring).prepRead(2, buf, -1).userData(3).flags(SqeFlags.FIXED_FILE);
            ring.submit();
            assertEquals(List.of(cqe(2, 10), cqe(3, 10)), next(ring, 2));
            assertEquals("via slot 0", ConformanceSupport.ascii(buf, 10));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anEmptySlotAnIndexPastTheTableOrNoTableIsEbadf(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment buf = arena.allocate(8);
            sqe(ring).prepRead(0, buf, -1).userData(1).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(1, -Errno.EBADF), submitAndNext(ring), "no table");
            ring.registerFiles(new int[] {-1, p[0]});
            sqe(ring).prepRead(0, buf, -1).userData(2).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(2, -Errno.EBADF), submitAndNext(ring), "sparse slot");
            sqe(ring).prepRead(5, buf, -1).userData(3).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(3, -Errno.EBADF), submitAndNext(ring), "past the table");
            sqe(ring).prepRead(1 << 20, buf, -1).userData(4).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(4, -Errno.EBADF), submitAndNext(ring), "far past the table");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void theTableKeepsAClosedDescriptorsFile(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            ring.registerFiles(new int[] {p[0]});
            fds.close(p[0]);
            sqe(ring).prepRead(0, arena.allocate(8), -1).userData(1).flags(SqeFlags.FIXED_FILE);
            ring.submit();
            assertQuiet(ring);
            try (Later<Void> w = writeLater(p[1], "abc")) {
                assertEquals(cqe(1, 3), next(ring));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void updateReplacesOrClearsASlot(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p0 = fds.pipe();
            int[] p1 = fds.pipe();
            ring.registerFiles(new int[] {p0[0], -1});
            ring.updateFiles(0, new int[] {p1[0]});
            MemorySegment buf = arena.allocate(8);
            sqe(ring).prepRead(0, buf, -1).userData(1).flags(SqeFlags.FIXED_FILE);
            ring.submit();
            try (Later<Void> w = writeLater(p1[1], "new")) {
                assertEquals(cqe(1, 3), next(ring), "slot 0 reads the second pipe now");
            }
            ring.updateFiles(1, new int[] {p0[0]});
            ring.updateFiles(0, new int[] {-1});
            sqe(ring).prepRead(0, buf, -1).userData(2).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(2, -Errno.EBADF), submitAndNext(ring), "slot 0 was cleared");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aRequestInFlightKeepsItsFileThroughUpdateAndUnregister(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            ring.registerFiles(new int[] {p[0], p[0]});
            sqe(ring).prepRead(0, arena.allocate(8), -1).userData(1).flags(SqeFlags.FIXED_FILE);
            sqe(ring).prepRead(1, arena.allocate(8), -1).userData(2).flags(SqeFlags.FIXED_FILE);
            ring.submit();
            assertQuiet(ring);
            ring.updateFiles(0, new int[] {-1});
            ring.unregisterFiles();
            fds.close(p[0]);
            Completion first;
            try (Later<Void> w = writeLater(p[1], "a")) {
                first = next(ring);
            }
            Completion second;
            try (Later<Void> w = writeLater(p[1], "b")) {
                second = next(ring);
            }
            ConformanceSupport.assertAnyOrder(List.of(cqe(1, 1), cqe(2, 1)), List.of(first, second));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void registrationErrorsCarryLinuxErrnos(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            assertEquals(Errno.ENXIO, errnoOf(ring::unregisterFiles), "nothing registered");
            assertEquals(Errno.ENXIO, errnoOf(() -> ring.updateFiles(0, new int[] {p[0]})), "no table to update");
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerFiles(new int[0])), "no files");
            assertEquals(Errno.EBADF, errnoOf(() -> ring.registerFiles(new int[] {p[0], BAD_FD})), "bad descriptor");
            ring.registerFiles(new int[] {p[0], p[1]});
            assertEquals(Errno.EBUSY, errnoOf(() -> ring.registerFiles(new int[] {p[0]})), "a table exists");
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.updateFiles(1, new int[] {p[0], p[1]})), "past the end");
            ring.unregisterFiles();
            assertEquals(Errno.ENXIO, errnoOf(ring::unregisterFiles), "unregistered already");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aLargeSparseTableCanBeFilledSlotBySlot(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "sparse");
            int[] table = new int[1000];
            Arrays.fill(table, -1);
            ring.registerFiles(table);
            ring.updateFiles(999, new int[] {file});
            sqe(ring).prepRead(999, arena.allocate(6), 0).userData(1).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(1, 6), submitAndNext(ring));
            sqe(ring).prepRead(998, arena.allocate(6), 0).userData(2).flags(SqeFlags.FIXED_FILE);
            assertEquals(cqe(2, -Errno.EBADF), submitAndNext(ring));
        }
    }
}
