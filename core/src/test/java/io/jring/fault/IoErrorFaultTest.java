package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.SqeFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Device and file-system errors ({@link FaultKind#EIO}, {@link FaultKind#ENOSPC}): the
 * request completes with {@code -EIO}/{@code -ENOSPC}, inline or from io-wq, and a failed
 * link member cancels the rest. An error after part of a transfer moved reports the bytes
 * moved (Linux's io_fixup_rw_res), and still breaks the link (the result is short).
 */
@Timeout(30)
class IoErrorFaultTest extends FaultTestSupport {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("ringKinds")
    void readErrorCompletesWithEioAndCancelsTheLink(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 4096);
            MemorySegment a = arena.allocate(4096);
            MemorySegment b = arena.allocate(4096);
            try (Faults.Session s = inject(FaultKind.EIO, 2, fd)) {
                sqe(ring).prepRead(fd, a, 0).flags(SqeFlags.IO_LINK).userData(1);
                sqe(ring).prepNop().userData(2);
                sqe(ring).prepRead(fd, b, 0).flags(SqeFlags.ASYNC).userData(3);
                Map<Long, Completion> got = submitAndReapOnce(ring, 3);
                assertErrno(Errno.EIO, got.get(1L));
                assertEquals(cancelled(2), got.get(2L));
                assertErrno(Errno.EIO, got.get(3L));
                assertEquals(2, s.injected(FaultKind.EIO));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void writeAndFsyncOnAFullDiskCompleteWithEnospc(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 0);
            MemorySegment buf = arena.allocate(4096);
            fillPattern(buf);
            try (Faults.Session s = inject(FaultKind.ENOSPC, 3, fd)) {
                sqe(ring).prepWrite(fd, buf, 0).userData(1);
                sqe(ring).prepWrite(fd, buf, 4096).flags(SqeFlags.ASYNC).userData(2);
                sqe(ring).prepFsync(fd, 0).flags(SqeFlags.IO_DRAIN).userData(3);
                Map<Long, Completion> got = submitAndReapOnce(ring, 3);
                assertErrno(Errno.ENOSPC, got.get(1L));
                assertErrno(Errno.ENOSPC, got.get(2L));
                assertErrno(Errno.ENOSPC, got.get(3L));
                assertEquals(3, s.injected(FaultKind.ENOSPC));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void errorAfterAPartialReadReportsTheBytesMoved(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 8192);
            MemorySegment buf = arena.allocate(8192);
            // The NOWAIT attempt moves part (SHORT), the rest goes to io-wq and fails (EIO).
            FaultPlan plan = FaultPlan.seeded(16).next(FaultKind.SHORT, 1).next(FaultKind.EIO, 1).onlyFds(fd).build();
            try (Faults.Session s = Faults.install(plan)) {
                sqe(ring).prepRead(fd, buf, 0).flags(SqeFlags.IO_LINK).userData(1);
                sqe(ring).prepNop().userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                int n = got.get(1L).res();
                assertTrue(n > 0 && n < 8192, "the bytes the first attempt moved: " + got.get(1L));
                assertEquals(cancelled(2), got.get(2L), "a short result breaks the link");
                assertEquals(1, s.injected(FaultKind.EIO));
                assertPattern(buf, 0, n);
            }
        }
    }
}
