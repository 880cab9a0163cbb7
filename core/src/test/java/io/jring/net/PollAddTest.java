package io.jring.net;

import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertErrno;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.byUserData;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.later;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One-shot IORING_OP_POLL_ADD on pipes and sockets (liburing test/poll.c; kernel
 * io_uring/poll.c). The CQE's res is the ready events masked by the requested ones plus
 * those Linux always adds (IO_POLL_UNMASK = POLLERR | POLLHUP | POLLNVAL | POLLRDHUP), with
 * Linux's POLL* values; flags are 0.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PollAddTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollInOnAnEmptyPipeCompletesWhenAnotherThreadWrites(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[0], Poll.IN).userData(1);
            assertEquals(1, ring.submit());
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(p[1], ascii("abc")))) {
                assertEquals(cqe(1, Poll.IN), next(ring));
            }
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollOfAReadySocketCompletesAtOnceWithOnlyTheRequestedEvents(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollAdd(s[0], Poll.OUT).userData(1);
            assertEquals(cqe(1, Poll.OUT), submitAndNext(ring));
            sqe(ring).prepPollAdd(s[0], Poll.IN | Poll.OUT).userData(2);
            assertEquals(cqe(2, Poll.OUT), submitAndNext(ring), "no data yet: writable only");

            Fds.write(s[1], ascii("x"));
            sqe(ring).prepPollAdd(s[0], Poll.IN | Poll.OUT).userData(3);
            assertEquals(cqe(3, Poll.IN | Poll.OUT), submitAndNext(ring));
            sqe(ring).prepPollAdd(s[0], Poll.OUT).userData(4);
            assertEquals(cqe(4, Poll.OUT), submitAndNext(ring), "readable, but only OUT was asked for");
            sqe(ring).prepPollAdd(s[0], Poll.IN).userData(5);
            assertEquals(cqe(5, Poll.IN), submitAndNext(ring), "writable, but only IN was asked for");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollInOnAPipeWhoseWriterClosedReportsHup(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            // Empty: POLLHUP alone (Linux's pipe_poll sets POLLIN only when there is data).
            int[] empty = fds.pipe();
            fds.close(empty[1]);
            sqe(ring).prepPollAdd(empty[0], Poll.IN).userData(1);
            assertEquals(cqe(1, Poll.HUP), submitAndNext(ring));

            int[] withData = fds.pipe();
            Fds.write(withData[1], ascii("ab"));
            fds.close(withData[1]);
            sqe(ring).prepPollAdd(withData[0], Poll.IN).userData(2);
            assertEquals(cqe(2, Poll.IN | Poll.HUP), submitAndNext(ring));

            // Armed first, then the writer goes away on another thread.
            int[] armed = fds.pipe();
            sqe(ring).prepPollAdd(armed[0], Poll.IN).userData(3);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> c = later("closer", () -> fds.close(armed[1]))) {
                assertEquals(cqe(3, Poll.HUP), next(ring));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollOutOnAPipeWhoseReaderClosedReportsOutAndErr(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            sqe(ring).prepPollAdd(p[1], Poll.OUT).userData(1);
            assertEquals(cqe(1, Poll.OUT), submitAndNext(ring));
            fds.close(p[0]);
            sqe(ring).prepPollAdd(p[1], Poll.OUT).userData(2);
            assertEquals(cqe(2, Poll.OUT | Poll.ERR), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollInOnASocketWhosePeerClosedReportsInRdhupAndHup(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            // A closed AF_UNIX stream peer shuts both directions: POLLIN | POLLRDHUP | POLLHUP.
            // RDHUP and HUP are reported although only IN was asked for (IO_POLL_UNMASK).
            int[] closed = fds.socketPair();
            fds.close(closed[1]);
            sqe(ring).prepPollAdd(closed[0], Poll.IN).userData(1);
            assertEquals(cqe(1, Poll.IN | Poll.RDHUP | Poll.HUP), submitAndNext(ring));
            sqe(ring).prepPollAdd(closed[0], Poll.OUT).userData(2);
            assertEquals(cqe(2, Poll.OUT | Poll.RDHUP | Poll.HUP), submitAndNext(ring));

            int[] armed = fds.socketPair();
            sqe(ring).prepPollAdd(armed[0], Poll.IN).userData(3);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> c = later("closer", () -> fds.close(armed[1]))) {
                assertEquals(cqe(3, Poll.IN | Poll.RDHUP | Poll.HUP), next(ring));
            }
        }
    }

    @Test
    void pollOfABadFdIsEbadf() {
        try (IoUring ring = ring(0)) {
            sqe(ring).prepPollAdd(-1, Poll.IN).userData(1);
            Completion c = submitAndNext(ring);
            assertEquals(1, c.userData());
            assertErrno(Errno.EBADF, c);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void manyPollsOnOneFdAllCompleteOnOneWrite(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            for (int i = 0; i < 8; i++) {
                sqe(ring).prepPollAdd(p[0], Poll.IN).userData(10 + i);
            }
            assertEquals(8, ring.submit());
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(p[1], ascii("go")))) {
                Map<Long, Completion> got = byUserData(next(ring, 8));
                for (int i = 0; i < 8; i++) {
                    assertEquals(cqe(10 + i, Poll.IN), got.get(10L + i));
                }
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollInAndPollOutOnOneSocketAreIndependent(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollAdd(s[0], Poll.IN).userData(1);
            sqe(ring).prepPollAdd(s[0], Poll.OUT).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(cqe(2, Poll.OUT), next(ring), "writable at once");
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(s[1], ascii("x")))) {
                assertEquals(cqe(1, Poll.IN), next(ring));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollsOnOneFdFromTwoRingsOfOneThreadBothComplete(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring a = ring(setup); IoUring b = ring(setup)) {
            int[] p = fds.pipe();
            sqe(a).prepPollAdd(p[0], Poll.IN).userData(1);
            sqe(b).prepPollAdd(p[0], Poll.IN).userData(2);
            a.submit();
            b.submit();
            assertNoCqe(a);
            assertNoCqe(b);
            try (Later<Void> w = later("writer", () -> Fds.write(p[1], ascii("x")))) {
                assertEquals(cqe(1, Poll.IN), next(a));
                assertEquals(cqe(2, Poll.IN), next(b));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void oneShotPollWithCqeSkipSuccessPostsNoCqe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollAdd(s[0], Poll.OUT).userData(1).flags(SqeFlags.CQE_SKIP_SUCCESS);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(2, 0)), next(ring, 1));
            NetTestSupport.assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pollOnANumberNoDescriptorCanHaveIsEbadfAndTheRingGoesOn(int setup) {
        // Linux: -EBADF from the fd lookup. These once grew the poller's fd table first:
        // 1 << 30 allocated gigabytes, MAX_VALUE threw from submit() and left the SQE queued.
        int[] numbers = {1 << 30, Integer.MAX_VALUE, Integer.MIN_VALUE, -5};
        try (IoUring ring = ring(setup)) {
            for (int i = 0; i < numbers.length; i++) {
                sqe(ring).prepPollAdd(numbers[i], Poll.IN).userData(10 + i);
                sqe(ring).prepPollMultishot(numbers[i], Poll.IN).userData(20 + i);
            }
            sqe(ring).prepNop().userData(99);
            assertEquals(2 * numbers.length + 1, ring.submit());
            Map<Long, Completion> got = byUserData(next(ring, 2 * numbers.length + 1));
            for (int i = 0; i < numbers.length; i++) {
                assertEquals(cqe(10 + i, -Errno.EBADF), got.get(10L + i), "POLL_ADD on " + numbers[i]);
                assertEquals(cqe(20 + i, -Errno.EBADF), got.get(20L + i), "multishot POLL_ADD on " + numbers[i]);
            }
            assertEquals(cqe(99, 0), got.get(99L));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void readyOneShotPollCompletesInItsSubmitSoARemoveAfterItFindsNothing(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            Fds.write(s[1], ascii("x"));
            // Linux looks at readiness as it arms (vfs_poll): the poll completes at once.
            sqe(ring).prepPollAdd(s[0], Poll.IN | Poll.OUT).userData(1);
            sqe(ring).prepPollRemove(1).userData(2);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(1, Poll.IN | Poll.OUT), cqe(2, -Errno.ENOENT)), next(ring, 2));
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void regularFileIsReadyForItsDefaultMaskAndEinvalForAnyOtherEvents(int setup) throws java.io.IOException {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("poll", ".dat");
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int fd = fds.add(Fds.open(f, io.jring.OpenFlags.RDWR, 0));
            // Linux's DEFAULT_POLLMASK (IN, OUT, RDNORM, WRNORM): a file with no wait queue and
            // none of those asked for (POLLERR alone, POLLPRI, 0) is -EINVAL, multishot too.
            int[] masks = {Poll.ERR, Poll.HUP, Poll.PRI, Poll.RDHUP, 0, Poll.IN, Poll.OUT | Poll.ERR};
            int[] want = {-Errno.EINVAL, -Errno.EINVAL, -Errno.EINVAL, -Errno.EINVAL, -Errno.EINVAL, Poll.IN, Poll.OUT};
            for (int i = 0; i < masks.length; i++) {
                sqe(ring).prepPollAdd(fd, masks[i]).userData(i);
                assertEquals(cqe(i, want[i]), submitAndNext(ring), "mask 0x" + Integer.toHexString(masks[i]));
                sqe(ring).prepPollMultishot(fd, masks[i]).userData(100 + i);
                assertEquals(cqe(100 + i, want[i]), submitAndNext(ring),
                        "multishot mask 0x" + Integer.toHexString(masks[i]) + ": one final CQE, no MORE");
            }
            assertNoCqe(ring);
        } finally {
            java.nio.file.Files.deleteIfExists(f);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void levelTriggeredPollIsRefusedAtPrepAndEndsTheSubmit(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            sqe(ring).prepPollAdd(s[0], Poll.OUT).len(8).userData(1);   // IORING_POLL_ADD_LEVEL
            sqe(ring).prepNop().userData(2);
            assertEquals(1, ring.submit(), "Linux 6.18 takes no POLL_ADD flag but MULTI");
            assertEquals(cqe(1, -Errno.EINVAL), next(ring));
            assertEquals(1, ring.submit());
            assertEquals(cqe(2, 0), next(ring));
        }
    }
}
