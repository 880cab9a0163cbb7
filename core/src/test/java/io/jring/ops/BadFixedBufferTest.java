package io.jring.ops;

import static io.jring.ops.FileOps.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * READ_FIXED/WRITE_FIXED with a buffer that is not (inside) a registered one fail with
 * -EFAULT when issued, and submission goes on past them, as Linux 6.x, which imports the
 * registered buffer at issue. Checked on this machine's 6.18 with liburing: a bad fixed read
 * followed by NOPs, io_uring_submit() = all, CQEs -14 then 0s; in a chain NOP -> bad read ->
 * NOP the results are 0, -14, -125.
 */
@Timeout(20)
class BadFixedBufferTest {

    @TempDir
    Path dir;

    /** How the registration is set up, and which buffer/index the request names. */
    enum Case {
        INDEX_PAST_TABLE, RANGE_RUNS_PAST_BUFFER, RANGE_STARTS_BEFORE_BUFFER, OTHER_MEMORY,
        SPARSE_SLOT, NEGATIVE_INDEX, NONE_REGISTERED, UNREGISTERED
    }

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> all = Stream.builder();
        for (Case c : Case.values()) {
            for (boolean write : new boolean[] {false, true}) {
                all.add(Arguments.of(c, write, 0, 0));
                all.add(Arguments.of(c, write, SqeFlags.ASYNC, 0));
            }
            all.add(Arguments.of(c, false, 0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN));
        }
        return all.build();
    }

    @ParameterizedTest(name = "{0}, write {1}, sqe flags 0x{2}, setup 0x{3}")
    @MethodSource("cases")
    void failsWithEfaultWhenIssuedAndSubmissionGoesOn(Case c, boolean write, int sqeFlags, int setup) throws Exception {
        try (Descriptors fds = new Descriptors();
             IoUring ring = IoUring.builder().entries(8).flags(setup).build(); Arena arena = Arena.ofConfined()) {
            int fd = fds.add(Fds.open(file(), OpenFlags.RDWR, 0));
            MemorySegment registered = arena.allocate(4096, 4096);
            MemorySegment other = arena.allocate(4096, 4096);
            int index = 0;
            MemorySegment buf = registered.asSlice(0, 8);
            switch (c) {
                case INDEX_PAST_TABLE -> index = 1;
                case RANGE_RUNS_PAST_BUFFER -> buf = registered.asSlice(4090).reinterpret(10);
                case RANGE_STARTS_BEFORE_BUFFER -> buf = MemorySegment.ofAddress(registered.address() - 1).reinterpret(10);
                case OTHER_MEMORY -> buf = other.asSlice(0, 8);
                case SPARSE_SLOT -> index = 1;
                case NEGATIVE_INDEX -> index = -1;
                default -> { }
            }
            switch (c) {
                case SPARSE_SLOT -> ring.registerBuffers(new MemorySegment[] {registered, MemorySegment.NULL});
                case NONE_REGISTERED -> { }
                case UNREGISTERED -> {
                    ring.registerBuffers(new MemorySegment[] {registered});
                    ring.unregisterBuffers();
                }
                default -> ring.registerBuffers(new MemorySegment[] {registered});
            }
            Sqe sqe = ring.getSqe();
            if (write) {
                sqe.prepWriteFixed(fd, buf, 0, index);
            } else {
                sqe.prepReadFixed(fd, buf, 0, index);
            }
            sqe.userData(1).flags(sqeFlags);
            ring.getSqe().prepNop().userData(2);
            ring.getSqe().prepReadFixed(fd, registered.asSlice(0, 4), 0, 0).userData(3);
            assertEquals(3, ring.submit(), "every SQE is consumed");
            int good = c == Case.NONE_REGISTERED || c == Case.UNREGISTERED ? -Errno.EFAULT : 4;
            assertEquals(Map.of(1L, -Errno.EFAULT, 2L, 0, 3L, good), results(ring, 3));
        }
    }

    @Test
    void aBadBufferInAChainFailsWhenItsTurnComesAndCancelsTheRest() throws Exception {
        try (Descriptors fds = new Descriptors(); IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            int fd = fds.add(Fds.open(file(), OpenFlags.RDWR, 0));
            MemorySegment registered = arena.allocate(4096, 4096);
            ring.registerBuffers(new MemorySegment[] {registered});
            ring.getSqe().prepNop().userData(1).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepReadFixed(fd, registered.asSlice(0, 4), 0, 3).userData(2).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepNop().userData(3);
            assertEquals(3, ring.submit());
            assertEquals(Map.of(1L, 0, 2L, -Errno.EFAULT, 3L, -Errno.ECANCELED), results(ring, 3));
        }
    }

    private Path file() throws Exception {
        Path f = dir.resolve("data");
        Files.writeString(f, "0123456789");
        return f;
    }

}
