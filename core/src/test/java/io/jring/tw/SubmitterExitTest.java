package io.jring.tw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.SqeFlags;
import io.jring.core.ApiAccess;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A submitter thread that exits without reaping loses nothing (issue 16 A2; Linux's
 * io_uring_files_cancel on exit, then fallback task work). Linux 6.18, measured with
 * tool/anchors/dying_submitter.c: a thread exit cancels nothing; what completes later posts
 * its result through the fallback (NOP 0, an O_DIRECT read its length, a TIMEOUT -ETIME at
 * its expiry) and what would have to be retried in the dead task fails (a READ armed on
 * poll: -ECANCELED when the pipe gets data, which stays in the pipe). Once the submitter has
 * ended, another thread may wait on the ring whatever its kind: jring posts every CQE where
 * Linux does, and on DEFER_TASKRUN rings too (Linux leaves those in the dead owner's local
 * list and refuses other tasks' waits with EEXIST; the issue asks that nothing be lost).
 *
 * <p>Each test: a thread submits one kind of request and exits; this thread joins it, then
 * every CQE must be posted exactly once within {@link #BOUND}, and close() must return
 * within {@link #BOUND} leaving none of the ring's threads.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SubmitterExitTest {

    /**
     * Below io-wq's 5 s idle timeout, so nothing may wait for a worker to retire; above what
     * a machine loaded by parallel builds needs for a close (1.1 s seen at load average 50).
     */
    private static final Duration BOUND = Duration.ofSeconds(4);
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    enum RingKind {
        PLAIN(0), SINGLE_ISSUER(Setup.SINGLE_ISSUER), DEFER_TASKRUN(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN);

        final int flags;

        RingKind(int flags) {
            this.flags = flags;
        }
    }

    /** Starts a thread that preps and submits with {@code prep}, then exits; joins it. */
    private static void submitAndExit(IoUring ring, Consumer<IoUring> prep, int expectSubmitted)
            throws InterruptedException {
        runAndExit(ring, r -> {
            prep.accept(r);
            return r.submit();
        }, expectSubmitted);
    }

    /** Starts a thread that runs {@code submit} (returns how many SQEs it submitted), then exits; joins it. */
    private static void runAndExit(IoUring ring, ToIntFunction<IoUring> submit, int expectSubmitted)
            throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int[] submitted = new int[1];
        Thread t = new Thread(() -> {
            try {
                submitted[0] = submit.applyAsInt(ring);
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "exiting-submitter");
        t.start();
        t.join(RingTestSupport.WAIT.toMillis());
        assertFalse(t.isAlive(), "the submitter did not exit");
        assertNull(failure.get(), () -> "the submitter failed: " + failure.get());
        assertEquals(expectSubmitted, submitted[0]);
    }

    /** This thread, not the ring's (dead) submitter, waits for {@code n} CQEs until {@code deadline}. */
    private static List<Completion> collect(IoUring ring, RingKind kind, int n, long deadline) {
        List<Completion> got = new ArrayList<>();
        while (got.size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            Cqe c = ring.waitCqe(Duration.ofNanos(left));
            if (c == null) {
                break;
            }
            got.add(new Completion(c.userData(), c.res(), c.flags()));
            ring.cqeSeen(c);
        }
        return got;
    }

    /** Collects what the exited submitter left: exactly {@code expected} (user data -> res), once each, in time. */
    private static void assertEachPostedOnceInTime(IoUring ring, RingKind kind, Map<Long, Integer> expected) {
        long start = System.nanoTime();
        List<Completion> got = collect(ring, kind, expected.size(), start + BOUND.toNanos());
        long took = System.nanoTime() - start;
        Map<Long, Integer> byUd = new TreeMap<>();
        for (Completion c : got) {
            assertNull(byUd.put(c.userData(), c.res()), "duplicate CQE for " + c.userData());
        }
        assertEquals(expected, byUd, "CQEs posted within " + BOUND + " (took " + took / MS + " ms)");
        assertTrue(took < BOUND.toNanos(), "took " + took / MS + " ms");
        assertNull(ring.peekCqe(), "nothing more");
    }

    /** close() returns within the bound and leaves none of the ring's threads (io-wq, timer, AIO reaper). */
    private static void assertClosesPromptly(IoUring ring) {
        String suffix = "-r" + ApiAccess.get().contextOf(ring).id();
        long start = System.nanoTime();
        ring.close();
        long took = System.nanoTime() - start;
        assertTrue(took < BOUND.toNanos(), "close took " + took / MS + " ms");
        List<String> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String name = t.getName();
            if (t.isAlive() && name.startsWith("jring-") && (name.endsWith(suffix) || name.contains(suffix + "-"))) {
                left.add(name);
            }
        }
        assertEquals(List.of(), left, "threads of the closed ring");
    }

    private static IoUring ring(RingKind kind, int entries) {
        return IoUring.builder().entries(entries).flags(kind.flags).build();
    }

    private static Map<Long, Integer> each(long firstUd, int n, int res) {
        Map<Long, Integer> m = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            m.put(firstUd + i, res);
        }
        return m;
    }

    /**
     * Inline: NOPs complete in the submit itself; 3 x 64 on a CQ of 128 leave 64 in the
     * overflow list, which move in as the other thread makes room (Linux: its wait flushes
     * them on plain and SINGLE_ISSUER rings).
     */
    @ParameterizedTest
    @EnumSource(RingKind.class)
    void inlineCompletionsOfAnExitedSubmitterReachTheRingOverflowIncluded(RingKind kind) throws InterruptedException {
        IoUring ring = IoUring.builder().entries(64).cqEntries(128).flags(kind.flags).build();
        runAndExit(ring, r -> {
            int n = 0;
            for (int s = 0; s < 3; s++) {
                RingTestSupport.prepNops(r, s * 64, 64, 0);
                n += r.submit();
            }
            return n;
        }, 192);
        assertEachPostedOnceInTime(ring, kind, each(0, 192, 0));
        assertClosesPromptly(ring);
    }

    /** io-wq: ASYNC NOPs behind one worker, most still queued when the submitter exits; each posts 0. */
    @ParameterizedTest
    @EnumSource(RingKind.class)
    void ioWqCompletionsOfAnExitedSubmitterReachTheRing(RingKind kind) throws InterruptedException {
        IoUring ring = ring(kind, 64);
        submitAndExit(ring, r -> {
            r.registerIoWqMaxWorkers(1, 1);
            RingTestSupport.prepNops(r, 0, 32, SqeFlags.ASYNC);
        }, 32);
        assertEachPostedOnceInTime(ring, kind, each(0, 32, 0));
        assertClosesPromptly(ring);
    }

    /**
     * Poll: a READ armed on an empty pipe; when the pipe gets data the dead submitter cannot
     * retry it: -ECANCELED, and the data stays in the pipe for whoever reads it next.
     */
    @ParameterizedTest
    @EnumSource(RingKind.class)
    void pollArmedReadOfAnExitedSubmitterIsCancelledAndTakesNoData(RingKind kind) throws InterruptedException {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared()) {
            int[] pipe = fds.pipe();
            MemorySegment buf = arena.allocate(64);
            IoUring ring = ring(kind, 8);
            submitAndExit(ring, r -> r.getSqe().prepRead(pipe[0], buf, 0).userData(100), 1);
            assertEquals(5, Fds.write(pipe[1], "hello".getBytes()));
            assertEachPostedOnceInTime(ring, kind, Map.of(100L, -Errno.ECANCELED));
            assertClosesPromptly(ring);
            byte[] back = new byte[64];
            assertEquals(5, Fds.read(pipe[0], back), "the cancelled READ took no data");
            assertArrayEquals("hello".getBytes(), Arrays.copyOf(back, 5));
        }
    }

    /** Timer: a TIMEOUT of 100 ms outlives its submitter and expires into the ring: -ETIME. */
    @ParameterizedTest
    @EnumSource(RingKind.class)
    void timeoutOfAnExitedSubmitterExpiresIntoTheRing(RingKind kind) throws InterruptedException {
        IoUring ring = ring(kind, 8);
        submitAndExit(ring, r -> r.getSqe().prepTimeout(100 * MS, 0, 0).userData(200), 1);
        assertEachPostedOnceInTime(ring, kind, Map.of(200L, -Errno.ETIME));
        assertClosesPromptly(ring);
    }

    /** Device: O_DIRECT reads through DirectIo, completing after the submitter exited: each its length, with its data. */
    @ParameterizedTest
    @EnumSource(RingKind.class)
    void directReadsOfAnExitedSubmitterCompleteWithTheirData(RingKind kind) throws Exception {
        int blocks = 8;
        byte[] data = new byte[blocks * 4096];
        for (int b = 0; b < blocks; b++) {
            Arrays.fill(data, b * 4096, (b + 1) * 4096, (byte) (b + 1));
        }
        Path f = dir.resolve("direct");
        Files.write(f, data);
        int fd = openDirect(f);
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared()) {
            fds.add(fd);
            MemorySegment[] bufs = new MemorySegment[blocks];
            for (int b = 0; b < blocks; b++) {
                bufs[b] = arena.allocate(4096, 4096);
            }
            IoUring ring = ring(kind, 16);
            int id = ApiAccess.get().contextOf(ring).id();
            submitAndExit(ring, r -> {
                for (int b = 0; b < blocks; b++) {
                    r.getSqe().prepRead(fd, bufs[b], b * 4096L).userData(300 + b);
                }
            }, blocks);
            assertEachPostedOnceInTime(ring, kind, each(300, blocks, 4096));
            assertTrue(Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().equals("jring-aio-r" + id)), "the reads went through DirectIo");
            for (int b = 0; b < blocks; b++) {
                assertEquals((byte) (b + 1), bufs[b].get(ValueLayout.JAVA_BYTE, 0));
                assertEquals((byte) (b + 1), bufs[b].get(ValueLayout.JAVA_BYTE, 4095));
            }
            assertClosesPromptly(ring);
        }
    }

    /** The issue's example: 32 ASYNC NOPs and a READ on an empty pipe, then the pipe gets data. */
    @ParameterizedTest
    @EnumSource(RingKind.class)
    void asyncNopsAndAPipeReadOfAnExitedSubmitterAllReachTheRing(RingKind kind) throws InterruptedException {
        try (Descriptors fds = new Descriptors(); Arena arena = Arena.ofShared()) {
            int[] pipe = fds.pipe();
            MemorySegment buf = arena.allocate(64);
            IoUring ring = ring(kind, 64);
            submitAndExit(ring, r -> {
                RingTestSupport.prepNops(r, 0, 32, SqeFlags.ASYNC);
                r.getSqe().prepRead(pipe[0], buf, 0).userData(100);
            }, 33);
            assertEquals(5, Fds.write(pipe[1], "hello".getBytes()));
            Map<Long, Integer> expected = each(0, 32, 0);
            expected.put(100L, -Errno.ECANCELED);
            assertEachPostedOnceInTime(ring, kind, expected);
            assertClosesPromptly(ring);
        }
    }

    /** An O_DIRECT descriptor for {@code f}, or the test is skipped where the file system has none (tmpfs). */
    private static int openDirect(Path f) throws IOException {
        try {
            return Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        } catch (IoUringException e) {
            Assumptions.assumeTrue(e.errno() != Errno.EINVAL, "no O_DIRECT on " + f.getParent() + ": " + e.getMessage());
            throw e;
        }
    }
}
