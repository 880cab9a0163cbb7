package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A descriptor closed while requests use it ({@link FaultKind#CLOSE}): every request still
 * completes exactly once and the ring closes promptly.
 *
 * <p>Where jring differs from Linux, by design: a Linux request holds a reference to its
 * file from its first issue, so a close(2) meanwhile does not affect it (it completes
 * normally). jring names the file by its number, so a request makes its next call on a
 * closed descriptor and gets -EBADF, and a poll wait armed on the closed file never fires
 * (epoll drops it with the file) and ends when cancelled or when the ring closes. The
 * seam's close keeps the number occupied (see {@link FaultKind#CLOSE}); an application
 * that closes and reuses a number with requests in flight gets what read(2) would give it.
 */
@Timeout(30)
class CloseMidFlightFaultTest extends FaultTestSupport {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("ringKinds")
    void readClosedBeforeItsWorkerRunsCompletesWithEbadfOnce(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 4096);
            MemorySegment buf = arena.allocate(4096);
            try (Faults.Session s = inject(FaultKind.CLOSE, 1, fd)) {
                sqe(ring).prepRead(fd, buf, 0).flags(SqeFlags.ASYNC | SqeFlags.IO_LINK).userData(1);
                sqe(ring).prepNop().userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                assertErrno(Errno.EBADF, got.get(1L));
                assertEquals(cancelled(2), got.get(2L));
                assertEquals(1, s.injected(FaultKind.CLOSE));
            }
            sqe(ring).prepRead(fd, buf, 0).userData(3);
            assertErrno(Errno.EBADF, submitAndNext(ring));
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void armedRecvWhoseSocketClosesBeforeItsRetryCompletesWithEbadfOnce(int setup) {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int[] sp = fds.socketPair();
            MemorySegment in = arena.allocate(64);
            sqe(ring).prepRecv(sp[1], in, 0).userData(1);
            ring.submit();
            assertNoCqe(ring);
            try (Faults.Session s = inject(FaultKind.CLOSE, 1, sp[1])) {
                Fds.write(sp[0], ascii("data"));   // readiness: the retry finds the socket closed
                assertErrno(Errno.EBADF, reapOnce(ring, 1).get(1L));
                assertEquals(1, s.injected(FaultKind.CLOSE));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void waitArmedOnAClosedPipeEndsWhenCancelledAndTheRingClosesPromptly(int setup) {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared()) {
            int[] p = fds.pipe();
            MemorySegment a = arena.allocate(64);
            MemorySegment b = arena.allocate(64);
            IoUring ring = ring(setup);
            sqe(ring).prepRead(p[0], a, -1).userData(1);
            ring.submit();
            assertNoCqe(ring);
            try (Faults.Session s = inject(FaultKind.CLOSE, 1, p[0])) {
                // A second read's attempt (from io-wq) closes the pipe under the armed one.
                sqe(ring).prepRead(p[0], b, -1).flags(SqeFlags.ASYNC).userData(2);
                assertErrno(Errno.EBADF, submitAndReapOnce(ring, 1).get(2L));
                assertEquals(1, s.injected(FaultKind.CLOSE));
            }
            sqe(ring).prepCancel(1, 0).userData(3);
            Map<Long, Completion> got = submitAndReapOnce(ring, 2);
            assertEquals(cancelled(1), got.get(1L));
            assertEquals(cqe(3, 0), got.get(3L));
            assertTimeoutPreemptively(Duration.ofSeconds(5), ring::close, "close() with a request on a closed fd");
        }
    }
}
