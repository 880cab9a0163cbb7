package io.jring.ops;

import static io.jring.testkit.RingTestSupport.cqe;
import static io.jring.testkit.RingTestSupport.next;
import static io.jring.testkit.RingTestSupport.ring;
import static io.jring.testkit.RingTestSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A read of a regular file that found only part of it in the page cache waits for the rest
 * of its pages, as Linux's __io_read arms a page wait (IOCB_WAITQ) on a file system with
 * buffered async reads (ext4, xfs, btrfs, block devices): it is neither in io-wq nor in the
 * poll table, so ASYNC_CANCEL finds nothing (-ENOENT) and the read completes with all its
 * bytes (checked with liburing on 6.18: {@code ud=2 res=-2}, {@code ud=1 res=1048576}). The
 * one bounded worker is kept busy by an ASYNC OPENAT of a FIFO's writing end, which blocks
 * until a reader comes, so a read handed to io-wq would surely still be queued there.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PageWaitCancelTest {
    private static final int PAGE = 4096;
    private static final int SIZE = 1 << 20;
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
    void readWaitingForItsPagesIsNotFoundByCancelAndReadsEverything(int setup) throws Throwable {
        byte[] data = FileOps.pattern(7, SIZE);
        Path file = dir.resolve("f");
        Files.write(file, data);
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(), "mkfifo");
        int fd = Fds.open(file, OpenFlags.RDONLY, 0);
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            // Only the first page in the page cache: written back, dropped, read again without readahead.
            Fds.fsync(fd, false);
            assertEquals(0, (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED));
            assertEquals(0, (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_RANDOM));
            assertEquals(PAGE, Fds.read(fd, new byte[PAGE]));
            ring.registerIoWqMaxWorkers(1, 0);
            sqe(ring).prepOpenat(Fds.AT_FDCWD, fifo.toString(), OpenFlags.WRONLY, 0).flags(SqeFlags.ASYNC).userData(9);
            ring.submit();
            try {
                MemorySegment buf = arena.allocate(SIZE);
                sqe(ring).prepRead(fd, buf, 0).userData(1);
                ring.submit();
                sqe(ring).prepCancel(1, 0).userData(2);
                ring.submit();
                // The read may finish before the cancel is submitted: its CQE may come first.
                List<Completion> done = new java.util.ArrayList<>(next(ring, 2));
                done.sort(java.util.Comparator.comparingLong(Completion::userData));
                assertEquals(List.of(cqe(1, SIZE), cqe(2, -Errno.ENOENT)), done,
                        "the read waits for its pages, not in io-wq, and reads everything");
                assertArrayEquals(data, buf.toArray(ValueLayout.JAVA_BYTE));
            } finally {
                int reader = Fds.open(fifo, OpenFlags.RDONLY | OpenFlags.NONBLOCK, 0);
                Completion opened = next(ring, 1).get(0);
                Fds.close(reader);
                assertTrue(opened.res() >= 0, "the blocked OPENAT: " + opened);
                Fds.close(opened.res());
            }
        } finally {
            Fds.close(fd);
        }
    }
}
