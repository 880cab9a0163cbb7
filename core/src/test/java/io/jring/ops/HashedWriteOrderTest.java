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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.SqeFlags;
import io.jring.core.Request;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mirrors {@link RwOp#preparePunt} with io-wq's hashing (Linux hashes buffered writes by
 * inode, {@code io_wq_hash_work}): ASYNC writes to one file run one at a time in submission
 * order, so writes to the same offset leave the last one's bytes.
 */
@Timeout(20)
class HashedWriteOrderTest extends RingAndArenaFixture {
    HashedWriteOrderTest() {
        super(128);
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
            // 64 KiB each, so that unordered writes would overlap in time on several workers.
            int size = 64 * 1024;
            for (int i = 0; i < 50; i++) {
                MemorySegment src = nativeCopy(arena, filled(size, i + 1));
                ring.getSqe().prepWrite(fd, src, 0).userData(i).flags(SqeFlags.ASYNC);
            }
            assertEquals(50, ring.submit());
            Map<Long, Completion> got = FileOps.reapByUserData(ring, 50);
            for (long i = 0; i < 50; i++) {
                assertEquals(cqe(i, size), got.get(i));
            }
            assertArrayEquals(filled(size, 50), contents(p), "hashed writes must run in submission order");
            assertTrue(ioWq(ring).workerCount(true) >= 1);
        } finally {
            Fds.close(fd);
        }
    }

    /**
     * The hashing itself, seen in io-wq's queue while its only bounded worker is held:
     * buffered writes to one file share one non-zero key, another file has another, and
     * O_DIRECT writes and reads are not hashed (as Linux: only buffered writes to regular
     * files are). The queue is inspected through cancel() with a predicate that records and
     * never matches.
     */
    @Test
    void bufferedWritesAreHashedPerFileAndNothingElseIs() throws Exception {
        Path pa = dir.resolve("a");
        Path pb = dir.resolve("b");
        int fa = Fds.open(pa, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        int fb = Fds.open(pb, OpenFlags.RDWR | OpenFlags.CREAT, 0644);
        int fc = Fds.open(dir.resolve("c"), OpenFlags.RDWR | OpenFlags.CREAT | OpenFlags.DIRECT, 0644);
        FileOps.Blocker blocker = new FileOps.Blocker();
        try {
            ring.registerIoWqMaxWorkers(1, 0);
            ioWq(ring).enqueue(blocker);
            RingTestSupport.await(blocker.started);
            MemorySegment small = nativeCopy(arena, filled(100, 7));
            ring.getSqe().prepWrite(fa, small, 0).userData(1).flags(SqeFlags.ASYNC);
            ring.getSqe().prepWrite(fb, small, 0).userData(2).flags(SqeFlags.ASYNC);
            ring.getSqe().prepWritev(fa, new MemorySegment[] {small}, 100).userData(3).flags(SqeFlags.ASYNC);
            ring.getSqe().prepWrite(fb, small, 100).userData(4).flags(SqeFlags.ASYNC);
            ring.getSqe().prepWrite(fc, FileOps.alignedCopy(arena, filled(4096, 8)), 0).userData(5).flags(SqeFlags.ASYNC);
            ring.getSqe().prepRead(fa, FileOps.buffer(arena, 100, 0), 0).userData(6).flags(SqeFlags.ASYNC);
            assertEquals(6, ring.submit());
            assertEquals(6, ioWq(ring).queuedCount());
            Map<Long, Long> keys = new HashMap<>();
            ioWq(ring).cancel(w -> {
                if (w instanceof Request r) {
                    keys.put(r.userData, r.hashKey);
                }
                return false;
            }, true);
            assertEquals(6, keys.size(), keys.toString());
            assertNotEquals(0L, keys.get(1L), "a buffered write to a regular file must be hashed");
            assertNotEquals(0L, keys.get(2L), "a buffered write to a regular file must be hashed");
            assertEquals(keys.get(1L), keys.get(3L), "writes to one file must share a hash key");
            assertEquals(keys.get(2L), keys.get(4L), "writes to one file must share a hash key");
            assertNotEquals(keys.get(1L), keys.get(2L), "two files must hash apart");
            assertEquals(0L, keys.get(5L), "O_DIRECT writes are not hashed");
            assertEquals(0L, keys.get(6L), "reads are not hashed");
            blocker.release();
            Map<Long, Completion> got = FileOps.reapByUserData(ring, 6);
            assertEquals(cqe(1, 100), got.get(1L));
            assertEquals(cqe(2, 100), got.get(2L));
            assertEquals(cqe(3, 100), got.get(3L));
            assertEquals(cqe(4, 100), got.get(4L));
            assertEquals(cqe(5, 4096), got.get(5L));
            // One worker, FIFO: the read ran after write 1 had put 100 bytes at offset 0.
            assertEquals(cqe(6, 100), got.get(6L));
        } finally {
            blocker.release();
            Fds.close(fa);
            Fds.close(fb);
            Fds.close(fc);
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
