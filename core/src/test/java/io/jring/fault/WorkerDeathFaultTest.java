package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.core.ApiAccess;
import io.jring.iowq.IoWq;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An io-wq worker that dies mid-item ({@link FaultKind#WORKER_DEATH}: an Error escapes
 * the item, as OutOfMemoryError or StackOverflowError may). Its request still completes,
 * once, with -EINTR, as Linux ends a running io-wq item whose worker is signalled to stop;
 * the worker thread ends and io-wq starts another for the work queued behind it, as a
 * thread pool replaces a thread that died.
 */
@Timeout(30)
class WorkerDeathFaultTest extends FaultTestSupport {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("ringKinds")
    void workerDyingMidItemCompletesItsRequestOnceAndAReplacementRunsTheRest(int setup) {
        bounded(() -> {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            ring.registerIoWqMaxWorkers(1, 1);   // the rest queue behind the dying worker
            IoWq wq = ApiAccess.get().contextOf(ring).ioWq();
            int fd = patternFile(fds, dir, 4096);
            MemorySegment[] bufs = new MemorySegment[4];
            try (Faults.Session s = inject(FaultKind.WORKER_DEATH, 1, fd)) {
                for (int i = 0; i < 4; i++) {
                    bufs[i] = arena.allocate(4096);
                    sqe(ring).prepRead(fd, bufs[i], 0).flags(SqeFlags.ASYNC).userData(i + 1);
                }
                Map<Long, Completion> got = submitAndReapOnce(ring, 4);
                assertErrno(Errno.EINTR, got.get(1L));
                for (long ud = 2; ud <= 4; ud++) {
                    assertEquals(cqe(ud, 4096), got.get(ud));
                    assertPattern(bufs[(int) ud - 1], 0, 4096);
                }
                assertEquals(1, s.injected(FaultKind.WORKER_DEATH));
            }
            Thread dead = thread("jring-iowq-" + wq.name() + "-b0");
            if (dead != null) {
                dead.join(2_000);   // well below the 5 s an idle worker lives
                assertTrue(!dead.isAlive(), dead + " died and must be gone");
            }
            assertTrue(wq.workerCount() <= 1, "workers: " + wq.workerCount());
        }
        });
    }

    @ParameterizedTest
    @MethodSource("ringKinds")
    void workerDyingInAnAsyncRecvAttemptCompletesItOnce(int setup) {
        bounded(() -> {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofConfined(); IoUring ring = ring(setup)) {
            int[] sp = fds.socketPair();
            Fds.write(sp[0], ascii("data"));
            MemorySegment in = arena.allocate(64);
            MemorySegment in2 = arena.allocate(64);
            try (Faults.Session s = inject(FaultKind.WORKER_DEATH, 1, sp[1])) {
                sqe(ring).prepRecv(sp[1], in, 0).flags(SqeFlags.ASYNC).userData(1);
                assertErrno(Errno.EINTR, submitAndReapOnce(ring, 1).get(1L));
            }
            sqe(ring).prepRecv(sp[1], in2, 0).flags(SqeFlags.ASYNC).userData(2);
            assertEquals(cqe(2, 4), submitAndNext(ring).withoutNonEmptyHint(), "the data is still there");
        }
        });
    }

    /** The live thread called {@code name}, or null. */
    private static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst().orElse(null);
    }
}
