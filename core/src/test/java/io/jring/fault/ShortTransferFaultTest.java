package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Short transfers ({@link FaultKind#SHORT}): the kernel moves fewer bytes than asked. As in
 * Linux (io_read/io_write, io_send/io_recv): a blocking read or write completes with the
 * short count and breaks its link; a short NOWAIT attempt on a regular file is finished in
 * io-wq and reported as one result; a pipe or socket completes short, except a RECV or SEND
 * with MSG_WAITALL, which waits for the rest. Every count matches the bytes really moved.
 */
@Timeout(30)
class ShortTransferFaultTest extends FaultTestSupport {
    private static final int MSG_WAITALL = 0x100;

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("ringKinds")
    void blockingShortReadCompletesWithTheShortCountAndBreaksItsLink(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 8192);
            MemorySegment buf = arena.allocate(8192);
            try (Faults.Session s = inject(FaultKind.SHORT, 1, fd)) {
                sqe(ring).prepRead(fd, buf, 0).flags(SqeFlags.ASYNC | SqeFlags.IO_LINK).userData(1);
                sqe(ring).prepNop().userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                int n = got.get(1L).res();
                assertTrue(n > 0 && n < 8192, "a short count: " + got.get(1L));
                assertEquals(cancelled(2), got.get(2L), "a short read breaks the link");
                assertEquals(1, s.injected(FaultKind.SHORT));
                assertPattern(buf, 0, n);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void shortNowaitReadOfARegularFileIsFinishedInIoWq(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 16384);
            MemorySegment a = arena.allocate(8192);
            MemorySegment b = arena.allocate(8192);
            try (Faults.Session s = inject(FaultKind.SHORT, 1, fd)) {
                sqe(ring).prepReadv(fd, new MemorySegment[] {a, b}, 0).flags(SqeFlags.IO_LINK).userData(1);
                sqe(ring).prepNop().userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                assertEquals(cqe(1, 16384), got.get(1L));
                assertEquals(cqe(2, 0), got.get(2L));
                assertEquals(1, s.injected(FaultKind.SHORT));
            }
            assertPattern(a, 0, 8192);
            for (int i = 0; i < 8192; i++) {
                assertEquals(pattern(8192 + i), b.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i), "byte " + (8192 + i));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void blockingShortWriteWritesExactlyTheCountItReports(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 0);
            MemorySegment buf = arena.allocate(8192);
            fillPattern(buf);
            try (Faults.Session s = inject(FaultKind.SHORT, 1, fd)) {
                sqe(ring).prepWrite(fd, buf, 0).flags(SqeFlags.ASYNC).userData(1);
                int n = submitAndReapOnce(ring, 1).get(1L).res();
                assertTrue(n > 0 && n < 8192, "a short count: " + n);
                assertEquals(n, FsCalls.fileSize(SysCallContext.current(), fd), "the file holds what the CQE says");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void shortPipeReadCompletesShortAndLeavesTheRestInThePipe(int setup) {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            Fds.write(p[1], ascii("0123456789"));
            MemorySegment buf = arena.allocate(10);
            int n;
            try (Faults.Session s = inject(FaultKind.SHORT, 1, p[0])) {
                sqe(ring).prepRead(p[0], buf, -1).userData(1);
                n = submitAndReapOnce(ring, 1).get(1L).res();
                assertTrue(n > 0 && n < 10, "a short count: " + n);
            }
            assertEquals("0123456789".substring(0, n), ascii(buf, n));
            assertEquals("0123456789".substring(n), new String(readFully(p[0], 10 - n), java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void shortSendReportsWhatThePeerReceives(int setup) {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int[] sp = fds.socketPair();
            MemorySegment out = arena.allocate(4096);
            fillPattern(out);
            int n;
            try (Faults.Session s = inject(FaultKind.SHORT, 1, sp[0])) {
                sqe(ring).prepSend(sp[0], out, 0).flags(SqeFlags.IO_LINK).userData(1);
                sqe(ring).prepShutdown(sp[0], Fds.SHUT_WR).userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                n = got.get(1L).res();
                assertTrue(n > 0 && n < 4096, "a short count: " + n);
                assertEquals(cqe(2, 0), got.get(2L), "a short SEND completes: its link goes on");
            }
            assertEquals(n, drain(sp[1]), "the peer receives exactly what the CQE reports");
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void waitAllSendAndRecvFinishTheRestAfterAShortTransfer(int setup) {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int[] sp = fds.socketPair();
            MemorySegment out = arena.allocate(4096);
            fillPattern(out);
            MemorySegment in = arena.allocate(4096);
            try (Faults.Session s = Faults.install(FaultPlan.seeded(16).next(FaultKind.SHORT, 4).onlyFds(sp).build())) {
                sqe(ring).prepRecv(sp[1], in, MSG_WAITALL).userData(1);
                sqe(ring).prepSend(sp[0], out, MSG_WAITALL).userData(2);
                Map<Long, Completion> got = submitAndReapOnce(ring, 2);
                assertEquals(cqe(1, 4096), got.get(1L).withoutNonEmptyHint());
                assertEquals(cqe(2, 4096), got.get(2L));
                assertTrue(s.injected(FaultKind.SHORT) >= 2, "short transfers: " + s.injected(FaultKind.SHORT));
            }
            assertPattern(in, 0, 4096);
        }
    }

    /** Reads {@code fd} (blocking) until EOF; returns the byte count. */
    private static int drain(int fd) {
        byte[] chunk = new byte[8192];
        int total = 0;
        for (int r; (r = Fds.read(fd, chunk)) > 0; ) {
            total += r;
        }
        return total;
    }
}
