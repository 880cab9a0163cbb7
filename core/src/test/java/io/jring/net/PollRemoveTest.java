package io.jring.net;

import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.assertQuiet;
import static io.jring.net.NetTestSupport.byUserData;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.later;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_POLL_REMOVE (liburing test/poll-cancel.c; kernel io_uring/poll.c io_poll_remove):
 * finds a POLL_ADD by user data; the poll completes with -ECANCELED and the remove with 0,
 * -ENOENT when no armed POLL_ADD has that user data. It only matches POLL_ADD requests: a
 * recv waiting on its internal poll is not a target.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PollRemoveTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void removeCancelsAnArmedPoll(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(7);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepPollRemove(7).userData(8);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(8, 0), done.get(8L));
            assertEquals(cqe(7, -Errno.ECANCELED), done.get(7L));
            Fds.write(p[1], ascii("x"));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void removeOfAnUnknownUserDataIsEnoent(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepPollRemove(777).userData(1);
            assertEquals(cqe(1, -Errno.ENOENT), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void removeOfACompletedOrRemovedPollIsEnoent(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollAdd(s[0], Poll.OUT).userData(5);
            assertEquals(cqe(5, Poll.OUT), submitAndNext(ring));
            sqe(ring).prepPollRemove(5).userData(6);
            assertEquals(cqe(6, -Errno.ENOENT), submitAndNext(ring), "the poll had completed");

            sqe(ring).prepPollAdd(s[0], Poll.IN).userData(9);
            sqe(ring).prepPollRemove(9).userData(10);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(10, 0), done.get(10L));
            assertEquals(cqe(9, -Errno.ECANCELED), done.get(9L));
            sqe(ring).prepPollRemove(9).userData(11);
            assertEquals(cqe(11, -Errno.ENOENT), submitAndNext(ring), "the poll was removed already");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void addAndRemoveInOneSubmitCancelTheAdd(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(63);
            sqe(ring).prepPollRemove(63).userData(64);
            assertEquals(2, ring.submit());
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(64, 0), done.get(64L));
            assertEquals(cqe(63, -Errno.ECANCELED), done.get(63L));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void removeMatchesOnlyThePollWithThatUserData(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(1);
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(2);
            ring.submit();
            sqe(ring).prepPollRemove(1).userData(3);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(3, 0), done.get(3L));
            assertEquals(cqe(1, -Errno.ECANCELED), done.get(1L));
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(p[1], ascii("x")))) {
                assertEquals(cqe(2, Poll.IN), next(ring), "the other poll on the same fd is still armed");
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void removeDoesNotTargetARecvWaitingForData(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepRecv(s[0], buf, 0).userData(61);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepPollRemove(61).userData(62);
            assertEquals(cqe(62, -Errno.ENOENT), submitAndNext(ring), "POLL_REMOVE only finds POLL_ADDs");
            try (Later<Void> w = later("writer", () -> Fds.write(s[1], ascii("hey")))) {
                assertEquals(cqe(61, 3), withoutNonEmptyHint(next(ring)));
            }
            assertEquals("hey", NetTestSupport.ascii(buf, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void removeInTheSubmitOfAReadyMultishotIsEalreadyAndThePollStaysArmed(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            Fds.write(s[1], ascii("x"));
            // The first CQE is on its way as task work when the remove runs: Linux's
            // io_poll_disarm finds the poll owned by that wakeup.
            sqe(ring).prepPollMultishot(s[0], Poll.IN).userData(1);
            sqe(ring).prepPollRemove(1).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(java.util.List.of(cqe(2, -Errno.EALREADY), cqe(1, Poll.IN, io.jring.CqeFlags.MORE)),
                    next(ring, 2));
            assertQuiet(ring);
            Fds.write(s[1], ascii("y"));
            assertEquals(cqe(1, Poll.IN, io.jring.CqeFlags.MORE), next(ring), "still armed");
            sqe(ring).prepPollRemove(1).userData(3);
            ring.submit();
            assertEquals(java.util.List.of(cqe(3, 0), cqe(1, -Errno.ECANCELED)), next(ring, 2));
        }
    }
}
