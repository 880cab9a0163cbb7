package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.SqeFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A thread that owns a ring exits with requests in flight ({@link FaultKind#OWNER_EXIT}):
 * inline-finished ones, io-wq ones, one armed on poll and one waiting on a timer. Linux
 * completes or cancels a dying task's requests (io_uring_cancel_generic, fallback task
 * work): every CQE (its result or -ECANCELED) reaches the ring, a plain ring's next user
 * reaps them all, and close() from another thread returns promptly for every ring kind.
 *
 * <p>The owner exits where {@link Faults#ownerExitDue} tells it to, after its submit. Before
 * the owner-exit fix (tw/TaskExit) the read armed on the pipe never completed on a plain ring
 * (34 of 35 CQEs arrived); SubmitterExitTest checks each kind of wait in detail.
 */
@Timeout(60)
class OwnerExitFaultTest extends FaultTestSupport {
    private static final int NOPS = 32;
    /** NOPs, the file read, the pipe read, the timeout. */
    private static final int REQUESTS = NOPS + 3;

    @TempDir
    Path dir;

    @Test
    void plainRingsNextUserReapsEveryCompletionOfAnOwnerThatExited() {
        bounded(() -> {
            try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared(); IoUring ring = ring(0)) {
                int file = patternFile(fds, dir, 4096);
                int[] p = fds.pipe();
                MemorySegment fileBuf = arena.allocate(4096);
                MemorySegment pipeBuf = arena.allocate(16);
                try (Faults.Session s = Faults.install(FaultPlan.seeded(16).next(FaultKind.OWNER_EXIT, 1).build())) {
                    runOwnerThatExits(ring, file, fileBuf, p[0], pipeBuf);
                    assertEquals(1, s.injected(FaultKind.OWNER_EXIT));
                }
                Fds.write(p[1], ascii("late"));
                Map<Long, Integer> res = new HashMap<>();
                for (int i = 0; i < REQUESTS; i++) {
                    Cqe c = ring.waitCqe(Duration.ofSeconds(1));
                    assertTrue(c != null, "CQE " + (i + 1) + " of " + REQUESTS + " within 1 s; so far " + res);
                    Integer old = res.put(c.userData(), c.res());
                    assertTrue(old == null, "two CQEs for user data " + c.userData());
                    ring.cqeSeen(c);
                }
                for (long ud = 1; ud <= NOPS; ud++) {
                    assertOneOf(res.get(ud), 0, "NOP " + ud);
                }
                assertOneOf(res.get(100L), 4096, "file read");
                assertOneOf(res.get(101L), 4, "pipe read");
                assertOneOf(res.get(102L), -Errno.ETIME, "timeout");
                assertQuietFor(ring, QUIET);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void closeFromAnotherThreadReturnsPromptlyAfterTheOwnerExited(int setup) {
        bounded(() -> {
            try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared()) {
                int file = patternFile(fds, dir, 4096);
                int[] p = fds.pipe();
                IoUring ring = ring(setup);
                try (Faults.Session s = Faults.install(FaultPlan.seeded(16).next(FaultKind.OWNER_EXIT, 1).build())) {
                    runOwnerThatExits(ring, file, arena.allocate(4096), p[0], arena.allocate(16));
                }
                long t0 = System.nanoTime();
                ring.close();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 2_000, "close() took " + ms + " ms");
            }
        });
    }

    /** Submits the mix on a new thread, which then exits without reaping; waits for it to end. */
    private static void runOwnerThatExits(IoUring ring, int file, MemorySegment fileBuf, int pipe, MemorySegment pipeBuf)
            throws InterruptedException {
        AtomicInteger submitted = new AtomicInteger();
        Thread owner = Thread.ofPlatform().name("test-owner").start(() -> {
            for (long ud = 1; ud <= NOPS; ud++) {
                sqe(ring).prepNop().flags(SqeFlags.ASYNC).userData(ud);
            }
            sqe(ring).prepRead(file, fileBuf, 0).flags(SqeFlags.ASYNC).userData(100);
            sqe(ring).prepRead(pipe, pipeBuf, -1).userData(101);
            sqe(ring).prepTimeout(50_000_000L, 0, 0).userData(102);
            submitted.set(ring.submit());
            if (Faults.ownerExitDue()) {
                return;   // exits with everything in flight, nothing reaped
            }
            ring.submitAndWait(REQUESTS);
        });
        owner.join(10_000);
        assertTrue(!owner.isAlive(), "the owner thread did not exit");
        assertEquals(REQUESTS, submitted.get());
    }

    private static void assertOneOf(Integer res, int ok, String what) {
        assertTrue(res != null && (res == ok || res == -Errno.ECANCELED),
                what + ": expected " + ok + " or -ECANCELED, got " + res);
    }
}
