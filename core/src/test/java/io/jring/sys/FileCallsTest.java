package io.jring.sys;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.OpenFlags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link FileCalls}: the read/write family, its errno mapping and buffer checks. */
class FileCallsTest {
    private final SysCallContext ctx = SysCallContext.confined();
    private final Arena arena = Arena.ofConfined();

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        arena.close();
        ctx.close();
    }

    private MemorySegment bytes(String s) {
        return arena.allocateFrom(s, StandardCharsets.US_ASCII).asSlice(0, s.length());
    }

    private static String string(MemorySegment seg, long len) {
        return new String(seg.asSlice(0, len).toArray(JAVA_BYTE), StandardCharsets.US_ASCII);
    }

    @Test
    void pipeWriteThenReadRoundTrips() {
        int[] p = Fds.pipe();
        try {
            assertEquals(5, FileCalls.write(ctx, p[1], bytes("hello"), 5));
            MemorySegment dst = arena.allocate(16);
            assertEquals(5, FileCalls.read(ctx, p[0], dst, 16));
            assertEquals("hello", string(dst, 5));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @Test
    void preadOnPipeIsEspipe() {
        int[] p = Fds.pipe();
        try {
            assertEquals(-Errno.ESPIPE, FileCalls.pread(ctx, p[0], arena.allocate(8), 8, 0));
            assertEquals(Errno.ESPIPE, ctx.lastErrno());
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @Test
    void pwriteThenPreadAndNowaitReadOfPageCachedFile() {
        int fd = Fds.open(dir.resolve("f"), OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            assertEquals(10, FileCalls.pwrite(ctx, fd, bytes("0123456789"), 10, 0));
            MemorySegment dst = arena.allocate(4);
            assertEquals(4, FileCalls.pread(ctx, fd, dst, 4, 3));
            assertEquals("3456", string(dst, 4));

            // Just written, so in the page cache: RWF_NOWAIT must complete inline.
            dst.fill((byte) 0);
            assertEquals(4, FileCalls.preadNowait(ctx, fd, dst, 4, 6));
            assertEquals("6789", string(dst, 4));
            assertEquals(0, FileCalls.preadNowait(ctx, fd, dst, 4, 100), "at EOF");
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void nowaitWriteEitherCompletesOrSaysPunt() {
        int fd = Fds.open(dir.resolve("w"), OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            long r = FileCalls.pwriteNowait(ctx, fd, bytes("abcd"), 4, 0);
            // Buffered NOWAIT writes depend on the filesystem: done, or "retry blocking".
            assertTrue(r == 4 || r == -Errno.EAGAIN || r == -Errno.EOPNOTSUPP, "got " + r);
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void vectoredWriteAndReadUseTheContextIovecs() {
        int fd = Fds.open(dir.resolve("v"), OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            MemorySegment iov = ctx.iovecs();
            assertEquals(0, Structs.Iovec.set(iov, 0, bytes("abc"), 3));
            assertEquals(0, Structs.Iovec.set(iov, 1, bytes("defg"), 4));
            assertEquals(7, FileCalls.pwritev2(ctx, fd, iov, 2, 0, FileCalls.RWF_DSYNC));

            MemorySegment a = arena.allocate(2);
            MemorySegment b = arena.allocate(5);
            Structs.Iovec.set(iov, 0, a, 2);
            Structs.Iovec.set(iov, 1, b, 5);
            assertEquals(7, FileCalls.preadv2Nowait(ctx, fd, iov, 2, 0, 0));
            assertEquals("ab", string(a, 2));
            assertEquals("cdefg", string(b, 5));

            assertEquals(0, FsCalls.lseek(ctx, fd, 0, FsCalls.SEEK_SET));
            Structs.Iovec.set(iov, 0, b, 5);
            assertEquals(5, FileCalls.readv(ctx, fd, iov, 1));
            assertEquals("abcde", string(b, 5));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void badBuffersAreRejectedBeforeTheKernelSeesThem() {
        int[] p = Fds.pipe();
        try {
            assertEquals(-Errno.EINVAL, FileCalls.read(ctx, p[0], MemorySegment.ofArray(new byte[8]), 8));
            assertEquals(-Errno.EFAULT, FileCalls.read(ctx, p[0], arena.allocate(4), 8), "longer than the segment");
            Arena closed = Arena.ofConfined();
            MemorySegment gone = closed.allocate(8);
            closed.close();
            assertEquals(-Errno.EFAULT, FileCalls.write(ctx, p[1], gone, 8));
            assertEquals(-Errno.EINVAL, Structs.Iovec.set(ctx.iovecs(), 0, MemorySegment.ofArray(new byte[4]), 4));
            assertEquals(-Errno.EINVAL, FileCalls.readv(ctx, p[0], ctx.iovecs(), -1));
            assertEquals(-Errno.EFAULT, FileCalls.readv(ctx, p[0], ctx.iovecs(), SysCallContext.IOVEC_CAPACITY + 1));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @Test
    void truncateAndAllocateChangeTheSize() throws Exception {
        Path file = dir.resolve("t");
        int fd = Fds.open(file, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            assertEquals(0, FsCalls.ftruncate(ctx, fd, 100));
            assertEquals(100, FsCalls.fileSize(ctx, fd));
            int r = FsCalls.fallocate(ctx, fd, 0, 0, 4096);
            assertTrue(r == 0 || r == -Errno.EOPNOTSUPP, "got " + r);
            if (r == 0) {
                assertEquals(4096, Files.size(file));
            }
            assertEquals(0, FsCalls.fsync(ctx, fd));
            assertEquals(0, FsCalls.fdatasync(ctx, fd));
        } finally {
            Fds.close(fd);
        }
    }
}
