package io.jring.ops;

import static io.jring.ops.FileOps.alignedBuffer;
import static io.jring.ops.FileOps.alignedCopy;
import static io.jring.ops.FileOps.buffer;
import static io.jring.ops.FileOps.bytes;
import static io.jring.ops.FileOps.contents;
import static io.jring.ops.FileOps.cqe;
import static io.jring.ops.FileOps.file;
import static io.jring.ops.FileOps.filled;
import static io.jring.ops.FileOps.ioWq;
import static io.jring.ops.FileOps.nativeCopy;
import static io.jring.ops.FileOps.one;
import static io.jring.ops.FileOps.pattern;
import static io.jring.ops.FileOps.range;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.SqeFlags;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mirrors {@link SingleBufferRwOp} with {@link RwOp} (IORING_OP_READ / IORING_OP_WRITE;
 * liburing test/read-write.c): inline page-cache hits, punts to io-wq (ASYNC, O_DIRECT, a
 * partial page-cache hit, an empty pipe), short reads at EOF, explicit offsets and -1.
 */
@Timeout(20)
class ReadWriteTest extends RingAndArenaFixture {
    ReadWriteTest() {
        super(32);
    }

    @Test
    void readOfCachedFileCompletesInlineWithFileData() throws Exception {
        byte[] data = pattern(1, 8192);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment buf = buffer(arena, 4096, 0);
            assertEquals(cqe(11, 4096), one(ring, s -> s.prepRead(fd, buf, 1000).userData(11)));
            assertArrayEquals(range(data, 1000, 5096), bytes(buf));
            // The file was just written, so its pages are cached: no worker was ever needed.
            assertEquals(0, ioWq(ring).workerCount(), "a page-cache hit must complete inline");
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void writtenDataIsReadBack(int sqeFlags) throws Exception {
        Path p = dir.resolve("w");
        int fd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            byte[] data = pattern(2, 10_000);
            MemorySegment src = nativeCopy(arena, data);
            assertEquals(cqe(1, 10_000), one(ring, s -> s.prepWrite(fd, src, 0).userData(1).flags(sqeFlags)));
            MemorySegment dst = buffer(arena, 10_000, 0);
            assertEquals(cqe(2, 10_000), one(ring, s -> s.prepRead(fd, dst, 0).userData(2).flags(sqeFlags)));
            assertArrayEquals(data, bytes(dst));
            assertArrayEquals(data, contents(p));
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void shortReadAtEofReportsBytesRead(int sqeFlags) throws Exception {
        byte[] data = pattern(3, 5000);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment buf = buffer(arena, 4096, 0x55);
            assertEquals(cqe(3, 904), one(ring, s -> s.prepRead(fd, buf, 4096).userData(3).flags(sqeFlags)));
            assertArrayEquals(range(data, 4096, 5000), bytes(buf.asSlice(0, 904)));
            assertArrayEquals(filled(4096 - 904, 0x55), bytes(buf.asSlice(904)), "bytes past EOF were touched");
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void readAtOrPastEofReturnsZero(int sqeFlags) throws Exception {
        int fd = Fds.open(file(dir, "f", pattern(4, 5000)), OpenFlags.RDONLY, 0);
        try {
            MemorySegment buf = buffer(arena, 100, 0);
            assertEquals(cqe(4, 0), one(ring, s -> s.prepRead(fd, buf, 5000).userData(4).flags(sqeFlags)));
            assertEquals(cqe(5, 0), one(ring, s -> s.prepRead(fd, buf, 1 << 20).userData(5).flags(sqeFlags)));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void zeroLengthReadAndWriteReturnZero() throws Exception {
        byte[] data = pattern(5, 100);
        Path p = file(dir, "f", data);
        int fd = Fds.open(p, OpenFlags.RDWR, 0);
        try {
            MemorySegment empty = arena.allocate(0);
            assertEquals(cqe(6, 0), one(ring, s -> s.prepRead(fd, empty, 0).userData(6)));
            assertEquals(cqe(7, 0), one(ring, s -> s.prepWrite(fd, empty, 50).userData(7)));
            assertArrayEquals(data, contents(p));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void explicitOffsetReadsThereAndLeavesFilePositionAlone() throws Exception {
        byte[] data = pattern(6, 3 * 4096);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment buf = buffer(arena, 4096, 0);
            assertEquals(cqe(1, 4096), one(ring, s -> s.prepRead(fd, buf, 8192).userData(1)));
            assertArrayEquals(range(data, 8192, 12288), bytes(buf));
            // The file position is still 0: offset -1 reads from the start.
            assertEquals(cqe(2, 4096), one(ring, s -> s.prepRead(fd, buf, -1).userData(2)));
            assertArrayEquals(range(data, 0, 4096), bytes(buf));
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void sequentialReadsAtOffsetMinusOneReturnConsecutiveData(int sqeFlags) throws Exception {
        byte[] data = pattern(7, 7000);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment a = buffer(arena, 3000, 0);
            MemorySegment b = buffer(arena, 3000, 0);
            MemorySegment c = buffer(arena, 3000, 0);
            assertEquals(cqe(1, 3000), one(ring, s -> s.prepRead(fd, a, -1).userData(1).flags(sqeFlags)));
            assertEquals(cqe(2, 3000), one(ring, s -> s.prepRead(fd, b, -1).userData(2).flags(sqeFlags)));
            assertEquals(cqe(3, 1000), one(ring, s -> s.prepRead(fd, c, -1).userData(3).flags(sqeFlags)));
            assertArrayEquals(range(data, 0, 3000), bytes(a));
            assertArrayEquals(range(data, 3000, 6000), bytes(b));
            assertArrayEquals(range(data, 6000, 7000), bytes(c, 0, 1000));
            assertEquals(0, Fds.read(fd, new byte[10]), "the file position must be at EOF");
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void sequentialWritesAtOffsetMinusOneAppendAtFilePosition(int sqeFlags) throws Exception {
        Path p = dir.resolve("w");
        int fd = Fds.open(p, OpenFlags.WRONLY | OpenFlags.CREAT, 0644);
        try {
            MemorySegment hello = nativeCopy(arena, "hello ".getBytes());
            MemorySegment world = nativeCopy(arena, "world".getBytes());
            assertEquals(cqe(1, 6), one(ring, s -> s.prepWrite(fd, hello, -1).userData(1).flags(sqeFlags)));
            assertEquals(cqe(2, 5), one(ring, s -> s.prepWrite(fd, world, -1).userData(2).flags(sqeFlags)));
            assertEquals("hello world", new String(contents(p)));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void readIntoSliceTouchesOnlyThatSlice() throws Exception {
        byte[] data = pattern(8, 1000);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment whole = buffer(arena, 300, 0x7A);
            MemorySegment slice = whole.asSlice(100, 50);
            assertEquals(cqe(1, 50), one(ring, s -> s.prepRead(fd, slice, 10).userData(1)));
            assertArrayEquals(filled(100, 0x7A), bytes(whole, 0, 100));
            assertArrayEquals(range(data, 10, 60), bytes(whole, 100, 50));
            assertArrayEquals(filled(150, 0x7A), bytes(whole, 150, 150));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void lenSmallerThanBufferTransfersOnlyLenBytes() throws Exception {
        byte[] data = pattern(9, 1000);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment buf = buffer(arena, 100, 0x11);
            assertEquals(cqe(1, 10), one(ring, s -> s.prepRead(fd, buf, 0).len(10).userData(1)));
            assertArrayEquals(range(data, 0, 10), bytes(buf, 0, 10));
            assertArrayEquals(filled(90, 0x11), bytes(buf, 10, 90));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void asyncReadRunsInIoWqAndReturnsFileData() throws Exception {
        byte[] data = pattern(10, 1 << 20);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment buf = buffer(arena, 1 << 20, 0);
            assertEquals(cqe(1, 1 << 20), one(ring, s -> s.prepRead(fd, buf, 0).userData(1).flags(SqeFlags.ASYNC)));
            assertArrayEquals(data, bytes(buf));
            assertTrue(ioWq(ring).workerCount(true) >= 1, "ASYNC must go through a bounded io-wq worker");
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void directReadGoesToTheDeviceAndReturnsFileData() throws Exception {
        byte[] data = pattern(11, 4 * 4096);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try {
            MemorySegment buf = alignedBuffer(arena, 8192, 0);
            assertEquals(cqe(1, 8192), one(ring, s -> s.prepRead(fd, buf, 4096).userData(1)));
            assertArrayEquals(range(data, 4096, 12288), bytes(buf));
            // O_DIRECT cannot be done with RWF_NOWAIT by a synchronous call: it goes to the device
            // through native AIO (a reaper thread, no io-wq worker), or to io-wq where AIO is missing.
            boolean reaper = Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("jring-aio-"));
            assertTrue(reaper || ioWq(ring).workerCount(true) >= 1,
                    "an O_DIRECT read must go to the device (AIO reaper) or io-wq, never inline");
            assertTrue(!reaper || ioWq(ring).workerCount(true) == 0, "with AIO, no io-wq worker is needed");
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void directWriteIsReadBackDirectAndBuffered(int sqeFlags) throws Exception {
        Path p = dir.resolve("d");
        int dfd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT | OpenFlags.DIRECT, 0644);
        try {
            byte[] data = pattern(12, 3 * 4096);
            MemorySegment src = alignedCopy(arena, data);
            assertEquals(cqe(1, data.length), one(ring, s -> s.prepWrite(dfd, src, 4096).userData(1).flags(sqeFlags)));
            MemorySegment dst = alignedBuffer(arena, data.length, 0);
            assertEquals(cqe(2, data.length), one(ring, s -> s.prepRead(dfd, dst, 4096).userData(2).flags(sqeFlags)));
            assertArrayEquals(data, bytes(dst));
            byte[] onDisk = contents(p);
            assertEquals(4 * 4096, onDisk.length);
            assertArrayEquals(new byte[4096], range(onDisk, 0, 4096), "the hole before the write must read as zeros");
            assertArrayEquals(data, range(onDisk, 4096, 4 * 4096));
        } finally {
            Fds.close(dfd);
        }
    }

    @Test
    void directShortReadAtEofReportsBytesRead() throws Exception {
        byte[] data = pattern(13, 6000);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try {
            MemorySegment buf = alignedBuffer(arena, 8192, 0);
            assertEquals(cqe(1, 6000 - 4096), one(ring, s -> s.prepRead(fd, buf, 4096).userData(1)));
            assertArrayEquals(range(data, 4096, 6000), bytes(buf, 0, 6000 - 4096));
        } finally {
            Fds.close(fd);
        }
    }

    /**
     * The first half of the file is in the page cache, the second half was just invalidated
     * by an O_DIRECT write: the RWF_NOWAIT attempt returns the first half, io-wq reads the
     * rest, and the CQE reports the whole read as one result (as Linux's io_read retry).
     */
    @Test
    void partialPageCacheHitCompletesAsOneResult() throws Exception {
        int half = 16 * 4096;
        byte[] first = pattern(14, 2 * half);
        Path p = file(dir, "f", first);
        byte[] second = pattern(15, half);
        int dfd = Fds.open(p, OpenFlags.WRONLY | OpenFlags.DIRECT, 0);
        int fd = Fds.open(p, OpenFlags.RDONLY, 0);
        try {
            MemorySegment src = alignedCopy(arena, second);
            assertEquals(cqe(1, half), one(ring, s -> s.prepWrite(dfd, src, half).userData(1)));
            MemorySegment buf = buffer(arena, 2 * half, 0);
            assertEquals(cqe(2, 2 * half), one(ring, s -> s.prepRead(fd, buf, 0).userData(2)));
            assertArrayEquals(range(first, 0, half), bytes(buf, 0, half));
            assertArrayEquals(second, bytes(buf, half, half));
        } finally {
            Fds.close(fd);
            Fds.close(dfd);
        }
    }

    @Test
    void pipeReadWaitsInIoWqUntilDataArrives() throws Exception {
        int[] p = Fds.pipe();
        try {
            MemorySegment buf = buffer(arena, 64, 0);
            ring.getSqe().prepRead(p[0], buf, -1).userData(21);
            assertEquals(1, ring.submit());
            assertNull(ring.peekCqe(), "a read of an empty pipe cannot have completed");
            byte[] msg = "through io-wq".getBytes();
            assertEquals(msg.length, Fds.write(p[1], msg));
            Completion c = RingTestSupport.reap(ring, 1).get(0);
            assertEquals(cqe(21, msg.length), c);
            assertArrayEquals(msg, bytes(buf, 0, msg.length));
        } finally {
            Fds.close(p[1]);   // unblocks the worker if the test failed before the write
            Fds.close(p[0]);
        }
    }

    /**
     * As Linux (io_uring's unbound_nonreg_file): a read of a pipe may wait forever, so in
     * io-wq it runs on the unbound account and cannot hold up file reads on the bounded one,
     * even with a single bounded worker.
     */
    @Test
    void blockedPipeReadDoesNotHoldUpFileReadsInIoWq() throws Exception {
        byte[] data = pattern(17, 4096);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        int[] p = Fds.pipe();
        try {
            ring.registerIoWqMaxWorkers(1, 0);
            MemorySegment pipeBuf = buffer(arena, 16, 0);
            MemorySegment fileBuf = buffer(arena, 4096, 0);
            ring.getSqe().prepRead(p[0], pipeBuf, -1).userData(1).flags(SqeFlags.ASYNC);
            ring.getSqe().prepRead(fd, fileBuf, 0).userData(2).flags(SqeFlags.ASYNC);
            assertEquals(2, ring.submit());
            assertEquals(cqe(2, 4096), RingTestSupport.reap(ring, 1).get(0), "the file read waited for the pipe");
            assertArrayEquals(data, bytes(fileBuf));
            assertEquals(3, Fds.write(p[1], "end".getBytes()));
            assertEquals(cqe(1, 3), RingTestSupport.reap(ring, 1).get(0));
        } finally {
            Fds.close(p[1]);   // unblocks the pipe read if the test failed before the write
            Fds.close(p[0]);
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void pipeWriteAndReadAtOffsetMinusOne(int sqeFlags) {
        int[] p = Fds.pipe();
        try {
            byte[] msg = "pipe data".getBytes();
            MemorySegment src = nativeCopy(arena, msg);
            assertEquals(cqe(1, msg.length), one(ring, s -> s.prepWrite(p[1], src, -1).userData(1).flags(sqeFlags)));
            MemorySegment dst = buffer(arena, 64, 0);
            assertEquals(cqe(2, msg.length), one(ring, s -> s.prepRead(p[0], dst, -1).userData(2).flags(sqeFlags)));
            assertArrayEquals(msg, bytes(dst, 0, msg.length));
        } finally {
            Fds.close(p[1]);
            Fds.close(p[0]);
        }
    }

    @Test
    void batchOfInlineAndAsyncReadsAllComplete() throws Exception {
        byte[] data = pattern(16, 64 * 1024);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment[] bufs = new MemorySegment[16];
            for (int i = 0; i < 16; i++) {
                bufs[i] = buffer(arena, 4096, 0);
                int k = i;
                ring.getSqe().prepRead(fd, bufs[i], k * 4096L).userData(100 + k).flags(k % 2 == 0 ? 0 : SqeFlags.ASYNC);
            }
            assertEquals(16, ring.submit());
            var got = FileOps.reapByUserData(ring, 16);
            for (int i = 0; i < 16; i++) {
                assertEquals(cqe(100 + i, 4096), got.get(100L + i));
                assertArrayEquals(range(data, i * 4096, (i + 1) * 4096), bytes(bufs[i]), "buffer " + i);
            }
        } finally {
            Fds.close(fd);
        }
    }
}
