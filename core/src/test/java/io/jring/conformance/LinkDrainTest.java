package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.BAD_FD;
import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.segment;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.writeLater;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
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
 * IOSQE_IO_DRAIN with and without links (liburing test/link_drain.c): a drained request
 * starts only after everything submitted before it has completed, and nothing submitted
 * after it starts before it; a drain flag on a chain member holds the whole chain. Even an
 * ASYNC_CANCEL submitted after a pending drain waits behind it.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LinkDrainTest {
    @TempDir
    Path dir;

    /** link_drain.c's "one": a write, then NOP -> NOP(drain) -> NOP chained, then a NOP. */
    private static void prepDrainInsideAChain(IoUring ring, int file, MemorySegment data, long base) {
        sqe(ring).prepWrite(file, data, 0).userData(base);
        sqe(ring).prepNop().userData(base + 1).flags(SqeFlags.IO_LINK);
        sqe(ring).prepNop().userData(base + 2).flags(SqeFlags.IO_LINK | SqeFlags.IO_DRAIN);
        sqe(ring).prepNop().userData(base + 3);
        sqe(ring).prepNop().userData(base + 4);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDrainInsideAChainKeepsEverythingInSubmissionOrder(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "");
            MemorySegment data = segment(arena, "hello");
            for (int round = 0; round < 50; round++) {
                long base = 10L * round;
                prepDrainInsideAChain(ring, file, data, base);
                assertEquals(5, ring.submit());
                assertEquals(List.of(cqe(base, 5), cqe(base + 1, 0), cqe(base + 2, 0), cqe(base + 3, 0),
                        cqe(base + 4, 0)), next(ring, 5), "round " + round);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void twoChainsWithDrainsKeepEverythingInSubmissionOrder(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "");
            MemorySegment hello = segment(arena, "hello");
            MemorySegment world = segment(arena, "world");
            for (int round = 0; round < 50; round++) {
                sqe(ring).prepWrite(file, hello, 0).userData(0);
                sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
                sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_LINK | SqeFlags.IO_DRAIN);
                sqe(ring).prepNop().userData(3);
                sqe(ring).prepNop().userData(4).flags(SqeFlags.IO_LINK);
                sqe(ring).prepNop().userData(5).flags(SqeFlags.IO_LINK);
                sqe(ring).prepWrite(file, world, 5).userData(6).flags(SqeFlags.IO_LINK | SqeFlags.IO_DRAIN);
                sqe(ring).prepNop().userData(7);
                sqe(ring).prepNop().userData(8);
                assertEquals(9, ring.submit());
                assertEquals(List.of(cqe(0, 5), cqe(1, 0), cqe(2, 0), cqe(3, 0), cqe(4, 0), cqe(5, 0), cqe(6, 5),
                        cqe(7, 0), cqe(8, 0)), next(ring, 9), "round " + round);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDrainWaitsForAPendingReadAndLaterSqesWaitForTheDrain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_DRAIN);
            sqe(ring).prepNop().userData(3);
            assertEquals(3, ring.submit());
            assertQuiet(ring);
            try (Later<Void> w = writeLater(p[1], "hey")) {
                assertEquals(List.of(cqe(1, 3), cqe(2, 0), cqe(3, 0)), next(ring, 3));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDrainOnAChainHeadHoldsTheWholeChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_LINK | SqeFlags.IO_DRAIN);
            sqe(ring).prepNop().userData(3);
            assertEquals(3, ring.submit());
            assertQuiet(ring);
            try (Later<Void> w = writeLater(p[1], "x")) {
                assertEquals(List.of(cqe(1, 1), cqe(2, 0), cqe(3, 0)), next(ring, 3));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDrainWaitsForAnEarlierTimeout(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(30 * MS, 0, 0).userData(1);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_DRAIN);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.ETIME), cqe(2, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDrainAfterAFailedChainRunsAfterItsCancellations(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            sqe(ring).prepNop().userData(3).flags(SqeFlags.IO_DRAIN);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.EBADF), cancelled(2), cqe(3, 0)), next(ring, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aCancelSubmittedAfterAPendingDrainWaitsBehindIt(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_DRAIN);
            assertEquals(2, ring.submit());
            sqe(ring).prepCancel(2, 0).userData(3);
            sqe(ring).prepPollRemove(1).userData(4);
            assertEquals(2, ring.submit());
            assertQuiet(ring);
            try (Later<Void> w = writeLater(p[1], "x")) {
                List<Completion> got = next(ring, 4);
                assertEquals(List.of(cqe(1, 1), cqe(2, 0), cqe(3, -Errno.ENOENT), cqe(4, -Errno.ENOENT)), got,
                        "the cancel and the remove ran only after the drain, when their targets were done");
            }
        }
    }
}
