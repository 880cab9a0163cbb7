package io.jring.ops;

import static io.jring.testkit.RingTestSupport.cqe;
import static io.jring.testkit.RingTestSupport.next;
import static io.jring.testkit.RingTestSupport.ring;
import static io.jring.testkit.RingTestSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A read of a regular file that found only part of it in the page cache finishes in io-wq
 * ({@link RwOp}, as Linux's __io_read with bytes_done); cancelled while it waits there, it
 * completes with the bytes it already read, not -ECANCELED (Linux's io_rw_fail). The one
 * bounded worker is kept busy by an ASYNC OPENAT of a FIFO's writing end, which blocks until
 * a reader comes, so the read is surely still queued when the cancel looks for it.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PartialReadCancelTest {
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
    void cancelledReadOfAPartlyCachedFileReportsTheBytesItRead(int setup) throws Throwable {
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
                List<Completion> done = next(ring, 2);
                assertEquals(cqe(2, 0), done.get(0), "the read waited in io-wq: " + done);
                Completion read = done.get(1);
                assertEquals(1, read.userData());
                assertTrue(read.res() >= PAGE && read.res() < SIZE, "the cached part, not -ECANCELED: " + read);
                assertArrayEquals(Arrays.copyOf(data, read.res()),
                        buf.asSlice(0, read.res()).toArray(ValueLayout.JAVA_BYTE));
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
