package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.NEVER;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.byUserData;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.submitAndNext;
import static io.jring.conformance.ConformanceSupport.writeLater;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cancel;
import io.jring.Errno;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.Poll;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_ASYNC_CANCEL (liburing test/io-cancel.c): by user data it cancels one matching
 * request (0; the target -ECANCELED) or finds none (-ENOENT); it reaches reads waiting for
 * data, polls, timeouts, requests in io-wq (queued: 0; running and not interruptible:
 * -EALREADY, and the request completes normally), and the head of a chain (the chain is
 * cancelled); not a request still waiting for its link, nor another ring's requests.
 * {@link Cancel#ALL} cancels every match and returns how many (0 when none: never -ENOENT).
 * In Linux {@link Cancel#ANY} implies ALL: it cancels every request and returns the count.
 * {@link Cancel#FD} matches by descriptor: one request, or all of them with ALL.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class IoCancelTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void cancelsAReadWaitingForData(int setup) {
        for (int flags : new int[] {0, SqeFlags.ASYNC}) {
            try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
                int[] p = fds.pipe();
                sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(flags);
                ring.submit();
                // (long enough for io-wq to hand an ASYNC read to poll: cancelled while running
                // there it would be -EALREADY)
                assertEquals(null, ring.waitCqe(java.time.Duration.ofMillis(100)));
                sqe(ring).prepCancel(1, 0).userData(2);
                ring.submit();
                assertAnyOrder(List.of(cancelled(1), cqe(2, 0)), next(ring, 2));
                assertQuiet(ring);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anUnknownOrCompletedRequestIsEnoent(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepCancel(77, 0).userData(2);
            assertEquals(cqe(2, -Errno.ENOENT), submitAndNext(ring));
            sqe(ring).prepNop().userData(3);
            assertEquals(cqe(3, 0), submitAndNext(ring));
            sqe(ring).prepCancel(3, 0).userData(4);
            assertEquals(cqe(4, -Errno.ENOENT), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void allCancelsEveryRequestWithTheUserDataAndCountsThem(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p0 = fds.pipe();
            int[] p1 = fds.pipe();
            sqe(ring).prepRead(p0[0], arena.allocate(8), -1).userData(5);
            sqe(ring).prepRead(p0[0], arena.allocate(8), -1).userData(5);
            sqe(ring).prepPollAdd(p1[0], Poll.IN).userData(5);
            sqe(ring).prepRead(p1[0], arena.allocate(8), -1).userData(6);
            assertEquals(4, ring.submit());
            sqe(ring).prepCancel(5, Cancel.ALL).userData(9);
            ring.submit();
            assertAnyOrder(List.of(cancelled(5), cancelled(5), cancelled(5), cqe(9, 3)), next(ring, 4));
            assertQuiet(ring);
            sqe(ring).prepCancel(5, Cancel.ALL).userData(10);
            assertEquals(cqe(10, 0), submitAndNext(ring), "ALL with nothing left to cancel counts 0");
            try (Later<Void> w = writeLater(p1[1], "z")) {
                assertEquals(cqe(6, 1), next(ring), "the request with another user data is untouched");
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anyCancelsEveryRequestAndCountsThemWithOrWithoutAll(int setup) {
        for (int flags : new int[] {Cancel.ANY, Cancel.ANY | Cancel.ALL}) {
            try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
                int[] p0 = fds.pipe();
                int[] p1 = fds.pipe();
                sqe(ring).prepRead(p0[0], arena.allocate(8), -1).userData(1);
                sqe(ring).prepRead(p0[0], arena.allocate(8), -1).userData(2);
                sqe(ring).prepPollAdd(p1[0], Poll.IN).userData(3);
                sqe(ring).prepTimeout(NEVER, 0, 0).userData(4);
                assertEquals(4, ring.submit());
                sqe(ring).prepCancel(0, flags).userData(9);
                ring.submit();
                assertAnyOrder(List.of(cancelled(1), cancelled(2), cancelled(3), cancelled(4), cqe(9, 4)),
                        next(ring, 5));
                sqe(ring).prepCancel(0, flags).userData(10);
                assertEquals(cqe(10, 0), submitAndNext(ring), "nothing left: 0, not -ENOENT");
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void fdWithoutAllCancelsOneRequestOnTheDescriptorPerCall(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(2);
            assertEquals(2, ring.submit());
            sqe(ring).prepCancelFd(p[0], 0).userData(9);
            ring.submit();
            List<Completion> first = next(ring, 2);
            assertTrue(first.contains(cqe(9, 0)), first.toString());
            long gone = first.stream().filter(c -> c.userData() != 9).findFirst().orElseThrow().userData();
            assertTrue(first.contains(cancelled(gone)) && (gone == 1 || gone == 2), first.toString());
            assertQuiet(ring);
            sqe(ring).prepCancelFd(p[0], 0).userData(10);
            ring.submit();
            assertAnyOrder(List.of(cancelled(3 - gone), cqe(10, 0)), next(ring, 2));
            sqe(ring).prepCancelFd(p[0], 0).userData(11);
            assertEquals(cqe(11, -Errno.ENOENT), submitAndNext(ring));
            sqe(ring).prepCancelFd(p[0], Cancel.ALL).userData(12);
            assertEquals(cqe(12, 0), submitAndNext(ring), "FD|ALL with nothing to cancel counts 0");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void fdAllCancelsTheRequestsOnThatDescriptorOnly(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p0 = fds.pipe();
            int[] p1 = fds.pipe();
            sqe(ring).prepRead(p0[0], arena.allocate(8), -1).userData(1);
            sqe(ring).prepPollAdd(p0[0], Poll.IN).userData(2);
            sqe(ring).prepRead(p1[0], arena.allocate(8), -1).userData(3);
            assertEquals(3, ring.submit());
            sqe(ring).prepCancelFd(p0[0], Cancel.ALL).userData(9);
            ring.submit();
            assertAnyOrder(List.of(cancelled(1), cancelled(2), cqe(9, 2)), next(ring, 3));
            try (Later<Void> w = writeLater(p1[1], "x")) {
                assertEquals(cqe(3, 1), next(ring));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void cancelsATimeoutAndAPoll(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(1);
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(2);
            assertEquals(2, ring.submit());
            sqe(ring).prepCancel(1, 0).userData(3);
            sqe(ring).prepCancel(2, 0).userData(4);
            assertEquals(2, ring.submit());
            assertAnyOrder(List.of(cancelled(1), cancelled(2), cqe(3, 0), cqe(4, 0)), next(ring, 4));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void cancellingTheHeadOfAChainCancelsTheChain(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            sqe(ring).prepCancel(1, 0).userData(3);
            ring.submit();
            List<Completion> got = next(ring, 3);
            assertEquals(Map.of(1L, cancelled(1), 2L, cancelled(2), 3L, cqe(3, 0)), byUserData(got));
            assertEquals(cancelled(2), got.get(2), "the rest of the chain after its head: " + got);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aRequestWaitingForItsLinkIsNotFound(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            sqe(ring).prepCancel(2, 0).userData(3);
            assertEquals(cqe(3, -Errno.ENOENT), submitAndNext(ring));
            try (Later<Void> w = writeLater(p[1], "12345678")) {
                assertEquals(List.of(cqe(1, 8), cqe(2, 0)), next(ring, 2));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aCancelDoesNotReachAnotherRingsRequests(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); IoUring other = ring(setup);
                Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
            ring.submit();
            sqe(other).prepCancel(1, 0).userData(2);
            assertEquals(cqe(2, -Errno.ENOENT), submitAndNext(other));
            sqe(other).prepCancel(0, Cancel.ANY).userData(3);
            assertEquals(cqe(3, 0), submitAndNext(other));
            assertQuiet(ring);
            try (Later<Void> w = writeLater(p[1], "x")) {
                assertEquals(cqe(1, 1), next(ring));
            }
        }
    }

    /**
     * io-cancel.c's exit tests, in jring's terms: close() with reads waiting for data, chains
     * waiting on them, a linked timeout, timers, a multishot poll, an ASYNC read, a drain and
     * what waits behind it, cancels them all at once (it does not wait for the timers), and
     * every later use of the ring is EBADFD; a second close is a no-op.
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void closeEndsEverythingInFlightAtOnce(int setup) {
        try (OpenFds fds = new OpenFds(); Arena arena = Arena.ofShared()) {
            int[] p = fds.pipe();
            int[] q = fds.pipe();
            IoUring ring = ring(setup);
            try {
                sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(1);
                sqe(ring).prepRead(q[0], arena.allocate(8), -1).userData(2).flags(SqeFlags.IO_LINK);
                sqe(ring).prepNop().userData(3);
                sqe(ring).prepRead(q[0], arena.allocate(8), -1).userData(4).flags(SqeFlags.IO_LINK);
                sqe(ring).prepLinkTimeout(NEVER, 0).userData(5);
                sqe(ring).prepTimeout(NEVER, 0, 0).userData(6);
                sqe(ring).prepTimeout(NEVER, 5, 0).userData(7);
                sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(8);
                sqe(ring).prepRead(p[0], arena.allocate(8), -1).userData(9).flags(SqeFlags.ASYNC);
                sqe(ring).prepNop().userData(10).flags(SqeFlags.IO_DRAIN);
                sqe(ring).prepNop().userData(11);
                assertEquals(11, ring.submit());
                assertQuiet(ring);
            } finally {
                long start = System.nanoTime();
                ring.close();
                assertTrue(System.nanoTime() - start < NEVER / 5, "close waited for the timers");
            }
            assertEquals(Errno.EBADFD, assertThrows(IoUringException.class, ring::submit).errno());
            ring.close();
        }
    }

    /**
     * io-cancel.c's main test: file reads in io-wq (ASYNC) cancelled while some are queued,
     * some running, some done. Each read completes exactly once and agrees with its cancel:
     * 0 -> the read is -ECANCELED (or -EINTR, interrupted while running); -EALREADY -> it was
     * running and completes normally (or -EINTR); -ENOENT -> it had completed normally.
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void cancelsOfInFlightFileReadsAgreeWithTheirReads(int setup) {
        int bs = 4096;
        int n = 32;
        try (OpenFds fds = new OpenFds(); IoUring ring = IoUring.builder().entries(128).flags(setup).build();
                Arena arena = Arena.ofConfined()) {
            int file = fds.file(dir, "x".repeat(bs * n));
            SplittableRandom rnd = new SplittableRandom(42);
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < n; i++) {
                    sqe(ring).prepRead(file, arena.allocate(bs), (long) bs * rnd.nextInt(n)).userData(i + 1)
                            .flags(SqeFlags.ASYNC);
                }
                assertEquals(n, ring.submit());
                for (int i = 0; i < n; i++) {
                    sqe(ring).prepCancel(i + 1, 0).userData(1000 + i + 1);
                }
                assertEquals(n, ring.submit());
                Map<Long, Completion> got = byUserData(next(ring, 2 * n));
                for (int i = 1; i <= n; i++) {
                    Completion read = got.get((long) i);
                    Completion cancel = got.get(1000L + i);
                    int c = cancel.res();
                    int r = read.res();
                    boolean ok = switch (-c) {
                        case 0 -> r == -Errno.ECANCELED || r == -Errno.EINTR;
                        case Errno.EALREADY -> r == bs || r == -Errno.EINTR;
                        case Errno.ENOENT -> r == bs;
                        default -> false;
                    };
                    assertTrue(ok, "read " + read + " does not agree with its cancel " + cancel);
                }
                assertQuiet(ring);
            }
        }
    }
}
