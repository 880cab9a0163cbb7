package io.jring.ops;

import static io.jring.ops.FileOps.alignedBuffer;
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

import io.jring.Errno;
import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.SqeFlags;
import io.jring.sys.FileCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mirrors the error contract of {@link RwOp} and {@code io.jring.sys.Buffers} (API.md
 * "Buffers must be native..."; issue 3 "Bad input"): every bad input completes with the
 * exact {@code -errno} and the SQE's user data, inline or with ASYNC, and never throws or
 * crashes. Includes a buffer whose arena is closed while its request waits in io-wq.
 */
@Timeout(20)
class FileErrorsTest extends RingAndArenaFixture {
    static final int BAD_FD = 999_999;

    Path path;
    byte[] data;
    int fd;

    FileErrorsTest() {
        super(16);
    }

    @BeforeEach
    void openFile() throws Exception {
        data = pattern(1, 8192);
        path = file(dir, "f", data);
        fd = Fds.open(path, OpenFlags.RDWR, 0);
    }

    @AfterEach
    void closeFile() {
        Fds.close(fd);
    }

    private void assertFileUnchanged() throws Exception {
        assertArrayEquals(data, contents(path), "a failed request changed the file");
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void heapSegmentIsEinval(int sqeFlags) throws Exception {
        MemorySegment heap = MemorySegment.ofArray(new byte[64]);
        MemorySegment ok = buffer(arena, 64, 0);
        assertEquals(cqe(1, -Errno.EINVAL), one(ring, s -> s.prepRead(fd, heap, 0).userData(1).flags(sqeFlags)));
        assertEquals(cqe(2, -Errno.EINVAL), one(ring, s -> s.prepWrite(fd, heap, 0).userData(2).flags(sqeFlags)));
        assertEquals(cqe(3, -Errno.EINVAL), one(ring, s -> s.prepReadv(fd, new MemorySegment[] {ok, heap}, 0).userData(3).flags(sqeFlags)));
        assertEquals(cqe(4, -Errno.EINVAL), one(ring, s -> s.prepWritev(fd, new MemorySegment[] {heap, ok}, 0).userData(4).flags(sqeFlags)));
        ring.registerBuffers(new MemorySegment[] {ok});
        assertEquals(cqe(5, -Errno.EINVAL), one(ring, s -> s.prepReadFixed(fd, heap, 0, 0).userData(5).flags(sqeFlags)));
        assertEquals(cqe(6, -Errno.EINVAL), one(ring, s -> s.prepWriteFixed(fd, heap, 0, 0).userData(6).flags(sqeFlags)));
        assertArrayEquals(new byte[64], bytes(ok), "a rejected readv touched its native segment");
        assertFileUnchanged();
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void bufferOfClosedArenaIsEfault(int sqeFlags) throws Exception {
        MemorySegment ok = buffer(arena, 64, 0);
        Arena gone = Arena.ofConfined();
        MemorySegment dead = gone.allocate(64);
        gone.close();
        assertEquals(cqe(1, -Errno.EFAULT), one(ring, s -> s.prepRead(fd, dead, 0).userData(1).flags(sqeFlags)));
        assertEquals(cqe(2, -Errno.EFAULT), one(ring, s -> s.prepWrite(fd, dead, 0).userData(2).flags(sqeFlags)));
        assertEquals(cqe(3, -Errno.EFAULT), one(ring, s -> s.prepReadv(fd, new MemorySegment[] {ok, dead}, 0).userData(3).flags(sqeFlags)));
        assertEquals(cqe(4, -Errno.EFAULT), one(ring, s -> s.prepWritev(fd, new MemorySegment[] {dead}, 0).userData(4).flags(sqeFlags)));
        assertEquals(cqe(5, -Errno.EFAULT), one(ring, s -> s.prepReadv(fd, new MemorySegment[] {ok, null}, 0).userData(5).flags(sqeFlags)));
        assertEquals(cqe(6, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fd, dead, 0, 0).userData(6).flags(sqeFlags)));
        assertArrayEquals(new byte[64], bytes(ok));
        assertFileUnchanged();
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void badDescriptorIsEbadf(int sqeFlags) {
        MemorySegment buf = buffer(arena, 64, 0);
        assertEquals(cqe(1, -Errno.EBADF), one(ring, s -> s.prepRead(BAD_FD, buf, 0).userData(1).flags(sqeFlags)));
        assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepWrite(BAD_FD, buf, 0).userData(2).flags(sqeFlags)));
        assertEquals(cqe(3, -Errno.EBADF), one(ring, s -> s.prepReadv(BAD_FD, new MemorySegment[] {buf}, 0).userData(3).flags(sqeFlags)));
        assertEquals(cqe(4, -Errno.EBADF), one(ring, s -> s.prepWritev(BAD_FD, new MemorySegment[] {buf}, -1).userData(4).flags(sqeFlags)));
        assertEquals(cqe(5, -Errno.EBADF), one(ring, s -> s.prepRead(-1, buf, 0).userData(5).flags(sqeFlags)));
        ring.registerBuffers(new MemorySegment[] {buf});
        assertEquals(cqe(6, -Errno.EBADF), one(ring, s -> s.prepReadFixed(BAD_FD, buf, 0, 0).userData(6).flags(sqeFlags)));
        assertEquals(cqe(7, -Errno.EBADF), one(ring, s -> s.prepWriteFixed(BAD_FD, buf, 0, 0).userData(7).flags(sqeFlags)));
    }

    @Test
    void wrongAccessModeIsEbadf() throws Exception {
        int ro = Fds.open(path, OpenFlags.RDONLY, 0);
        int wo = Fds.open(path, OpenFlags.WRONLY, 0);
        try {
            MemorySegment buf = buffer(arena, 64, 0x11);
            assertEquals(cqe(1, -Errno.EBADF), one(ring, s -> s.prepWrite(ro, buf, 0).userData(1)));
            assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepRead(wo, buf, 0).userData(2)));
            assertEquals(cqe(3, -Errno.EBADF), one(ring, s -> s.prepRead(wo, buf, 0).userData(3).flags(SqeFlags.ASYNC)));
            assertArrayEquals(filled(64, 0x11), bytes(buf));
            assertFileUnchanged();
        } finally {
            Fds.close(ro);
            Fds.close(wo);
        }
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void fixedFileIndexOutOfRangeIsEbadf(int sqeFlags) {
        ring.registerFiles(new int[] {fd});
        MemorySegment buf = buffer(arena, 64, 0);
        int flags = SqeFlags.FIXED_FILE | sqeFlags;
        assertEquals(cqe(1, -Errno.EBADF), one(ring, s -> s.prepRead(1, buf, 0).userData(1).flags(flags)));
        assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepWritev(100, new MemorySegment[] {buf}, 0).userData(2).flags(flags)));
        assertEquals(cqe(3, -Errno.EBADF), one(ring, s -> s.prepRead(-5, buf, 0).userData(3).flags(flags)));
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void registeredBufferIndexOutOfRangeIsEfault(int sqeFlags) throws Exception {
        MemorySegment reg = buffer(arena, 64, 0);
        ring.registerBuffers(new MemorySegment[] {reg});
        assertEquals(cqe(1, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fd, reg, 0, 1).userData(1).flags(sqeFlags)));
        assertEquals(cqe(2, -Errno.EFAULT), one(ring, s -> s.prepWriteFixed(fd, reg, 0, 16384).userData(2).flags(sqeFlags)));
        assertEquals(cqe(3, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fd, buffer(arena, 8, 0), 0, 0).userData(3).flags(sqeFlags)));
        assertFileUnchanged();
    }

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void anOffsetOnAPipeIsIgnoredAsInLinux(int sqeFlags) {
        // Linux 6.18 with liburing: WRITE at 100 and WRITEV at 7 on a pipe write, READ at 4096
        // reads: io_uring passes the offset to the pipe, which has no position (pread(2) would
        // say ESPIPE, io_uring does not).
        int[] p = Fds.pipe();
        try {
            MemorySegment buf = nativeCopy(arena, "abc".getBytes());
            assertEquals(cqe(2, 3), one(ring, s -> s.prepWrite(p[1], buf, 100).userData(2).flags(sqeFlags)));
            assertEquals(cqe(3, 3), one(ring, s -> s.prepWritev(p[1], new MemorySegment[] {buf}, 7).userData(3).flags(sqeFlags)));
            MemorySegment in = arena.allocate(6);
            assertEquals(cqe(4, 6), one(ring, s -> s.prepRead(p[0], in, 4096).userData(4).flags(sqeFlags)));
            assertEquals("abcabc", new String(bytes(in)));
            assertEquals(3, Fds.write(p[1], "xyz".getBytes()));
            assertEquals(cqe(5, 3), one(ring, s -> s.prepReadv(p[0], new MemorySegment[] {buf}, 1).userData(5).flags(sqeFlags)));
            assertEquals("xyz", new String(bytes(buf)));
            // Offset -1 is the stream itself.
            assertEquals(3, Fds.write(p[1], "def".getBytes()));
            assertEquals(cqe(6, 3), one(ring, s -> s.prepRead(p[0], buf, -1).userData(6).flags(sqeFlags)));
            assertEquals("def", new String(bytes(buf)));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    /** Offset 0 on a stream means "no offset", as in Linux, where liburing code passes 0 for pipes. */
    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void offsetZeroOnPipeIsTheStream(int sqeFlags) {
        int[] p = Fds.pipe();
        try {
            MemorySegment buf = nativeCopy(arena, "abc".getBytes());
            assertEquals(cqe(1, 3), one(ring, s -> s.prepWrite(p[1], buf, 0).userData(1).flags(sqeFlags)));
            MemorySegment dst = arena.allocate(3);
            assertEquals(cqe(2, 3), one(ring, s -> s.prepRead(p[0], dst, 0).userData(2).flags(sqeFlags)));
            assertEquals("abc", new String(bytes(dst)));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @Test
    void offsetBelowMinusOneIsEinval() throws Exception {
        MemorySegment buf = buffer(arena, 64, 0);
        assertEquals(cqe(1, -Errno.EINVAL), one(ring, s -> s.prepRead(fd, buf, -2).userData(1)));
        assertEquals(cqe(2, -Errno.EINVAL), one(ring, s -> s.prepWrite(fd, buf, Long.MIN_VALUE).userData(2).flags(SqeFlags.ASYNC)));
        assertEquals(cqe(3, -Errno.EINVAL), one(ring, s -> s.prepReadv(fd, new MemorySegment[] {buf}, -100).userData(3)));
        assertFileUnchanged();
    }

    @Test
    void lengthBeyondBufferIsEfaultAndNegativeLengthEinval() throws Exception {
        MemorySegment buf = buffer(arena, 64, 0x42);
        assertEquals(cqe(1, -Errno.EFAULT), one(ring, s -> s.prepRead(fd, buf, 0).len(65).userData(1)));
        assertEquals(cqe(2, -Errno.EFAULT), one(ring, s -> s.prepWrite(fd, buf, 0).len(1 << 20).userData(2).flags(SqeFlags.ASYNC)));
        assertEquals(cqe(3, -Errno.EINVAL), one(ring, s -> s.prepRead(fd, buf, 0).len(-1).userData(3)));
        assertArrayEquals(filled(64, 0x42), bytes(buf));
        assertFileUnchanged();
    }

    @Test
    void unknownRwFlagsAreEopnotsupp() throws Exception {
        MemorySegment buf = buffer(arena, 64, 0);
        assertEquals(cqe(1, -Errno.EOPNOTSUPP), one(ring, s -> s.prepRead(fd, buf, 0).opFlags(0x1000).userData(1)));
        assertEquals(cqe(2, -Errno.EOPNOTSUPP), one(ring, s -> s.prepWritev(fd, new MemorySegment[] {buf}, 0).opFlags(1 << 30).userData(2)));
        assertFileUnchanged();
    }

    /** With RWF_NOWAIT asked for by the caller, EAGAIN is the answer, not a punt. */
    @Test
    void explicitNowaitOnEmptyPipeIsEagain() {
        int[] p = Fds.pipe();
        try {
            MemorySegment buf = buffer(arena, 64, 0);
            assertEquals(cqe(1, -Errno.EAGAIN), one(ring, s -> s.prepRead(p[0], buf, -1).opFlags(FileCalls.RWF_NOWAIT).userData(1)));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @Test
    void readOfDirectoryIsEisdir() throws Exception {
        int dfd = Fds.open(dir, OpenFlags.RDONLY | OpenFlags.DIRECTORY, 0);
        try {
            MemorySegment buf = buffer(arena, 64, 0);
            assertEquals(cqe(1, -Errno.EISDIR), one(ring, s -> s.prepRead(dfd, buf, 0).userData(1)));
            assertEquals(cqe(2, -Errno.EISDIR), one(ring, s -> s.prepRead(dfd, buf, 0).userData(2).flags(SqeFlags.ASYNC)));
        } finally {
            Fds.close(dfd);
        }
    }

    @Test
    void misalignedDirectIoIsEinval() throws Exception {
        int dfd = Fds.open(path, OpenFlags.RDWR | OpenFlags.DIRECT, 0);
        try {
            MemorySegment aligned = alignedBuffer(arena, 8192, 0);
            assertEquals(cqe(1, -Errno.EINVAL), one(ring, s -> s.prepRead(dfd, aligned.asSlice(1, 4096), 0).userData(1)));
            assertEquals(cqe(2, -Errno.EINVAL), one(ring, s -> s.prepRead(dfd, aligned.asSlice(0, 4096), 1).userData(2)));
            assertEquals(cqe(3, -Errno.EINVAL), one(ring, s -> s.prepWrite(dfd, aligned.asSlice(0, 100), 0).userData(3)));
            assertFileUnchanged();
        } finally {
            Fds.close(dfd);
        }
    }

    /** Without SUBMIT_ALL, submission stops after the SQE that fails before issue (API.md). */
    @Test
    void submissionStopsAfterTheFailedSqeAndTheRestFollowsNextSubmit() {
        MemorySegment a = buffer(arena, 16, 0);
        MemorySegment b = buffer(arena, 16, 0);
        ring.getSqe().prepRead(fd, a, 0).userData(1);
        ring.getSqe().prepRead(fd, MemorySegment.ofArray(new byte[16]), 0).userData(2);
        ring.getSqe().prepRead(fd, b, 16).userData(3);
        assertEquals(2, ring.submit());
        Map<Long, RingTestSupport.Completion> first = FileOps.reapByUserData(ring, 2);
        assertEquals(cqe(1, 16), first.get(1L));
        assertEquals(cqe(2, -Errno.EINVAL), first.get(2L));
        assertEquals(1, ring.sqReady());
        assertEquals(1, ring.submit());
        assertEquals(cqe(3, 16), RingTestSupport.reap(ring, 1).get(0));
        assertArrayEquals(range(data, 16, 32), bytes(b));
    }

    /**
     * A buffer whose arena is closed after submission, while the request still waits in
     * io-wq (ASYNC + O_DIRECT): the worker must see the dead scope and complete with
     * -EFAULT, never hand freed memory to the kernel. The only bounded worker is held by a
     * blocker so the reads are deterministically queued, not running, when the arenas close;
     * so we assert exactly -EFAULT. (A read already running when its arena closes could end
     * either way; racing that would risk the kernel writing into freed memory, so we don't.)
     */
    @Test
    void arenaClosedWhileReadIsQueuedInIoWqIsEfault() throws Exception {
        int dfd = Fds.open(path, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        FileOps.Blocker blocker = new FileOps.Blocker();
        try {
            ring.registerIoWqMaxWorkers(1, 0);
            ioWq(ring).enqueue(blocker);
            RingTestSupport.await(blocker.started);
            Arena confined = Arena.ofConfined();
            Arena shared = Arena.ofShared();
            MemorySegment buf = confined.allocate(4096, 4096);
            MemorySegment[] vec = {shared.allocate(4096, 4096)};
            ring.getSqe().prepRead(dfd, buf, 0).userData(77).flags(SqeFlags.ASYNC);
            ring.getSqe().prepReadv(dfd, vec, 4096).userData(78).flags(SqeFlags.ASYNC);
            assertEquals(2, ring.submit());
            assertEquals(0, ring.cqReady());
            assertEquals(2, ioWq(ring).queuedCount(), "both reads must be waiting behind the blocker");
            confined.close();
            shared.close();
            blocker.release();
            Map<Long, RingTestSupport.Completion> got = FileOps.reapByUserData(ring, 2);
            assertEquals(cqe(77, -Errno.EFAULT), got.get(77L));
            assertEquals(cqe(78, -Errno.EFAULT), got.get(78L));
        } finally {
            blocker.release();
            Fds.close(dfd);
        }
    }

    /**
     * A read that already completed inline (page-cache hit: its CQE is ready when submit
     * returns) is unaffected by closing its arena before reaping: success.
     */
    @Test
    void arenaClosedAfterInlineReadCompletedBeforeReapingIsSuccess() {
        Arena shortLived = Arena.ofConfined();
        MemorySegment buf = shortLived.allocate(4096);
        ring.getSqe().prepRead(fd, buf, 0).userData(79);
        assertEquals(1, ring.submit());
        assertEquals(1, ring.cqReady(), "the read should have completed inline during submit");
        byte[] got = bytes(buf);
        shortLived.close();
        assertEquals(cqe(79, 4096), RingTestSupport.reap(ring, 1).get(0));
        assertArrayEquals(range(data, 0, 4096), got);
    }
}
