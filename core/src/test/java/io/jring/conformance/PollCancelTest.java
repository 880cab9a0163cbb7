package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.NEVER;
import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cancelled;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cancelling polls (liburing test/poll-cancel.c): POLL_REMOVE and ASYNC_CANCEL both end an
 * armed POLL_ADD with -ECANCELED and complete with 0 themselves, -ENOENT once the poll is
 * gone; a multishot poll ends with a final -ECANCELED without MORE; removing a poll leaves
 * pending timeouts alone. A poll for POLLIN on a pipe whose write end is closed completes
 * with POLLHUP (a multishot one posts it with MORE and stays armed).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PollCancelTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void pollRemoveAndAsyncCancelBothEndAnArmedPoll(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(1);
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(2);
            assertEquals(2, ring.submit());
            assertQuiet(ring);
            sqe(ring).prepPollRemove(1).userData(3);
            ring.submit();
            assertAnyOrder(List.of(cancelled(1), cqe(3, 0)), next(ring, 2));
            sqe(ring).prepCancel(2, 0).userData(4);
            ring.submit();
            assertAnyOrder(List.of(cancelled(2), cqe(4, 0)), next(ring, 2));
            sqe(ring).prepPollRemove(1).userData(5);
            assertEquals(cqe(5, -Errno.ENOENT), submitAndNext(ring), "removed already");
            sqe(ring).prepPollRemove(77).userData(6);
            assertEquals(cqe(6, -Errno.ENOENT), submitAndNext(ring), "never existed");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void addAndRemoveInOneSubmit(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(1);
            sqe(ring).prepPollRemove(1).userData(2);
            assertEquals(2, ring.submit());
            assertAnyOrder(List.of(cancelled(1), cqe(2, 0)), next(ring, 2));
            Fds.write(p[1], ascii("x"));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aCompletedPollIsNotFound(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            Fds.write(p[1], ascii("x"));
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(1);
            assertEquals(cqe(1, Poll.IN), submitAndNext(ring));
            sqe(ring).prepPollRemove(1).userData(2);
            assertEquals(cqe(2, -Errno.ENOENT), submitAndNext(ring));
            sqe(ring).prepCancel(1, 0).userData(3);
            assertEquals(cqe(3, -Errno.ENOENT), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void removingAPollLeavesPendingTimeoutsAlone(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(1);
            sqe(ring).prepTimeout(NEVER, 0, 0).userData(2);
            sqe(ring).prepTimeout(NEVER, 1, 0).userData(3);
            assertEquals(3, ring.submit());
            sqe(ring).prepPollRemove(1).userData(4);
            ring.submit();
            List<io.jring.conformance.ConformanceSupport.Completion> got = next(ring, 3);
            assertAnyOrder(List.of(cancelled(1), cqe(4, 0), cqe(3, 0)), got);
            assertQuiet(ring);
            sqe(ring).prepTimeoutRemove(2).userData(5);
            ring.submit();
            assertAnyOrder(List.of(cancelled(2), cqe(5, 0)), next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aRemovedMultishotPollEndsWithEcanceledWithoutMore(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(1);
            ring.submit();
            Fds.write(p[1], ascii("x"));
            assertEquals(cqe(1, Poll.IN, CqeFlags.MORE), next(ring));
            assertEquals(1, Fds.read(p[0], new byte[1]));
            sqe(ring).prepPollRemove(1).userData(2);
            ring.submit();
            assertAnyOrder(List.of(cancelled(1), cqe(2, 0)), next(ring, 2));
            Fds.write(p[1], ascii("y"));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void closingThePipesWriteEndGivesPollhup(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(1);
            sqe(ring).prepPollMultishot(p[0], Poll.IN).userData(2);
            assertEquals(2, ring.submit());
            assertQuiet(ring);
            fds.close(p[1]);
            assertAnyOrder(List.of(cqe(1, Poll.HUP), cqe(2, Poll.HUP, CqeFlags.MORE)), next(ring, 2));
            assertQuiet(ring);
            sqe(ring).prepPollRemove(2).userData(3);
            ring.submit();
            assertAnyOrder(List.of(cancelled(2), cqe(3, 0)), next(ring, 2));
        }
    }
}
