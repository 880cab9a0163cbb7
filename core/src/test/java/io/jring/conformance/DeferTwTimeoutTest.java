package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.DEFER;
import static io.jring.conformance.ConformanceSupport.MS;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.writeLater;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Waiting with a timeout on a DEFER_TASKRUN ring (liburing test/defer-tw-timeout.c): a wait
 * for more completions than will come ends when its timeout does, and the completion whose
 * task work was queued meanwhile has been run by the waiter and is there to reap (buggy
 * kernels left it unprocessed). Here the "wait for two with a timeout" is a TIMEOUT SQE with
 * count 2 (liburing's own way before IORING_ENTER_EXT_ARG) plus submitAndWait(2), and a
 * timed {@code waitCqe}. The plain ring runs the same for comparison.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DeferTwTimeoutTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {DEFER, 0})
    void aWaitForMoreThanComesEndsWithItsTimeoutAndTheReadIsThere(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = IoUring.builder().entries(8).flags(setup).build();
                Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            sqe(ring).prepRead(p[0], arena.allocate(32), -1).userData(1);
            sqe(ring).prepTimeout(1000 * MS, 2, 0).userData(2);
            try (Later<Void> w = writeLater(p[1], "Hello")) {
                assertEquals(2, ring.submitAndWait(2));
            }
            assertEquals(2, ring.cqReady());
            assertEquals(List.of(cqe(1, 5), cqe(2, -Errno.ETIME)), next(ring, 2));
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {DEFER, 0})
    void aTimedWaitRunsTheTaskWorkOfACompletionThatArrivesMeanwhile(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = IoUring.builder().entries(8).flags(setup).build();
                Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment buf = arena.allocate(32);
            sqe(ring).prepRead(p[0], buf, -1).userData(1);
            ring.submit();
            assertNull(ring.waitCqe(Duration.ofMillis(30)), "a timed wait with nothing to reap times out");
            try (Later<Void> w = writeLater(p[1], "Hello")) {
                Cqe c = ring.waitCqe(Duration.ofSeconds(2));
                assertNotNull(c, "the read's task work ran in the wait");
                assertEquals(cqe(1, 5), new ConformanceSupport.Completion(c.userData(), c.res(), c.flags()));
                ring.cqeSeen(c);
            }
            assertEquals("Hello", ConformanceSupport.ascii(buf, 5));
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {DEFER, 0})
    void aTimeoutsExpiryIsDeliveredToATimedWait(int setup) {
        try (IoUring ring = IoUring.builder().entries(8).flags(setup).build()) {
            long start = System.nanoTime();
            sqe(ring).prepTimeout(20 * MS, 0, 0).userData(1);
            ring.submit();
            Cqe c = ring.waitCqe(Duration.ofSeconds(2));
            assertNotNull(c);
            assertEquals(-Errno.ETIME, c.res());
            assertTrue(System.nanoTime() - start >= 20 * MS);
            ring.cqeSeen(c);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {DEFER, 0})
    void aDirectIoReadAndATimeoutForTwo(int setup) throws IOException {
        Path file = Files.createTempFile(dir, "defer-tw-timeout", ".dat");
        Files.write(file, new byte[128 * 1024]);
        // Written back now: an O_DIRECT read of dirty pages first waits for their writeback,
        // which on a slow disk can outlast the timeout and reorder the two CQEs.
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        int fd;
        try {
            fd = Fds.open(file, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        } catch (IoUringException e) {
            Assumptions.assumeTrue(e.errno() != Errno.EINVAL, "no O_DIRECT on " + dir);
            throw e;
        }
        try (OpenFds fds = new OpenFds(); IoUring ring = IoUring.builder().entries(8).flags(setup).build();
                Arena arena = Arena.ofConfined()) {
            fds.add(fd);
            MemorySegment buf = arena.allocate(4096, 4096);
            sqe(ring).prepRead(fd, buf, 0).userData(1);
            sqe(ring).prepTimeout(1000 * MS, 2, 0).userData(2);
            assertEquals(2, ring.submitAndWait(2));
            assertEquals(List.of(cqe(1, 4096), cqe(2, -Errno.ETIME)), next(ring, 2));
            assertNull(ring.peekCqe());
        }
    }
}
