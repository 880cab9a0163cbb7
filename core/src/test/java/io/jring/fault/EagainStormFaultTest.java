package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.IoUring;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * EAGAIN storms ({@link FaultKind#EAGAIN} on every non-blocking attempt): a request whose
 * file keeps saying "not ready" ends in io-wq, never in a spin. A regular file goes to
 * io-wq at its first EAGAIN. A pollable one is armed and retried on readiness, and after
 * Linux's APOLL_MAX_RETRY (128) arms in a row goes to io-wq, where the blocking call is
 * made (io_uring/poll.c; io-wq then retries blocking, io_wq_submit_work). The storms run
 * under assertTimeoutPreemptively, on another thread: hence shared arenas.
 */
@Timeout(60)
class EagainStormFaultTest extends FaultTestSupport {
    /** Linux's APOLL_MAX_RETRY. */
    static final int APOLL_MAX_RETRY = 128;

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("ringKinds")
    void regularFileReadGoesToIoWqAtFirstEagain(int setup) throws Exception {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared(); IoUring ring = ring(setup)) {
            int fd = patternFile(fds, dir, 8192);
            MemorySegment buf = arena.allocate(8192);
            try (Faults.Session s = injectAlways(FaultKind.EAGAIN, fd)) {
                sqe(ring).prepRead(fd, buf, 0).userData(1);
                assertEquals(cqe(1, 8192), submitAndReapOnce(ring, 1).get(1L));
                assertEquals(1, s.injected(FaultKind.EAGAIN), "one non-blocking attempt, then io-wq");
            }
            assertPattern(buf, 0, 8192);
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void readyPipeThatKeepsSayingEagainEndsInIoWqNotASpin(int setup) {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared(); IoUring ring = ring(setup)) {
            int[] p = fds.pipe();
            Fds.write(p[1], ascii("storm"));
            MemorySegment buf = arena.allocate(64);
            try (Faults.Session s = injectAlways(FaultKind.EAGAIN, p[0])) {
                sqe(ring).prepRead(p[0], buf, -1).userData(1);
                Completion c = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> submitAndReapOnce(ring, 1).get(1L),
                        "a ready pipe whose reads keep failing with EAGAIN must end in io-wq");
                assertEquals(cqe(1, 5), c);
                assertStormBounded(s);
            }
            assertEquals("storm", ascii(buf, 5));
        }
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void recvAndSendThroughAStormComplete(int setup) {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared(); IoUring ring = ring(setup)) {
            int[] sp = fds.socketPair();
            MemorySegment out = arena.allocate(512);
            fillPattern(out);
            MemorySegment in = arena.allocate(512);
            try (Faults.Session s = injectAlways(FaultKind.EAGAIN, sp[0], sp[1])) {
                sqe(ring).prepSend(sp[0], out, 0).userData(1);
                sqe(ring).prepRecv(sp[1], in, 0).userData(2);
                var got = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> submitAndReapOnce(ring, 2));
                assertEquals(cqe(1, 512), got.get(1L));
                assertEquals(cqe(2, 512), got.get(2L).withoutNonEmptyHint());
                assertTrue(s.injected(FaultKind.EAGAIN) <= 2 * (APOLL_MAX_RETRY + 2),
                        "EAGAINs: " + s.injected(FaultKind.EAGAIN));
            }
            assertPattern(in, 0, 512);
        }
    }

    /** The request was armed and retried a bounded number of times, then blocked in io-wq. */
    private static void assertStormBounded(Faults.Session s) {
        long n = s.injected(FaultKind.EAGAIN);
        assertTrue(n >= APOLL_MAX_RETRY && n <= APOLL_MAX_RETRY + 2,
                "expected about " + APOLL_MAX_RETRY + " EAGAINs (the poll retries), got " + n);
    }
}
