package io.jring.ops;

import static io.jring.RingTestSupport.errnoOf;
import static io.jring.ops.FileOps.buffer;
import static io.jring.ops.FileOps.bytes;
import static io.jring.ops.FileOps.contents;
import static io.jring.ops.FileOps.cqe;
import static io.jring.ops.FileOps.descriptorsOf;
import static io.jring.ops.FileOps.file;
import static io.jring.ops.FileOps.filled;
import static io.jring.ops.FileOps.nativeCopy;
import static io.jring.ops.FileOps.one;
import static io.jring.ops.FileOps.pattern;
import static io.jring.ops.FileOps.range;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.Fsync;
import io.jring.OpenFlags;
import io.jring.SqeFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mirrors {@code FileTable} and {@code BufferTable} (IORING_REGISTER_FILES / _FILES_UPDATE /
 * _BUFFERS with SqeFlags.FIXED_FILE, READ_FIXED, WRITE_FIXED; liburing test/file-register.c
 * and test/read-write.c's fixed variants): slot lookup, updates, unregistration, the
 * registration errors, and registered-buffer bounds.
 */
@Timeout(20)
class FixedFilesAndBuffersTest extends RingAndArenaFixture {
    int fdA;
    int fdB;
    byte[] dataA;
    byte[] dataB;

    FixedFilesAndBuffersTest() {
        super(32);
    }

    @BeforeEach
    void openFiles() throws Exception {
        dataA = pattern(1, 8192);
        dataB = pattern(2, 8192);
        fdA = Fds.open(file(dir, "a", dataA), OpenFlags.RDWR, 0);
        fdB = Fds.open(file(dir, "b", dataB), OpenFlags.RDWR, 0);
    }

    @AfterEach
    void closeFiles() {
        Fds.close(fdA);
        Fds.close(fdB);
    }

    // ------------------------------------------------------------------ fixed files

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void readAndWriteThroughFixedFileUseTheRegisteredDescriptor(int sqeFlags) throws Exception {
        ring.registerFiles(new int[] {-1, fdA, fdB});
        MemorySegment buf = buffer(arena, 4096, 0);
        int flags = SqeFlags.FIXED_FILE | sqeFlags;
        assertEquals(cqe(1, 4096), one(ring, s -> s.prepRead(2, buf, 100).userData(1).flags(flags)));
        assertArrayEquals(range(dataB, 100, 4196), bytes(buf));

        byte[] news = pattern(3, 1000);
        assertEquals(cqe(2, 1000), one(ring, s -> s.prepWrite(1, nativeCopy(arena, news), 50).userData(2).flags(flags)));
        byte[] a = contents(dir.resolve("a"));
        assertArrayEquals(news, range(a, 50, 1050));
        assertArrayEquals(range(dataA, 0, 50), range(a, 0, 50));
    }

    @Test
    void vectoredAndFsyncOpsAcceptFixedFiles() throws Exception {
        ring.registerFiles(new int[] {fdA});
        MemorySegment[] src = {nativeCopy(arena, "xy".getBytes()), nativeCopy(arena, "z".getBytes())};
        assertEquals(cqe(1, 3), one(ring, s -> s.prepWritev(0, src, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        MemorySegment[] dst = {buffer(arena, 1, 0), buffer(arena, 2, 0)};
        assertEquals(cqe(2, 3), one(ring, s -> s.prepReadv(0, dst, 0).userData(2).flags(SqeFlags.FIXED_FILE)));
        assertEquals("x", new String(bytes(dst[0])));
        assertEquals("yz", new String(bytes(dst[1])));
        assertEquals(cqe(3, 0), one(ring, s -> s.prepFsync(0, 0).userData(3).flags(SqeFlags.FIXED_FILE)));
        assertEquals(cqe(4, 0), one(ring, s -> s.prepFsync(0, Fsync.DATASYNC).userData(4).flags(SqeFlags.FIXED_FILE)));
    }

    @Test
    void updateFilesReplacesAndEmptiesSlots() {
        ring.registerFiles(new int[] {fdA, -1});
        MemorySegment buf = buffer(arena, 16, 0);
        assertEquals(cqe(1, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataA, 0, 16), bytes(buf));
        assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepRead(1, buf, 0).userData(2).flags(SqeFlags.FIXED_FILE)));

        ring.updateFiles(0, new int[] {fdB, fdA});
        assertEquals(cqe(3, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(3).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataB, 0, 16), bytes(buf));
        assertEquals(cqe(4, 16), one(ring, s -> s.prepRead(1, buf, 16).userData(4).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataA, 16, 32), bytes(buf));

        ring.updateFiles(1, new int[] {-1});
        assertEquals(cqe(5, -Errno.EBADF), one(ring, s -> s.prepRead(1, buf, 0).userData(5).flags(SqeFlags.FIXED_FILE)));
        assertEquals(cqe(6, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(6).flags(SqeFlags.FIXED_FILE)));
    }

    /**
     * As Linux's __io_sqe_files_update (liburing probe on 6.18: io_uring_register_files_update
     * of {fd, 9999} returns 1): a bad descriptor stops the update, the slots before it keep
     * their update, and the bad one's slot is left empty (Linux empties a slot before it
     * looks the new descriptor up). No error, since something was updated.
     */
    @Test
    void updateStopsAtABadDescriptorAndKeepsTheSlotsDoneBeforeIt() throws Exception {
        ring.registerFiles(new int[] {fdA, fdA, -1, fdA});
        MemorySegment buf = buffer(arena, 16, 0);
        ring.updateFiles(2, new int[] {fdB, 999_999});
        assertEquals(cqe(1, 16), one(ring, s -> s.prepRead(2, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataB, 0, 16), bytes(buf));
        assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepRead(3, buf, 0).userData(2).flags(SqeFlags.FIXED_FILE)));
        assertEquals(3, descriptorsOf(dir.resolve("a")), "ours and slots 0 and 1: slot 3's duplicate is closed");
    }

    /** Only a failure of the first entry is an error (-EBADF); its slot is emptied all the same, as Linux. */
    @Test
    void updateWhoseFirstDescriptorIsBadThrowsEbadfAndEmptiesThatSlot() {
        ring.registerFiles(new int[] {fdA, fdB, fdB});
        MemorySegment buf = buffer(arena, 16, 0);
        assertEquals(Errno.EBADF, errnoOf(() -> ring.updateFiles(1, new int[] {999_999, fdA})));
        assertEquals(Errno.EBADF, errnoOf(() -> ring.updateFiles(0, new int[] {-5})), "negative other than -1 and -2");
        assertEquals(cqe(1, -Errno.EBADF), one(ring, s -> s.prepRead(0, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepRead(1, buf, 0).userData(2).flags(SqeFlags.FIXED_FILE)));
        assertEquals(cqe(3, 16), one(ring, s -> s.prepRead(2, buf, 0).userData(3).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataB, 0, 16), bytes(buf), "the update stopped before slot 2");
    }

    /** IORING_REGISTER_FILES_SKIP (-2) leaves its slot as it is and counts as done. */
    @Test
    void updateSkipsSlotsMarkedMinusTwo() {
        ring.registerFiles(new int[] {fdA, fdA});
        MemorySegment buf = buffer(arena, 16, 0);
        ring.updateFiles(0, new int[] {-2});
        ring.updateFiles(0, new int[] {-2, fdB});
        assertEquals(cqe(1, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataA, 0, 16), bytes(buf));
        assertEquals(cqe(2, 16), one(ring, s -> s.prepRead(1, buf, 0).userData(2).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataB, 0, 16), bytes(buf));

        ring.updateFiles(0, new int[] {-2, 999_999});   // the skip was done: no error
        assertEquals(cqe(3, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(3).flags(SqeFlags.FIXED_FILE)));
        assertEquals(cqe(4, -Errno.EBADF), one(ring, s -> s.prepRead(1, buf, 0).userData(4).flags(SqeFlags.FIXED_FILE)));
    }

    @Test
    void fixedFileIndexOutOfRangeIsEbadf() {
        ring.registerFiles(new int[] {fdA, fdB});
        MemorySegment buf = buffer(arena, 16, 0x44);
        assertEquals(cqe(1, -Errno.EBADF), one(ring, s -> s.prepRead(2, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepRead(-1, buf, 0).userData(2).flags(SqeFlags.FIXED_FILE)));
        assertEquals(cqe(3, -Errno.EBADF),
                one(ring, s -> s.prepWrite(1 << 20, buf, 0).userData(3).flags(SqeFlags.FIXED_FILE | SqeFlags.ASYNC)));
        assertEquals(cqe(4, -Errno.EBADF), one(ring, s -> s.prepFsync(7, 0).userData(4).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(filled(16, 0x44), bytes(buf));
    }

    @Test
    void fixedFileWithoutRegistrationIsEbadf() {
        MemorySegment buf = buffer(arena, 16, 0);
        assertEquals(cqe(9, -Errno.EBADF), one(ring, s -> s.prepRead(0, buf, 0).userData(9).flags(SqeFlags.FIXED_FILE)));
    }

    @Test
    void unregisterFilesInvalidatesSlotsAndAllowsRegisteringAgain() {
        ring.registerFiles(new int[] {fdA});
        MemorySegment buf = buffer(arena, 16, 0);
        assertEquals(cqe(1, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        ring.unregisterFiles();
        assertEquals(cqe(2, -Errno.EBADF), one(ring, s -> s.prepRead(0, buf, 0).userData(2).flags(SqeFlags.FIXED_FILE)));
        ring.registerFiles(new int[] {fdB});
        assertEquals(cqe(3, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(3).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataB, 0, 16), bytes(buf));
    }

    /**
     * Linux's file table holds a reference to each file (fget at registration), so the
     * application may close its own descriptor right after registering: the slot still works.
     */
    @Test
    void fixedFileStaysUsableAfterTheOriginalDescriptorIsClosed() throws Exception {
        int fd = Fds.open(dir.resolve("a"), OpenFlags.RDONLY, 0);
        ring.registerFiles(new int[] {fd});
        Fds.close(fd);
        MemorySegment buf = buffer(arena, 16, 0);
        assertEquals(cqe(1, 16), one(ring, s -> s.prepRead(0, buf, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
        assertArrayEquals(range(dataA, 0, 16), bytes(buf));
    }

    @Test
    void fileRegistrationErrorsThrowWithLinuxErrno() {
        assertEquals(Errno.ENXIO, errnoOf(() -> ring.updateFiles(0, new int[] {fdA})), "update without a table");
        assertEquals(Errno.EINVAL, errnoOf(() -> ring.updateFiles(0, new int[0])), "empty update, before the table check");
        assertEquals(Errno.ENXIO, errnoOf(() -> ring.unregisterFiles()), "unregister without a table");
        assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerFiles(new int[0])), "empty table");
        assertEquals(Errno.EBADF, errnoOf(() -> ring.registerFiles(new int[] {fdA, -7})), "negative fd other than -1");
        ring.registerFiles(new int[] {fdA, fdB});
        assertEquals(Errno.EBUSY, errnoOf(() -> ring.registerFiles(new int[] {fdA})), "second registration");
        assertEquals(Errno.EINVAL, errnoOf(() -> ring.updateFiles(1, new int[] {fdA, fdB})), "update past the end");
        assertEquals(Errno.EINVAL, errnoOf(() -> ring.updateFiles(-1, new int[] {fdA})), "negative update offset");
        assertEquals(Errno.EINVAL, errnoOf(() -> ring.updateFiles(0, new int[0])), "empty update");
        ring.unregisterFiles();
        assertEquals(Errno.ENXIO, errnoOf(() -> ring.unregisterFiles()), "second unregister");
    }

    // ------------------------------------------------------------------ fixed buffers

    @ParameterizedTest(name = "sqeFlags={0}")
    @ValueSource(ints = {0, SqeFlags.ASYNC})
    void writeFixedAndReadFixedUseSlicesOfRegisteredBuffers(int sqeFlags) throws Exception {
        MemorySegment reg0 = buffer(arena, 64 * 1024, 0);
        MemorySegment reg1 = buffer(arena, 4096, 0);
        ring.registerBuffers(new MemorySegment[] {reg0, reg1});
        byte[] news = pattern(4, 8192);
        MemorySegment src = reg0.asSlice(4096, 8192);
        MemorySegment.copy(news, 0, src, JAVA_BYTE, 0, news.length);
        assertEquals(cqe(1, 8192), one(ring, s -> s.prepWriteFixed(fdA, src, 0, 0).userData(1).flags(sqeFlags)));
        assertArrayEquals(news, contents(dir.resolve("a")));

        MemorySegment dst = reg0.asSlice(32 * 1024, 8192);
        assertEquals(cqe(2, 8192), one(ring, s -> s.prepReadFixed(fdA, dst, 0, 0).userData(2).flags(sqeFlags)));
        assertArrayEquals(news, bytes(dst));

        // The whole of the second buffer, reading the other file; short at EOF.
        assertEquals(cqe(3, 192), one(ring, s -> s.prepReadFixed(fdB, reg1, 8000, 1).userData(3).flags(sqeFlags)));
        assertArrayEquals(range(dataB, 8000, 8192), bytes(reg1, 0, 192));
    }

    @Test
    void readFixedWithFixedFileAndDirectIo() throws Exception {
        MemorySegment reg = arena.allocate(16 * 1024, FileOps.ALIGN);
        ring.registerBuffers(new MemorySegment[] {reg});
        int dfd = Fds.open(dir.resolve("b"), OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try {
            ring.registerFiles(new int[] {dfd});
            MemorySegment dst = reg.asSlice(4096, 8192);
            assertEquals(cqe(1, 8192), one(ring, s -> s.prepReadFixed(0, dst, 0, 0).userData(1).flags(SqeFlags.FIXED_FILE)));
            assertArrayEquals(dataB, bytes(dst));
        } finally {
            ring.unregisterFiles();
            Fds.close(dfd);
        }
    }

    @Test
    void registeredBufferIndexOutOfRangeIsEfault() {
        MemorySegment reg = buffer(arena, 4096, 0x21);
        ring.registerBuffers(new MemorySegment[] {reg});
        assertEquals(cqe(1, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, reg, 0, 1).userData(1)));
        assertEquals(cqe(2, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, reg, 0, -1).userData(2)));
        assertEquals(cqe(3, -Errno.EFAULT), one(ring, s -> s.prepWriteFixed(fdA, reg, 0, 5).userData(3).flags(SqeFlags.ASYNC)));
        assertArrayEquals(filled(4096, 0x21), bytes(reg));
        assertArrayEquals(dataA, contentsUnchecked(dir.resolve("a")));
    }

    @Test
    void bufferOutsideTheRegisteredOneIsEfault() {
        MemorySegment big = buffer(arena, 16 * 1024, 0);
        MemorySegment reg0 = big.asSlice(0, 4096);
        MemorySegment reg1 = big.asSlice(8192, 4096);
        ring.registerBuffers(new MemorySegment[] {reg0, reg1});
        // Straddles the end of buffer 0.
        assertEquals(cqe(1, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, big.asSlice(2048, 4096), 0, 0).userData(1)));
        // Inside buffer 1, but named as buffer 0.
        assertEquals(cqe(2, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, big.asSlice(8192, 100), 0, 0).userData(2)));
        // Between the two, in no registered buffer.
        assertEquals(cqe(3, -Errno.EFAULT), one(ring, s -> s.prepWriteFixed(fdA, big.asSlice(5000, 100), 0, 1).userData(3)));
        // Unrelated memory.
        assertEquals(cqe(4, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, buffer(arena, 10, 0), 0, 0).userData(4)));
        // The right one still works.
        assertEquals(cqe(5, 100), one(ring, s -> s.prepReadFixed(fdA, big.asSlice(8192 + 3996, 100), 0, 1).userData(5)));
        assertArrayEquals(range(dataA, 0, 100), bytes(big, 8192 + 3996, 100));
    }

    @Test
    void fixedBuffersWithoutOrAfterRegistrationAreEfault() {
        MemorySegment reg = buffer(arena, 4096, 0);
        assertEquals(cqe(1, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, reg, 0, 0).userData(1)));
        ring.registerBuffers(new MemorySegment[] {reg});
        assertEquals(cqe(2, 4096), one(ring, s -> s.prepReadFixed(fdA, reg, 0, 0).userData(2)));
        ring.unregisterBuffers();
        assertEquals(cqe(3, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, reg, 0, 0).userData(3)));
    }

    @Test
    void registeredBufferWhoseArenaClosedIsEfault() {
        Arena shortLived = Arena.ofShared();
        MemorySegment reg = shortLived.allocate(4096);
        ring.registerBuffers(new MemorySegment[] {reg});
        shortLived.close();
        assertEquals(cqe(1, -Errno.EFAULT), one(ring, s -> s.prepReadFixed(fdA, reg, 0, 0).userData(1)));
        assertEquals(cqe(2, -Errno.EFAULT), one(ring, s -> s.prepWriteFixed(fdA, reg, 0, 0).userData(2).flags(SqeFlags.ASYNC)));
        assertArrayEquals(dataA, contentsUnchecked(dir.resolve("a")));
    }

    @Test
    void bufferRegistrationErrorsThrowWithLinuxErrno() {
        MemorySegment reg = buffer(arena, 4096, 0);
        assertEquals(Errno.ENXIO, errnoOf(() -> ring.unregisterBuffers()), "unregister without a table");
        assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBuffers(new MemorySegment[0])), "empty table");
        assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerBuffers(new MemorySegment[] {MemorySegment.ofArray(new byte[8])})),
                "heap segment");
        Arena closed = Arena.ofConfined();
        MemorySegment dead = closed.allocate(8);
        closed.close();
        assertEquals(Errno.EFAULT, errnoOf(() -> ring.registerBuffers(new MemorySegment[] {dead})), "closed arena");
        ring.registerBuffers(new MemorySegment[] {reg});
        assertEquals(Errno.EBUSY, errnoOf(() -> ring.registerBuffers(new MemorySegment[] {reg})), "second registration");
        ring.unregisterBuffers();
        assertEquals(Errno.ENXIO, errnoOf(() -> ring.unregisterBuffers()), "second unregister");
    }

    private static byte[] contentsUnchecked(Path p) {
        try {
            return contents(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
