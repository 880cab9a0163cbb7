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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.SqeFlags;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mirrors {@link VectoredRwOp} (IORING_OP_READV / IORING_OP_WRITEV; liburing test/readv and
 * writev users): gather/scatter order, short reads at EOF, offset -1, more segments than the
 * per-thread iovec scratch (64) inline and in io-wq, the UIO_MAXIOV limit (1024), O_DIRECT,
 * and a partial page-cache hit resumed in io-wq in the middle of the vector.
 */
@Timeout(20)
class VectoredRwTest extends RingAndArenaFixture {
    VectoredRwTest() {
        super(32);
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void writevGathersSegmentsInOrderAndReadvScattersThemBack(int sqeFlags) throws Exception {
        Path p = dir.resolve("v");
        int fd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            byte[] a = pattern(1, 100);
            byte[] b = pattern(2, 4096);
            byte[] c = pattern(3, 7);
            MemorySegment[] src = {nativeCopy(arena, a), nativeCopy(arena, b), nativeCopy(arena, c)};
            assertEquals(cqe(1, 4203), one(ring, s -> s.prepWritev(fd, src, 10).userData(1).flags(sqeFlags)));
            byte[] file = contents(p);
            assertEquals(10 + 4203, file.length);
            assertArrayEquals(concat(a, b, c), range(file, 10, file.length));

            MemorySegment[] dst = {buffer(arena, 7, 0), buffer(arena, 100, 0), buffer(arena, 4096, 0)};
            assertEquals(cqe(2, 4203), one(ring, s -> s.prepReadv(fd, dst, 10).userData(2).flags(sqeFlags)));
            assertArrayEquals(concat(a, b, c), concat(bytes(dst[0]), bytes(dst[1]), bytes(dst[2])));
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void readvShortAtEofFillsLeadingSegmentsOnly(int sqeFlags) throws Exception {
        byte[] data = pattern(4, 5000);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment[] dst = {buffer(arena, 4096, 0x55), buffer(arena, 4096, 0x55), buffer(arena, 4096, 0x55)};
            assertEquals(cqe(3, 5000), one(ring, s -> s.prepReadv(fd, dst, 0).userData(3).flags(sqeFlags)));
            assertArrayEquals(range(data, 0, 4096), bytes(dst[0]));
            assertArrayEquals(range(data, 4096, 5000), bytes(dst[1], 0, 904));
            assertArrayEquals(filled(4096 - 904, 0x55), bytes(dst[1], 904, 4096 - 904));
            assertArrayEquals(filled(4096, 0x55), bytes(dst[2]), "a segment past EOF was touched");
            assertEquals(cqe(4, 0), one(ring, s -> s.prepReadv(fd, dst, 5000).userData(4).flags(sqeFlags)));
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void sequentialReadvAtOffsetMinusOneReturnConsecutiveData(int sqeFlags) throws Exception {
        byte[] data = pattern(5, 600);
        int fd = Fds.open(file(dir, "f", data), OpenFlags.RDONLY, 0);
        try {
            MemorySegment[] first = {buffer(arena, 100, 0), buffer(arena, 150, 0)};
            MemorySegment[] second = {buffer(arena, 50, 0), buffer(arena, 200, 0)};
            assertEquals(cqe(1, 250), one(ring, s -> s.prepReadv(fd, first, -1).userData(1).flags(sqeFlags)));
            assertEquals(cqe(2, 250), one(ring, s -> s.prepReadv(fd, second, -1).userData(2).flags(sqeFlags)));
            assertArrayEquals(range(data, 0, 250), concat(bytes(first[0]), bytes(first[1])));
            assertArrayEquals(range(data, 250, 500), concat(bytes(second[0]), bytes(second[1])));
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void sequentialWritevAtOffsetMinusOneAppendAtFilePosition(int sqeFlags) throws Exception {
        Path p = dir.resolve("w");
        int fd = Fds.open(p, OpenFlags.WRONLY | OpenFlags.CREAT, 0644);
        try {
            MemorySegment[] first = {nativeCopy(arena, "ab".getBytes()), nativeCopy(arena, "cd".getBytes())};
            MemorySegment[] second = {nativeCopy(arena, "ef".getBytes())};
            assertEquals(cqe(1, 4), one(ring, s -> s.prepWritev(fd, first, -1).userData(1).flags(sqeFlags)));
            assertEquals(cqe(2, 2), one(ring, s -> s.prepWritev(fd, second, -1).userData(2).flags(sqeFlags)));
            assertEquals("abcdef", new String(contents(p)));
        } finally {
            Fds.close(fd);
        }
    }

    /** 64 fit the per-thread iovec scratch; more need a larger array, inline and in io-wq. */
    @ParameterizedTest(name = "segments={0} sqeFlags={1}")
    @CsvSource({"64,0", "65,0", "100,0", "1024,0", "65,16", "100,16", "1024,16"})
    void manySegmentsRoundTrip(int segments, int sqeFlags) throws Exception {
        Path p = dir.resolve("many");
        int fd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            byte[] data = pattern(segments, segments * 17);
            MemorySegment[] src = new MemorySegment[segments];
            MemorySegment[] dst = new MemorySegment[segments];
            for (int i = 0; i < segments; i++) {
                src[i] = nativeCopy(arena, range(data, i * 17, (i + 1) * 17));
                dst[i] = buffer(arena, 17, 0);
            }
            assertEquals(cqe(1, data.length), one(ring, s -> s.prepWritev(fd, src, 0).userData(1).flags(sqeFlags)));
            assertArrayEquals(data, contents(p));
            assertEquals(cqe(2, data.length), one(ring, s -> s.prepReadv(fd, dst, 0).userData(2).flags(sqeFlags)));
            ByteArrayOutputStream back = new ByteArrayOutputStream();
            for (MemorySegment d : dst) {
                back.writeBytes(bytes(d));
            }
            assertArrayEquals(data, back.toByteArray());
        } finally {
            Fds.close(fd);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void moreThan1024SegmentsIsEinval(int sqeFlags) throws Exception {
        Path p = file(dir, "f", pattern(6, 2000));
        int fd = Fds.open(p, OpenFlags.RDWR, 0);
        try {
            MemorySegment[] segs = new MemorySegment[1025];
            for (int i = 0; i < segs.length; i++) {
                segs[i] = buffer(arena, 1, 0x33);
            }
            assertEquals(cqe(7, -Errno.EINVAL), one(ring, s -> s.prepReadv(fd, segs, 0).userData(7).flags(sqeFlags)));
            assertEquals(cqe(8, -Errno.EINVAL), one(ring, s -> s.prepWritev(fd, segs, 0).userData(8).flags(sqeFlags)));
            assertArrayEquals(pattern(6, 2000), contents(p), "a rejected writev changed the file");
            assertArrayEquals(filled(1, 0x33), bytes(segs[0]), "a rejected readv touched a buffer");
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void zeroSegmentsTransferNothing() throws Exception {
        Path p = file(dir, "f", pattern(7, 100));
        int fd = Fds.open(p, OpenFlags.RDWR, 0);
        try {
            assertEquals(cqe(1, 0), one(ring, s -> s.prepReadv(fd, new MemorySegment[0], 0).userData(1)));
            assertEquals(cqe(2, 0), one(ring, s -> s.prepWritev(fd, new MemorySegment[0], 0).userData(2)));
            assertArrayEquals(pattern(7, 100), contents(p));
        } finally {
            Fds.close(fd);
        }
    }

    /** No vector at all with a count of 0 is a 0-byte transfer, as Linux's (6.18 + liburing: 0); a count of 1 is -EFAULT. */
    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void nullVectorWithCountZeroTransfersNothing(int sqeFlags) throws Exception {
        Path p = file(dir, "n", pattern(7, 100));
        int fd = Fds.open(p, OpenFlags.RDWR, 0);
        try {
            assertEquals(cqe(1, 0), one(ring, s -> s.prepReadv(fd, null, 0).userData(1).flags(sqeFlags)));
            assertEquals(cqe(2, 0), one(ring, s -> s.prepWritev(fd, null, -1).userData(2).flags(sqeFlags)));
            assertEquals(cqe(3, -Errno.EFAULT), one(ring, s -> s.prepReadv(fd, null, 0).len(1).userData(3).flags(sqeFlags)));
            assertEquals(cqe(4, -Errno.EFAULT), one(ring, s -> s.prepWritev(fd, null, 0).len(1).userData(4).flags(sqeFlags)));
            assertEquals(cqe(5, -Errno.EBADF), one(ring, s -> s.prepReadv(9999, null, 0).userData(5).flags(sqeFlags)));
            assertArrayEquals(pattern(7, 100), contents(p));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void zeroLengthSegmentsAreSkipped() throws Exception {
        Path p = dir.resolve("z");
        int fd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            MemorySegment[] src = {arena.allocate(0), nativeCopy(arena, "12345".getBytes()), arena.allocate(0),
                    nativeCopy(arena, "678".getBytes())};
            assertEquals(cqe(1, 8), one(ring, s -> s.prepWritev(fd, src, 0).userData(1)));
            assertEquals("12345678", new String(contents(p)));
            MemorySegment[] dst = {arena.allocate(0), buffer(arena, 3, 0), arena.allocate(0), buffer(arena, 5, 0)};
            assertEquals(cqe(2, 8), one(ring, s -> s.prepReadv(fd, dst, 0).userData(2).flags(SqeFlags.ASYNC)));
            assertEquals("123", new String(bytes(dst[1])));
            assertEquals("45678", new String(bytes(dst[3])));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void directReadvAndWritevWithAlignedSegments() throws Exception {
        Path p = dir.resolve("d");
        int fd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT | OpenFlags.DIRECT, 0644);
        try {
            byte[] a = pattern(8, 4096);
            byte[] b = pattern(9, 8192);
            MemorySegment[] src = {alignedCopy(arena, a), alignedCopy(arena, b)};
            assertEquals(cqe(1, 12288), one(ring, s -> s.prepWritev(fd, src, 0).userData(1)));
            MemorySegment[] dst = {alignedBuffer(arena, 8192, 0), alignedBuffer(arena, 4096, 0)};
            assertEquals(cqe(2, 12288), one(ring, s -> s.prepReadv(fd, dst, 0).userData(2)));
            assertArrayEquals(concat(a, b), concat(bytes(dst[0]), bytes(dst[1])));
            assertArrayEquals(concat(a, b), contents(p));
            assertTrue(ioWq(ring).workerCount(true) >= 1, "O_DIRECT vectors must be punted to io-wq");
        } finally {
            Fds.close(fd);
        }
    }

    /**
     * The RWF_NOWAIT attempt stops where the page cache ends (mid-vector); io-wq must resume
     * in the right segment at the right byte, and the CQE reports the whole transfer.
     */
    @Test
    void partialPageCacheHitResumesInTheRightSegment() throws Exception {
        int size = 64 * 1024;
        byte[] old = pattern(10, size);
        Path p = file(dir, "f", old);
        byte[] fresh = pattern(11, size - 20 * 1024);
        int dfd = Fds.open(p, OpenFlags.WRONLY | OpenFlags.DIRECT, 0);
        int fd = Fds.open(p, OpenFlags.RDONLY, 0);
        try {
            // Invalidates the cached pages from 20 KiB on.
            assertEquals(cqe(1, fresh.length), one(ring, s -> s.prepWrite(dfd, alignedCopy(arena, fresh), 20 * 1024).userData(1)));
            // Segments of 3000 bytes: the cached part ends inside segment 6 (20480 = 6*3000 + 2480).
            int n = (size + 2999) / 3000;
            MemorySegment[] dst = new MemorySegment[n];
            for (int i = 0; i < n; i++) {
                dst[i] = buffer(arena, 3000, 0);
            }
            assertEquals(cqe(2, size), one(ring, s -> s.prepReadv(fd, dst, 0).userData(2)));
            ByteArrayOutputStream back = new ByteArrayOutputStream();
            for (MemorySegment d : dst) {
                back.writeBytes(bytes(d));
            }
            byte[] expected = concat(range(old, 0, 20 * 1024), fresh);
            assertArrayEquals(expected, range(back.toByteArray(), 0, size));
        } finally {
            Fds.close(fd);
            Fds.close(dfd);
        }
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
