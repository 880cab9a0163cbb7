package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * EINTR from the calls a request makes ({@link FaultKind#EINTR}): a signal that interrupts
 * a call before it moved anything is retried inside the engine, so the request completes
 * with its own result. Linux never shows it in a CQE: the NOWAIT attempt is not
 * interruptible and io-wq workers block signals.
 */
@Timeout(30)
class EintrFaultTest extends FaultTestSupport {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("ringKinds")
    void interruptedReadIsRetriedAndCompletesWithItsData(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 8192);
            MemorySegment inline = arena.allocate(8192);
            MemorySegment async = arena.allocate(8192);
            try (Faults.Session s = inject(FaultKind.EINTR, 4, fd)) {
                sqe(ring).prepRead(fd, inline, 0).userData(1);
                sqe(ring).prepRead(fd, async, 0).flags(SqeFlags.ASYNC).userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                assertEquals(cqe(1, 8192), got.get(1L));
                assertEquals(cqe(2, 8192), got.get(2L));
                assertEquals(4, s.injected(FaultKind.EINTR));
            }
            assertPattern(inline, 0, 8192);
            assertPattern(async, 0, 8192);
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void interruptedWriteIsRetried(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 0);
            MemorySegment buf = arena.allocate(4096);
            fillPattern(buf);
            try (Faults.Session s = inject(FaultKind.EINTR, 3, fd)) {
                sqe(ring).prepWrite(fd, buf, 0).userData(1);
                sqe(ring).prepFsync(fd, 0).flags(SqeFlags.IO_DRAIN).userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                assertEquals(cqe(1, 4096), got.get(1L));
                assertEquals(cqe(2, 0), got.get(2L));
                assertEquals(3, s.injected(FaultKind.EINTR));
            }
            MemorySegment back = arena.allocate(4096);
            sqe(ring).prepRead(fd, back, 0).userData(3);
            assertEquals(cqe(3, 4096), submitAndNext(ring));
            assertPattern(back, 0, 4096);
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void interruptedSendAndRecvAreRetried(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int[] sp = fds.socketPair();
            MemorySegment out = arena.allocate(1000);
            fillPattern(out);
            MemorySegment in = arena.allocate(1000);
            try (Faults.Session s = inject(FaultKind.EINTR, 4, sp[0], sp[1])) {
                sqe(ring).prepRecv(sp[1], in, 0).userData(1);   // armed first: nothing to read yet
                sqe(ring).prepSend(sp[0], out, 0).userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                assertEquals(cqe(1, 1000), got.get(1L).withoutNonEmptyHint());
                assertEquals(cqe(2, 1000), got.get(2L));
                assertEquals(4, s.injected(FaultKind.EINTR));
            }
            assertPattern(in, 0, 1000);
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void interruptedFsyncIsRetried(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 4096);
            try (Faults.Session s = inject(FaultKind.EINTR, 2, fd)) {
                sqe(ring).prepFsync(fd, 0).userData(1);
                assertEquals(cqe(1, 0), submitAndReapOnce(ring, 1).get(1L));
                assertEquals(2, s.injected(FaultKind.EINTR));
            }
        }
    }
}
