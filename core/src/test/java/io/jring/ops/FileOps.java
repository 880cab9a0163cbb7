package io.jring.ops;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jring.IoUring;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.Sqe;
import io.jring.core.ApiAccess;
import io.jring.iowq.IoWork;
import io.jring.iowq.IoWq;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Shared helpers of the file-operation tests (not a test class). Every wait is bounded. */
final class FileOps {
    /** O_DIRECT alignment used by the tests (the page size; ext4 needs the logical block size). */
    static final int ALIGN = 4096;

    private FileOps() {}

    /** The CQE a file operation must produce: file ops never set CQE flags. */
    static Completion cqe(long userData, int res) {
        return new Completion(userData, res, 0);
    }

    /** Prepares one SQE, submits it, and returns its (only) CQE. */
    static Completion one(IoUring ring, Consumer<Sqe> prep) {
        Sqe sqe = ring.getSqe();
        assertNotNull(sqe, "SQ full");
        prep.accept(sqe);
        assertEquals(1, ring.submit(), "the SQE was not consumed");
        return RingTestSupport.reap(ring, 1).get(0);
    }

    /** The next {@code n} CQEs' results by user data, in user-data order (5 s each at most). */
    static java.util.Map<Long, Integer> results(IoUring ring, int n) {
        java.util.Map<Long, Integer> res = new java.util.TreeMap<>();
        while (res.size() < n) {
            io.jring.Cqe c = ring.waitCqe(java.time.Duration.ofSeconds(5));
            assertNotNull(c, "CQEs so far " + res);
            res.put(c.userData(), c.res());
            ring.cqeSeen(c);
        }
        return res;
    }

    /** Waits for {@code n} CQEs and returns them by user data (each user data at most once). */
    static Map<Long, Completion> reapByUserData(IoUring ring, int n) {
        List<Completion> all = RingTestSupport.reap(ring, n);
        Map<Long, Completion> byUd = new HashMap<>();
        for (Completion c : all) {
            assertNull(byUd.put(c.userData(), c), "two CQEs for user data " + c.userData());
        }
        assertNull(ring.peekCqe(), "more CQEs than requests");
        return byUd;
    }

    /** Deterministic pseudo-random bytes. */
    static byte[] pattern(long seed, int n) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }

    /** A native copy of {@code data}. */
    static MemorySegment nativeCopy(Arena arena, byte[] data) {
        MemorySegment s = arena.allocate(Math.max(1, data.length)).asSlice(0, data.length);
        MemorySegment.copy(data, 0, s, JAVA_BYTE, 0, data.length);
        return s;
    }

    /** A {@link #ALIGN}-aligned native copy of {@code data} (for O_DIRECT). */
    static MemorySegment alignedCopy(Arena arena, byte[] data) {
        MemorySegment s = arena.allocate(Math.max(ALIGN, data.length), ALIGN).asSlice(0, data.length);
        MemorySegment.copy(data, 0, s, JAVA_BYTE, 0, data.length);
        return s;
    }

    /** A native buffer of {@code n} bytes, every byte {@code fill} (to see what a read left alone). */
    static MemorySegment buffer(Arena arena, int n, int fill) {
        MemorySegment s = arena.allocate(Math.max(1, n)).asSlice(0, n);
        s.fill((byte) fill);
        return s;
    }

    static MemorySegment alignedBuffer(Arena arena, int n, int fill) {
        MemorySegment s = arena.allocate(n, ALIGN);
        s.fill((byte) fill);
        return s;
    }

    static byte[] bytes(MemorySegment s) {
        return s.toArray(JAVA_BYTE);
    }

    static byte[] bytes(MemorySegment s, long from, int n) {
        return s.asSlice(from, n).toArray(JAVA_BYTE);
    }

    static byte[] range(byte[] b, int from, int to) {
        return java.util.Arrays.copyOfRange(b, from, to);
    }

    static Path file(Path dir, String name, byte[] data) throws IOException {
        return Files.write(dir.resolve(name), data);
    }

    static byte[] contents(Path p) throws IOException {
        return Files.readAllBytes(p);
    }

    /** How many of this process's descriptors name file {@code p} (from /proc/self/fd): leak checks. */
    static int descriptorsOf(Path p) throws IOException {
        Path real = p.toRealPath();
        int n = 0;
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).equals(real)) {
                        n++;
                    }
                } catch (IOException gone) {
                    // closed meanwhile (the listing's own descriptor, for one)
                }
            }
        }
        return n;
    }

    static IoWq ioWq(IoUring ring) {
        return ApiAccess.get().contextOf(ring).ioWq();
    }

    /**
     * A work item that occupies one bounded io-wq worker until {@link #release}: with the
     * bounded limit at 1, requests punted after it stay queued (not running) until then.
     */
    static final class Blocker implements IoWork {
        final CountDownLatch started = new CountDownLatch(1);
        private final CountDownLatch gate = new CountDownLatch(1);

        @Override
        public void runInWorker() {
            started.countDown();
            try {
                gate.await(RingTestSupport.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void cancelQueued() {
            started.countDown();
        }

        @Override
        public boolean isBoundedWork() {
            return true;
        }

        @Override
        public long hashKey() {
            return 0;
        }

        void release() {
            gate.countDown();
        }
    }
}
