package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.BAD_FD;
import static io.jring.conformance.ConformanceSupport.BAD_OPCODE;
import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.assertNoCqe;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.byUserData;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.segment;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.userData;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IOSQE_IO_LINK and IOSQE_IO_HARDLINK (liburing test/link.c): a chain runs one request after
 * the other; a failure (a negative result, or a read or write that moved fewer bytes than
 * asked, including 0 at EOF) completes the rest of the chain with -ECANCELED; a hardlink
 * continues after a failure; a chain never spans two submits. A request that fails before it
 * is issued inside a chain (bad opcode) fails the whole chain: its head with -ECANCELED, the
 * bad SQE with its own error, the rest with -ECANCELED; the submit goes on past it unless it
 * was the chain's last SQE.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LinkTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aSingleLinkRunsBothInOrder(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, 0)), next(ring, 2));
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aChainOfThreeRunsInOrder(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(3);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, 0), cqe(3, 0)), next(ring, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void twoIndependentChainsEachKeepTheirOrder(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            sqe(ring).prepNop().userData(3).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(4);
            assertEquals(4, ring.submit());
            List<Completion> got = next(ring, 4);
            assertEquals(Map.of(1L, cqe(1, 0), 2L, cqe(2, 0), 3L, cqe(3, 0), 4L, cqe(4, 0)), byUserData(got));
            List<Long> order = userData(got);
            assertTrue(order.indexOf(1L) < order.indexOf(2L) && order.indexOf(3L) < order.indexOf(4L),
                    "each chain in its order: " + got);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFailedHeadCancelsTheRest(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepRemoveBuffers(10, 1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.ENOENT), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFailureInTheMiddleCancelsWhatFollows(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0).userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(3).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(4);
            assertEquals(4, ring.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, -Errno.EBADF), cancelled(3), cancelled(4)), next(ring, 4));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFailedChainDoesNotAffectAnIndependentOne(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            sqe(ring).prepNop().userData(3).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(4);
            assertEquals(4, ring.submit());
            List<Completion> got = next(ring, 4);
            assertEquals(Map.of(1L, cqe(1, -Errno.EBADF), 2L, cancelled(2), 3L, cqe(3, 0), 4L, cqe(4, 0)),
                    byUserData(got));
            List<Long> order = userData(got);
            assertTrue(order.indexOf(1L) < order.indexOf(2L) && order.indexOf(3L) < order.indexOf(4L),
                    "each chain in its order: " + got);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aShortFileReadBreaksTheChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "0123456789");
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepRead(file, buf, 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 10), cancelled(2)), next(ring, 2));
            assertEquals("0123456789", ConformanceSupport.ascii(buf, 10));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aShortPipeReadBreaksTheChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            Fds.write(p[1], ascii("abc"));
            sqe(ring).prepRead(p[0], arena.allocate(64), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 3), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReadAtEndOfFileReturnsZeroAndBreaksTheChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "abc");
            sqe(ring).prepRead(file, arena.allocate(8), 3).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 0), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFullReadKeepsTheChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "0123456789");
            sqe(ring).prepRead(file, arena.allocate(10), 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 10), cqe(2, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aLinkedReadSeesWhatTheWriteBeforeItWrote(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "");
            MemorySegment in = arena.allocate(5);
            sqe(ring).prepWrite(file, segment(arena, "hello"), 0).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepRead(file, in, 0).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 5), cqe(2, 5)), next(ring, 2));
            assertEquals("hello", ConformanceSupport.ascii(in, 5));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aPipeWriteThenReadInAChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment in = arena.allocate(4);
            sqe(ring).prepWrite(p[1], segment(arena, "ping"), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepRead(p[0], in, -1).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, 4), cqe(2, 4)), next(ring, 2));
            assertEquals("ping", ConformanceSupport.ascii(in, 4));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aHardlinkContinuesAfterAFailure(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0).userData(1).flags(SqeFlags.IO_HARDLINK);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0).userData(3).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(4);
            assertEquals(4, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.EBADF), cqe(2, 0), cqe(3, -Errno.EBADF), cancelled(4)), next(ring, 4),
                    "after the hardlink, a plain link breaks again");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void hardlinkedTimeoutsExpireAndTheChainGoesOn(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepTimeout(10 * MS, 0, 0).userData(1).flags(SqeFlags.IO_LINK | SqeFlags.IO_HARDLINK);
            sqe(ring).prepTimeout(15 * MS, 0, 0).userData(2).flags(SqeFlags.IO_HARDLINK);
            sqe(ring).prepNop().userData(3);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.ETIME), cqe(2, -Errno.ETIME), cqe(3, 0)), next(ring, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aChainEndsAtTheEndOfASubmit(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            assertEquals(1, ring.submit());
            assertEquals(cqe(1, 0), next(ring), "a dangling link runs at once: it waits for no later SQE");
            sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0).userData(2).flags(SqeFlags.IO_LINK);
            assertEquals(1, ring.submit());
            assertEquals(cqe(2, -Errno.EBADF), next(ring));
            sqe(ring).prepNop().userData(3);
            assertEquals(1, ring.submit());
            assertEquals(cqe(3, 0), next(ring), "the next submit starts a new chain");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anEarlyFailureInAChainStillPostsBothForSubmitAndWait(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepReadv(BAD_FD, new MemorySegment[] {arena.allocate(8)}, 0).userData(1)
                    .flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submitAndWait(2));
            assertEquals(List.of(cqe(1, -Errno.EBADF), cancelled(2)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anInvalidOpcodeInsideAChainFailsTheChainAndTheSubmitGoesOn(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().opcode(BAD_OPCODE).userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(3);
            sqe(ring).prepNop().userData(4);
            assertEquals(4, ring.submit(), "the bad SQE had IO_LINK: Linux keeps assembling the chain");
            List<Completion> got = next(ring, 4);
            assertEquals(Map.of(1L, cancelled(1), 2L, cqe(2, -Errno.EINVAL), 3L, cancelled(3), 4L, cqe(4, 0)),
                    byUserData(got), "the head is never issued; the bad SQE keeps its own error");
            List<Long> order = userData(got);
            assertTrue(order.indexOf(1L) < order.indexOf(2L) && order.indexOf(2L) < order.indexOf(3L),
                    "the failed chain completes in its order: " + got);
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anInvalidOpcodeEndingAChainEndsTheSubmit(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().opcode(BAD_OPCODE).userData(2);
            sqe(ring).prepNop().userData(3);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cancelled(1), cqe(2, -Errno.EINVAL)), next(ring, 2));
            assertEquals(1, ring.sqReady());
            assertEquals(1, ring.submit());
            assertEquals(cqe(3, 0), next(ring));
        }
    }
}
