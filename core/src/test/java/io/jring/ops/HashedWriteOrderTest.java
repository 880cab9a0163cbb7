package io.jring.ops;

import static io.jring.ops.FileOps.contents;
import static io.jring.ops.FileOps.cqe;
import static io.jring.ops.FileOps.filled;
import static io.jring.ops.FileOps.ioWq;
import static io.jring.ops.FileOps.nativeCopy;
import static io.jring.ops.FileOps.pattern;
import static io.jring.ops.FileOps.range;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.RingTestSupport.Completion;
import io.jring.SqeFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mirrors {@link RwOp#preparePunt} with io-wq's hashing (Linux hashes buffered writes by
 * inode, {@code io_wq_hash_work}): ASYNC writes to one file run one at a time in submission
 * order, so writes to the same offset leave the last one's bytes.
 */
@Timeout(20)
class HashedWriteOrderTest {
    @TempDir Path dir;
    IoUring ring;
    Arena arena;

    @BeforeEach
    void open() {
        ring = IoUring.open(128);
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() {
        ring.close();
        arena.close();
    }

    @Test
    void hundredAsyncWritesAtDistinctOffsetsAllLand() throws Exception {
        Path p = dir.resolve("h");
        int fd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            byte[] expected = pattern(1, 100 * 4096);
            for (int i = 0; i < 100; i++) {
                // Submission order differs from file order: 0, 37, 74, 11, ...
                int block = (i * 37) % 100;
                MemorySegment src = nativeCopy(arena, range(expected, block * 4096, (block + 1) * 4096));
                ring.getSqe().prepWrite(fd, src, block * 4096L).userData(block).flags(SqeFlags.ASYNC);
            }
            assertEquals(100, ring.submit());
            Map<Long, Completion> got = FileOps.reapByUserData(ring, 100);
            for (long i = 0; i < 100; i++) {
                assertEquals(cqe(i, 4096), got.get(i));
            }
            assertArrayEquals(expected, contents(p));
        } finally {
            Fds.close(fd);
        }
    }

    @RepeatedTest(5)
    void asyncWritesToTheSameOffsetLeaveTheLastOnesData() throws Exception {
        Path p = dir.resolve("same");
        int fd = Fds.open(p, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            for (int i = 0; i < 50; i++) {
                MemorySegment src = nativeCopy(arena, filled(4096, i + 1));
                ring.getSqe().prepWrite(fd, src, 0).userData(i).flags(SqeFlags.ASYNC);
            }
            assertEquals(50, ring.submit());
            Map<Long, Completion> got = FileOps.reapByUserData(ring, 50);
            for (long i = 0; i < 50; i++) {
                assertEquals(cqe(i, 4096), got.get(i));
            }
            assertArrayEquals(filled(4096, 50), contents(p), "hashed writes must run in submission order");
            assertTrue(ioWq(ring).workerCount(true) >= 1);
        } finally {
            Fds.close(fd);
        }
    }

    /** Two files are two hashes: writes to each keep their own order. */
    @Test
    void sameOffsetOrderHoldsPerFileWithTwoFilesInterleaved() throws Exception {
        Path pa = dir.resolve("a");
        Path pb = dir.resolve("b");
        int fa = Fds.open(pa, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        int fb = Fds.open(pb, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        try {
            for (int i = 0; i < 60; i++) {
                int f = i % 2 == 0 ? fa : fb;
                MemorySegment src = nativeCopy(arena, filled(1000, i + 1));
                ring.getSqe().prepWrite(f, src, 0).userData(i).flags(SqeFlags.ASYNC);
            }
            assertEquals(60, ring.submit());
            Map<Long, Completion> got = FileOps.reapByUserData(ring, 60);
            for (long i = 0; i < 60; i++) {
                assertEquals(cqe(i, 1000), got.get(i));
            }
            assertArrayEquals(filled(1000, 59), contents(pa));
            assertArrayEquals(filled(1000, 60), contents(pb));
        } finally {
            Fds.close(fa);
            Fds.close(fb);
        }
    }
}
