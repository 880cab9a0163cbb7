package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.BAD_FD;
import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.NEVER;
import static io.jring.conformance.ConformanceSupport.QUIET;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IOSQE_CQE_SKIP_SUCCESS (liburing test/skip-cqe.c): a success with the flag posts nothing, a
 * failure posts anyway; inside a chain a skipped success still lets the chain go on. When a
 * member that carries the flag fails, the members it cancels post nothing at all (even those
 * without the flag); when the failing member has no flag, cancelled members post -ECANCELED
 * even with it. A linked timeout with the flag posts nothing, neither when its request
 * finishes first (-ECANCELED) nor when it expires (-ETIME); its request's -ECANCELED posts.
 * Once a ring has seen the flag, Linux refuses IOSQE_IO_DRAIN on it for good (-EOPNOTSUPP,
 * before issue: the submit ends there).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SkipCqeTest {
    private static final int LINK_SIZE = 6;
    private static final long TIMEOUT_UD = -1L;

    /** A request that is accepted by the submit but fails when issued: a write to a bad fd. */
    private static Sqe prepFailing(IoUring ring, Arena arena) {
        return sqe(ring).prepWrite(BAD_FD, arena.allocate(8), 0);
    }

    static Stream<Arguments> ringKindsAndSizes() {
        return ConformanceSupport.ringKinds().flatMap(k -> Stream.of(Arguments.of(k, 1), Arguments.of(k, LINK_SIZE)));
    }

    @ParameterizedTest(name = "setup 0x{0}, {1} SQEs")
    @MethodSource("ringKindsAndSizes")
    void aChainOfSkippedSuccessesPostsOnlyItsLastCqe(int setup, int size) {
        try (IoUring ring = ring(setup)) {
            for (int i = 0; i < size; i++) {
                sqe(ring).prepNop().userData(i)
                        .flags(i == size - 1 ? 0 : SqeFlags.IO_LINK | SqeFlags.CQE_SKIP_SUCCESS);
            }
            assertEquals(size, ring.submit());
            assertEquals(cqe(size - 1, 0), next(ring));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}, {1} SQEs")
    @MethodSource("ringKindsAndSizes")
    void aChainSkippingEverySuccessPostsNothing(int setup, int size) {
        try (IoUring ring = ring(setup)) {
            for (int i = 0; i < size; i++) {
                sqe(ring).prepNop().userData(i).flags(SqeFlags.IO_LINK | SqeFlags.CQE_SKIP_SUCCESS);
            }
            assertEquals(size, ring.submit());
            assertQuiet(ring);
            sqe(ring).prepNop().userData(99);
            ring.submit();
            assertEquals(cqe(99, 0), next(ring), "the only CQE is the marker's");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aFailingMemberWithSkipPostsItsFailureAndHidesTheCancelledRest(int setup) {
        for (int failIndex : new int[] {LINK_SIZE / 2, LINK_SIZE - 1}) {
            try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
                for (int i = 0; i < LINK_SIZE; i++) {
                    Sqe sqe = i == failIndex ? prepFailing(ring, arena) : sqe(ring).prepNop();
                    sqe.userData(i).flags(i == LINK_SIZE - 1 ? 0 : SqeFlags.IO_LINK | SqeFlags.CQE_SKIP_SUCCESS);
                }
                assertEquals(LINK_SIZE, ring.submit());
                assertEquals(cqe(failIndex, -Errno.EBADF), next(ring), "failing member " + failIndex);
                assertQuiet(ring);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void cancelledMembersPostEvenWithSkipWhenTheFailureHasNone(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepNop().userData(0).flags(SqeFlags.IO_LINK | SqeFlags.CQE_SKIP_SUCCESS);
            prepFailing(ring, arena).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_LINK | SqeFlags.CQE_SKIP_SUCCESS);
            sqe(ring).prepNop().userData(3);
            assertEquals(4, ring.submit());
            assertEquals(List.of(cqe(1, -Errno.EBADF), cancelled(2), cancelled(3)), next(ring, 3));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aStandaloneFailureWithSkipPosts(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            prepFailing(ring, arena).userData(7).flags(SqeFlags.CQE_SKIP_SUCCESS);
            ring.submit();
            assertEquals(cqe(7, -Errno.EBADF), next(ring));
        }
    }

    /** skip-cqe.c's test_ltimeout_cancel: (setup, chain size, index the link timeout follows, ASYNC, failing index). */
    static Stream<Arguments> linkTimeoutCancelCases() {
        int mid = LINK_SIZE / 2;
        int last = LINK_SIZE - 1;
        List<Arguments> out = new ArrayList<>();
        for (int setup : new int[] {0, ConformanceSupport.DEFER}) {
            for (boolean async : new boolean[] {false, true}) {
                out.add(Arguments.of(setup, 1, 0, async, -1));
                out.add(Arguments.of(setup, LINK_SIZE, mid, async, -1));
                out.add(Arguments.of(setup, LINK_SIZE, last, async, -1));
                out.add(Arguments.of(setup, LINK_SIZE, mid, async, mid));
                out.add(Arguments.of(setup, LINK_SIZE, mid, async, mid - 1));
                out.add(Arguments.of(setup, LINK_SIZE, mid, async, mid + 1));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "setup 0x{0}, {1} SQEs, timeout after {2}, async {3}, failing {4}")
    @MethodSource("linkTimeoutCancelCases")
    void aLinkedTimeoutWithSkipDisarmedOrCancelledPostsNothing(int setup, int size, int timeoutAfter, boolean async,
            int failIndex) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < size; i++) {
                Sqe sqe = i == failIndex ? prepFailing(ring, arena) : sqe(ring).prepNop();
                int flags = SqeFlags.IO_LINK | (async ? SqeFlags.ASYNC : 0)
                        | (i == size - 1 ? 0 : SqeFlags.CQE_SKIP_SUCCESS);
                sqe.userData(i).flags(flags);
                if (i == timeoutAfter) {
                    sqe(ring).prepLinkTimeout(1000 * MS, 0).userData(TIMEOUT_UD)
                            .flags(SqeFlags.IO_LINK | SqeFlags.CQE_SKIP_SUCCESS);
                }
            }
            assertEquals(size + 1, ring.submit());
            Completion want = failIndex >= 0 ? cqe(failIndex, -Errno.EBADF) : cqe(size - 1, 0);
            assertEquals(want, next(ring));
            assertQuiet(ring);
        }
    }

    /** skip-cqe.c's test_ltimeout_fire: (setup, ASYNC, skip on the read, skip on the timeout). */
    static Stream<Arguments> linkTimeoutFireCases() {
        List<Arguments> out = new ArrayList<>();
        for (int setup : new int[] {0, ConformanceSupport.DEFER}) {
            for (int i = 0; i < 8; i++) {
                out.add(Arguments.of(setup, (i & 1) != 0, (i & 2) != 0, (i & 4) != 0));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "setup 0x{0}, async {1}, skip read {2}, skip timeout {3}")
    @MethodSource("linkTimeoutFireCases")
    void anExpiringLinkedTimeoutWithSkipPostsNothingButItsReadDoes(int setup, boolean async, boolean skipRead,
            boolean skipTimeout) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment buf = arena.allocate(1);
            sqe(ring).prepRead(p[0], buf, -1).userData(0).flags(SqeFlags.IO_LINK
                    | (async ? SqeFlags.ASYNC : 0) | (skipRead ? SqeFlags.CQE_SKIP_SUCCESS : 0));
            sqe(ring).prepLinkTimeout(MS, 0).userData(1).flags(skipTimeout ? SqeFlags.CQE_SKIP_SUCCESS : 0);
            assertEquals(2, ring.submit());
            List<Completion> got = new ArrayList<>(next(ring, skipTimeout ? 1 : 2));
            while (got.stream().noneMatch(c -> c.userData() == 0)) {
                got.add(next(ring));   // the timeout's failure came first (see below)
            }
            Completion read = got.stream().filter(c -> c.userData() == 0).findFirst().orElseThrow();
            if (skipTimeout && got.size() == 1 && async && read.res() == -Errno.EINTR) {
                Cqe late = ring.waitCqe(QUIET);
                if (late != null) {
                    got.add(new Completion(late.userData(), late.res(), late.flags()));
                    ring.cqeSeen(late);
                }
            }
            // -EINTR: an ASYNC read caught running in io-wq is interrupted, not cancelled; the
            // timeout may then say -EALREADY (Linux, when its cancel finds the read running),
            // which is a failure, so it is posted even with CQE_SKIP_SUCCESS. A read caught
            // between its worker and its poll (it got EAGAIN, its arming is on its way) is
            // also "running" to the cancel, and ends -ECANCELED when it arrives, with the
            // timeout's -EALREADY (where Linux would leave it armed).
            boolean already = async && got.stream().anyMatch(c -> c.userData() == 1 && c.res() == -Errno.EALREADY);
            Completion wantRead = async && read.res() == -Errno.EINTR ? cqe(0, -Errno.EINTR) : cancelled(0);
            if (already) {
                assertAnyOrder(List.of(wantRead, cqe(1, -Errno.EALREADY)), got);
            } else if (skipTimeout) {
                assertEquals(List.of(wantRead), got, "-ETIME of a linked timeout counts as success for the skip");
            } else {
                assertAnyOrder(List.of(wantRead, cqe(1, -Errno.ETIME)), got);
            }
            assertQuiet(ring);
        }
    }

    /** skip-cqe.c's test_hardlink: (setup, index that fails, index that skips, last one hardlinked too). */
    static Stream<Arguments> hardlinkCases() {
        List<Arguments> out = new ArrayList<>();
        for (int setup : new int[] {0, ConformanceSupport.DEFER}) {
            for (int fail = 0; fail < 3; fail++) {
                for (int skip = 0; skip < 3; skip++) {
                    out.add(Arguments.of(setup, fail * 3, skip * 3, false));
                    out.add(Arguments.of(setup, fail * 3, skip * 3, true));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "setup 0x{0}, failing {1}, skipping {2}, last hardlinked {3}")
    @MethodSource("hardlinkCases")
    void aHardlinkedChainPostsEveryFailureAndEveryUnskippedSuccessInOrder(int setup, int failIndex, int skipIndex,
            boolean hardlinkLast) {
        int size = 7;
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            List<Completion> want = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                Sqe sqe = i == failIndex ? prepFailing(ring, arena) : sqe(ring).prepNop();
                int flags = (i != size - 1 || hardlinkLast ? SqeFlags.IO_HARDLINK : 0)
                        | (i == skipIndex ? SqeFlags.CQE_SKIP_SUCCESS : 0);
                sqe.userData(i).flags(flags);
                if (i == failIndex) {
                    want.add(cqe(i, -Errno.EBADF));
                } else if (i != skipIndex) {
                    want.add(cqe(i, 0));
                }
            }
            assertEquals(size, ring.submit());
            assertEquals(want, next(ring, want.size()));
            ConformanceSupport.assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aLinkedTimeoutWithSkipOnAFinishingNopPostsNothing(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(0).flags(SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(1).flags(SqeFlags.CQE_SKIP_SUCCESS);
            assertEquals(2, ring.submit());
            assertEquals(cqe(0, 0), next(ring));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void onceTheRingHasSeenSkipADrainIsEopnotsupp(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.IO_DRAIN);
            assertEquals(cqe(1, 0), ConformanceSupport.submitAndNext(ring), "a drain before any skip is fine");
            sqe(ring).prepNop().userData(2).flags(SqeFlags.CQE_SKIP_SUCCESS);
            assertEquals(1, ring.submit());
            assertQuiet(ring);
            sqe(ring).prepNop().userData(3).flags(SqeFlags.IO_DRAIN);
            sqe(ring).prepNop().userData(4);
            assertEquals(1, ring.submit(), "the refused drain ends the submit");
            assertEquals(cqe(3, -Errno.EOPNOTSUPP), next(ring));
            assertEquals(1, ring.submit());
            assertEquals(cqe(4, 0), next(ring));
            sqe(ring).prepNop().userData(5).flags(SqeFlags.IO_DRAIN | SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(6);
            assertEquals(2, ring.submit(), "inside a chain the submit goes on");
            assertEquals(List.of(cqe(5, -Errno.EOPNOTSUPP), cancelled(6)), next(ring, 2));
        }
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(7).flags(SqeFlags.CQE_SKIP_SUCCESS | SqeFlags.IO_DRAIN);
            assertEquals(cqe(7, -Errno.EOPNOTSUPP), ConformanceSupport.submitAndNext(ring), "both on one SQE");
        }
    }
}
