package io.jring.ops;

import static io.jring.testkit.RingTestSupport.next;
import static io.jring.testkit.RingTestSupport.ring;
import static io.jring.testkit.RingTestSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Buffered reads that miss the page cache wait for their pages on the ring's page waiter
 * ({@code PageWaits}, Linux's IOCB_WAITQ retry): many at once, whole and partial misses,
 * each completes once with its own data, and close() leaves no waiter thread behind.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PageWaitsTest {
    private static final int PAGE = 4096;
    private static final int SIZE = 8 << 20;
    private static final int READS = 96;
    private static final int POSIX_FADV_RANDOM = 1;
    private static final int POSIX_FADV_DONTNEED = 4;
    private static final MethodHandle FADVISE = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("posix_fadvise").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));

    @TempDir
    Path dir;

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void coldReadsCompleteOnceWithTheirData(int setup) throws Throwable {
        byte[] data = FileOps.pattern(11, SIZE);
        Path file = dir.resolve("f");
        Files.write(file, data);
        int fd = Fds.open(file, OpenFlags.RDONLY, 0);
        SplittableRandom rnd = new SplittableRandom(18);
        List<Thread> before = waiters();
        try (Arena arena = Arena.ofShared()) {
            try (IoUring ring = ring(setup)) {
                Fds.fsync(fd, false);
                assertEquals(0, (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED));
                assertEquals(0, (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_RANDOM));
                long[] offsets = new long[READS];
                int[] lengths = new int[READS];
                MemorySegment[] bufs = new MemorySegment[READS];
                for (int i = 0; i < READS; i++) {
                    offsets[i] = (long) rnd.nextInt(SIZE / PAGE - 4) * PAGE + (i % 3 == 0 ? 100 : 0);
                    lengths[i] = i % 4 == 0 ? 3 * PAGE : PAGE;
                    if (i % 5 == 0) {
                        Fds.read(fd, new byte[PAGE]);   // some reads start in a cached page: partial misses
                    }
                    bufs[i] = arena.allocate(lengths[i]);
                }
                int submitted = 0;
                int seen = 0;
                boolean[] done = new boolean[READS];
                while (seen < READS) {
                    while (submitted < READS && submitted - seen < 32) {
                        sqe(ring).prepRead(fd, bufs[submitted], offsets[submitted]).userData(submitted);
                        submitted++;
                    }
                    ring.submit();
                    for (Completion c : next(ring, 1)) {
                        int i = (int) c.userData();
                        assertFalse(done[i], "completed twice: " + c);
                        done[i] = true;
                        assertEquals(lengths[i], c.res(), "read " + i);
                        int from = (int) offsets[i];
                        assertArrayEquals(Arrays.copyOfRange(data, from, from + lengths[i]),
                                bufs[i].toArray(ValueLayout.JAVA_BYTE), "data of read " + i);
                        seen++;
                    }
                }
            }
            List<Thread> left = waiters();
            left.removeAll(before);
            assertEquals(List.of(), left, "close() left a page waiter thread");
        } finally {
            Fds.close(fd);
        }
    }

    private static List<Thread> waiters() {
        return new java.util.ArrayList<>(Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("jring-pagewait-") && t.isAlive()).toList());
    }
}
