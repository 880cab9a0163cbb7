package io.jring.net;

import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertErrno;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.assertQuiet;
import static io.jring.net.NetTestSupport.byUserData;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.later;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multishot IORING_OP_POLL_ADD (IORING_POLL_ADD_MULTI; liburing test/poll-mshot-update.c,
 * test/poll-many.c; kernel io_uring/poll.c io_poll_check_events). Linux's poll is edge
 * triggered by default: one CQE with {@link CqeFlags#MORE} per wakeup (a write), not one per
 * check while the fd stays readable; a hang-up does not end it; POLL_REMOVE ends it with
 * -ECANCELED and no MORE.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PollMultishotTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void multishotPollPostsOneCqeWithMorePerWakeupUntilRemoved(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(42);
            assertEquals(1, ring.submit());
            assertNoCqe(ring);

            try (Later<Void> w = later("writer", () -> Fds.write(p[1], ascii("a")))) {
                assertEquals(cqe(42, Poll.IN, CqeFlags.MORE), next(ring));
            }
            // Still readable, but no new wakeup: no new CQE.
            assertQuiet(ring);
            // A second write wakes it again even though the first byte was not read.
            Fds.write(p[1], ascii("b"));
            assertEquals(cqe(42, Poll.IN, CqeFlags.MORE), next(ring));
            assertEquals(2, Fds.read(p[0], new byte[16]));
            Fds.write(p[1], ascii("c"));
            assertEquals(cqe(42, Poll.IN, CqeFlags.MORE), next(ring));
            assertNoCqe(ring);

            sqe(ring).prepPollRemove(42).userData(43);
            ring.submit();
            // Linux posts the remove's CQE inline and the cancelled poll's through task work:
            // their order is not part of the contract.
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(43, 0), done.get(43L));
            assertEquals(cqe(42, -Errno.ECANCELED), done.get(42L), "the last CQE carries no MORE");

            Fds.write(p[1], ascii("d"));
            assertQuiet(ring);
            sqe(ring).prepPollRemove(42).userData(44);
            assertEquals(cqe(44, -Errno.ENOENT), submitAndNext(ring), "already removed");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void multishotPollOnAReadyFdPostsAtOnceThenWaitsForTheNextWakeup(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            Fds.write(s[1], ascii("x"));
            sqe(ring).prepPollMultishot(s[0], Poll.IN).userData(7);
            assertEquals(cqe(7, Poll.IN, CqeFlags.MORE), submitAndNext(ring));
            assertQuiet(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(s[1], ascii("y")))) {
                assertEquals(cqe(7, Poll.IN, CqeFlags.MORE), next(ring));
            }
            sqe(ring).prepPollRemove(7).userData(8);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(8, 0), done.get(8L));
            assertEquals(cqe(7, -Errno.ECANCELED), done.get(7L));
        }
    }

    /**
     * The readiness there at submit is taken at submit, as Linux's arm-time poll: a hang-up
     * right after the submit, before anyone waits, is a wakeup of its own and a second CQE
     * (Linux 6.18 with liburing: [POLLIN +MORE] then [POLLIN|POLLHUP +MORE]), not merged
     * into the first.
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void theReadinessThereAtSubmitAndAWakeupRightAfterAreTwoCqes(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            Fds.write(p[1], ascii("x"));
            sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(9);
            assertEquals(1, ring.submit());
            fds.close(p[1]);
            assertEquals(cqe(9, Poll.IN, CqeFlags.MORE), next(ring));
            assertEquals(cqe(9, Poll.IN | Poll.HUP, CqeFlags.MORE), next(ring));
            assertQuiet(ring);
            sqe(ring).prepPollRemove(9).userData(10);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(10, 0), done.get(10L));
            assertEquals(cqe(9, -Errno.ECANCELED), done.get(9L));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void multishotPollStaysArmedAfterThePeerHangsUp(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollMultishot(s[0], Poll.IN).userData(50);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> c = later("closer", () -> fds.close(s[1]))) {
                assertEquals(cqe(50, Poll.IN | Poll.RDHUP | Poll.HUP, CqeFlags.MORE), next(ring));
            }
            assertQuiet(ring);
            // Linux keeps it armed (MORE was set): only a removal ends it.
            sqe(ring).prepPollRemove(50).userData(51);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(51, 0), done.get(51L));
            assertEquals(cqe(50, -Errno.ECANCELED), done.get(50L));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void multishotPollWithCqeSkipSuccessIsEinval(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(4).flags(SqeFlags.CQE_SKIP_SUCCESS);
            Completion c = submitAndNext(ring);
            assertEquals(4, c.userData());
            assertErrno(Errno.EINVAL, c);
            assertEquals(0, c.flags());
            Fds.write(p[1], ascii("x"));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void multishotPollsOnManyPipesReportEachWrite(int setup) {
        int n = 16;
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[][] pipes = new int[n][];
            for (int i = 0; i < n; i++) {
                pipes[i] = fds.pipe();
                sqe(ring).prepPollMultishot(pipes[i][0], Poll.IN).userData(100 + i);
            }
            assertEquals(n, ring.submit());
            assertNoCqe(ring);
            for (int round = 0; round < 3; round++) {
                // Writes in reverse order from another thread; each pipe's poll fires once.
                try (Later<Void> w = later("writer", () -> {
                    for (int i = n - 1; i >= 0; i--) {
                        Fds.write(pipes[i][1], ascii("x"));
                    }
                })) {
                    Map<Long, Completion> got = byUserData(next(ring, n));
                    for (int i = 0; i < n; i++) {
                        assertEquals(cqe(100 + i, Poll.IN, CqeFlags.MORE), got.get(100L + i), "round " + round);
                    }
                }
                for (int i = 0; i < n; i++) {
                    assertEquals(1, Fds.read(pipes[i][0], new byte[4]));
                }
                assertNoCqe(ring);
            }
            for (int i = 0; i < n; i++) {
                sqe(ring).prepPollRemove(100 + i).userData(200 + i);
            }
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2 * n));
            for (int i = 0; i < n; i++) {
                assertEquals(cqe(200 + i, 0), done.get(200L + i));
                assertEquals(cqe(100 + i, -Errno.ECANCELED), done.get(100L + i));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollsArmedAfterAMultishotOnTheSameSocketDoNotRefireIt(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollMultishot(s[0], Poll.IN | Poll.OUT).userData(1);
            assertEquals(cqe(1, Poll.OUT, CqeFlags.MORE), submitAndNext(ring));
            // Each arm looks at readiness for itself alone (Linux: one wait-queue entry each).
            sqe(ring).prepPollAdd(s[0], Poll.OUT).userData(2);
            assertEquals(cqe(2, Poll.OUT), submitAndNext(ring));
            sqe(ring).prepPollMultishot(s[0], Poll.OUT).userData(3);
            assertEquals(cqe(3, Poll.OUT, CqeFlags.MORE), submitAndNext(ring));
            sqe(ring).prepPollAdd(s[0], Poll.IN).userData(4);
            ring.submit();
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvWaitingBesideAMultishotOutPollDoesNotRefireIt(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup);
                java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollMultishot(s[0], Poll.OUT).userData(1);
            assertEquals(cqe(1, Poll.OUT, CqeFlags.MORE), submitAndNext(ring));
            // The recv's internal poll widens the fd's epoll interest to POLLIN.
            sqe(ring).prepRecv(s[0], arena.allocate(8), 0).userData(2);
            ring.submit();
            assertQuiet(ring);
            sqe(ring).prepCancel(2, 0).userData(3);
            ring.submit();
            Map<Long, Completion> got = byUserData(next(ring, 2));
            assertEquals(cqe(3, 0), got.get(3L));
            assertEquals(cqe(2, -Errno.ECANCELED), got.get(2L));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void secondMultishotOnAReadableSocketPostsOnlyItsOwnFirstCqe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            Fds.write(s[1], ascii("q"));
            sqe(ring).prepPollMultishot(s[0], Poll.IN).userData(1);
            assertEquals(cqe(1, Poll.IN, CqeFlags.MORE), submitAndNext(ring));
            assertQuiet(ring);
            sqe(ring).prepPollMultishot(s[0], Poll.IN).userData(2);
            assertEquals(cqe(2, Poll.IN, CqeFlags.MORE), submitAndNext(ring));
            sqe(ring).prepPollAdd(s[0], Poll.IN).userData(3);
            assertEquals(cqe(3, Poll.IN), submitAndNext(ring));
            assertQuiet(ring);
            Fds.write(s[1], ascii("q"));
            Map<Long, Completion> got = byUserData(next(ring, 2));
            assertEquals(cqe(1, Poll.IN, CqeFlags.MORE), got.get(1L));
            assertEquals(cqe(2, Poll.IN, CqeFlags.MORE), got.get(2L));
            assertQuiet(ring);
        }
    }
}
