package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.buffer;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The behaviours of liburing test/buf-ring.c, with the classic provided buffers jring has
 * (IORING_OP_PROVIDE_BUFFERS / REMOVE_BUFFERS and IOSQE_BUFFER_SELECT; registered buffer
 * rings are not in jring): reads take buffers in the order they were provided, a
 * re-provided buffer goes to the back, the CQE carries the buffer id, a read is capped at the
 * buffer's size, an empty group gives -ENOBUFS (which fails a link), REMOVE_BUFFERS returns
 * how many it removed (0 from an emptied group, -ENOENT for a group that never existed), and
 * PROVIDE_BUFFERS checks its arguments (count 0: -E2BIG; bids past 65535: -EINVAL).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BufRingTest {
    @TempDir
    Path dir;

    private static Sqe prepSelectRead(IoUring ring, int fd, int group) {
        return sqe(ring).prepRead(fd, null, -1).bufferGroup(group).flags(SqeFlags.BUFFER_SELECT);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void readsTakeBuffersInTheOrderProvidedAndTheDataLandsThere(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment region = arena.allocate(4 * 16);
            sqe(ring).prepProvideBuffers(region, 16, 4, 1, 0).userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
            String[] words = {"hello", "world!", "abc", "0123456789abcdef"};
            for (int bid = 0; bid < 4; bid++) {
                Fds.write(p[1], ascii(words[bid]));
                prepSelectRead(ring, p[0], 1).userData(10 + bid);
                assertEquals(cqe(10 + bid, words[bid].length(), buffer(bid)), submitAndNext(ring));
                assertEquals(words[bid], ConformanceSupport.ascii(region.asSlice(16L * bid), words[bid].length()));
            }
            Fds.write(p[1], ascii("x"));
            prepSelectRead(ring, p[0], 1).userData(20);
            assertEquals(cqe(20, -Errno.ENOBUFS), submitAndNext(ring), "all four are in use");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReprovidedBufferGoesToTheBack(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepProvideBuffers(arena.allocate(2 * 16), 16, 2, 4, 0).userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
            Fds.write(p[1], ascii("a"));
            prepSelectRead(ring, p[0], 4).userData(2);
            assertEquals(cqe(2, 1, buffer(0)), submitAndNext(ring));
            sqe(ring).prepProvideBuffers(arena.allocate(16), 16, 1, 4, 0).userData(3);
            assertEquals(cqe(3, 0), submitAndNext(ring));
            Fds.write(p[1], ascii("b"));
            prepSelectRead(ring, p[0], 4).userData(4);
            assertEquals(cqe(4, 1, buffer(1)), submitAndNext(ring));
            Fds.write(p[1], ascii("c"));
            prepSelectRead(ring, p[0], 4).userData(5);
            assertEquals(cqe(5, 1, buffer(0)), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReadIsCappedAtTheBufferSizeOrItsOwnLength(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "0123456789");
            MemorySegment region = arena.allocate(2 * 4);
            sqe(ring).prepProvideBuffers(region, 4, 2, 5, 3).userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
            prepSelectRead(ring, file, 5).userData(2);
            assertEquals(cqe(2, 4, buffer(3)), submitAndNext(ring), "the buffer holds 4");
            assertEquals("0123", ConformanceSupport.ascii(region, 4));
            prepSelectRead(ring, file, 5).len(2).userData(3);
            assertEquals(cqe(3, 2, buffer(4)), submitAndNext(ring), "the read asks for 2");
            assertEquals("45", ConformanceSupport.ascii(region.asSlice(4), 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anEmptyOrMissingGroupGivesEnobufsAndFailsTheLink(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            prepSelectRead(ring, p[0], 9).userData(1).flags(SqeFlags.BUFFER_SELECT | SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.ENOBUFS), cancelled(2)), next(ring, 2),
                    "no buffer: -ENOBUFS at once, even with no data yet");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void removeBuffersReturnsHowManyItRemoved(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepProvideBuffers(arena.allocate(4 * 16), 16, 4, 3, 0).userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
            sqe(ring).prepRemoveBuffers(3, 3).userData(2);
            assertEquals(cqe(2, 3), submitAndNext(ring));
            sqe(ring).prepRemoveBuffers(5, 3).userData(3);
            assertEquals(cqe(3, 1), submitAndNext(ring), "only one was left");
            sqe(ring).prepRemoveBuffers(1, 3).userData(4);
            assertEquals(cqe(4, 0), submitAndNext(ring), "the emptied group stays, with nothing in it");
            sqe(ring).prepRemoveBuffers(1, 99).userData(5);
            assertEquals(cqe(5, -Errno.ENOENT), submitAndNext(ring), "a group never provided");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void provideAndRemoveCheckTheirArguments(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(2 * 16);
            sqe(ring).prepProvideBuffers(region, 16, 0, 1, 0).userData(1);
            assertEquals(cqe(1, -Errno.E2BIG), submitAndNext(ring), "count 0");
            sqe(ring).prepProvideBuffers(region, 16, 2, 1, 65535).userData(2);
            assertEquals(cqe(2, -Errno.EINVAL), submitAndNext(ring), "bids 65535 and 65536");
            sqe(ring).prepRemoveBuffers(0, 1).userData(3);
            assertEquals(cqe(3, -Errno.EINVAL), submitAndNext(ring), "count 0");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void groupsAreIndependent(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepProvideBuffers(arena.allocate(16), 16, 1, 1, 10).userData(1);
            sqe(ring).prepProvideBuffers(arena.allocate(16), 16, 1, 2, 20).userData(2);
            ring.submit();
            assertEquals(List.of(cqe(1, 0), cqe(2, 0)), next(ring, 2));
            Fds.write(p[1], ascii("a"));
            prepSelectRead(ring, p[0], 2).userData(3);
            assertEquals(cqe(3, 1, buffer(20)), submitAndNext(ring));
            Fds.write(p[1], ascii("b"));
            prepSelectRead(ring, p[0], 2).userData(4);
            assertEquals(cqe(4, -Errno.ENOBUFS), submitAndNext(ring), "group 2 is empty");
            prepSelectRead(ring, p[0], 1).userData(5);
            assertEquals(cqe(5, 1, buffer(10)), submitAndNext(ring), "group 1 still has its buffer");
        }
    }
}
