package io.jring.ops;

import static io.jring.ops.FileOps.buffer;
import static io.jring.ops.FileOps.bytes;
import static io.jring.ops.FileOps.contents;
import static io.jring.ops.FileOps.cqe;
import static io.jring.ops.FileOps.file;
import static io.jring.ops.FileOps.ioWq;
import static io.jring.ops.FileOps.nativeCopy;
import static io.jring.ops.FileOps.one;
import static io.jring.ops.FileOps.pattern;
import static io.jring.ops.FileOps.range;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.Fsync;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.SqeFlags;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mirrors {@link FsyncOp}, {@link OpenatOp} and {@link CloseOp} (IORING_OP_FSYNC, _OPENAT,
 * _CLOSE; liburing test/fsync.c, test/openat.c, test/open-close.c): always run in io-wq,
 * results and errors as the syscalls', and Linux's prep-time checks.
 */
@Timeout(20)
class FsyncOpenCloseTest extends RingAndArenaFixture {
    /** Far above any descriptor this process has open: always EBADF. */
    static final int BAD_FD = 999_999;

    FsyncOpenCloseTest() {
        super(16);
    }

    // ------------------------------------------------------------------ fsync

    @Test
    void fsyncAndFdatasyncOfWrittenFileReturnZeroFromIoWq() throws Exception {
        Path p = file(dir, "s", pattern(0, 100));
        int fd = Fds.open(p, OpenFlags.RDWR, 0);
        try {
            // First request of a fresh ring: any io-wq worker now exists because of it.
            assertEquals(cqe(1, 0), one(ring, s -> s.prepFsync(fd, 0).userData(1)));
            assertTrue(ioWq(ring).workerCount(true) >= 1, "fsync always runs in io-wq");
            byte[] data = pattern(1, 5000);
            assertEquals(cqe(2, 5000), one(ring, s -> s.prepWrite(fd, nativeCopy(arena, data), 0).userData(2)));
            assertEquals(cqe(3, 0), one(ring, s -> s.prepFsync(fd, Fsync.DATASYNC).userData(3)));
            assertEquals(cqe(4, 0), one(ring, s -> s.prepFsync(fd, 0).userData(4)));
            assertArrayEquals(data, contents(p));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void fsyncWithUnknownFlagsIsEinval() throws Exception {
        int fd = Fds.open(file(dir, "f", new byte[10]), OpenFlags.RDWR, 0);
        try {
            assertEquals(cqe(4, -Errno.EINVAL), one(ring, s -> s.prepFsync(fd, 2).userData(4)));
            assertEquals(cqe(5, -Errno.EINVAL), one(ring, s -> s.prepFsync(fd, Fsync.DATASYNC | 0x100).userData(5)));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void fsyncOfBadDescriptorIsEbadf() {
        assertEquals(cqe(6, -Errno.EBADF), one(ring, s -> s.prepFsync(BAD_FD, 0).userData(6)));
        assertEquals(cqe(7, -Errno.EBADF), one(ring, s -> s.prepFsync(BAD_FD, Fsync.DATASYNC).userData(7)));
    }

    @Test
    void fsyncOfPipeIsEinval() {
        int[] p = Fds.pipe();
        try {
            // What fsync(2) says for a file that cannot be synced.
            assertEquals(cqe(8, -Errno.EINVAL), one(ring, s -> s.prepFsync(p[1], 0).userData(8)));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    // ------------------------------------------------------------------ openat

    @Test
    void openatRelativeToCwdCreatesFileWithModeThenReadsAndWritesThroughIt() throws Exception {
        Path target = dir.resolve("created");
        // Relative to the process's working directory, which is what AT_FDCWD means.
        String relative = Path.of("").toAbsolutePath().relativize(target).toString();
        assertFalse(Path.of(relative).isAbsolute());
        Completion c = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, relative,
                OpenFlags.CREAT | OpenFlags.RDWR | OpenFlags.CLOEXEC, 0644).userData(10));
        assertEquals(10, c.userData());
        assertEquals(0, c.flags());
        int fd = c.res();
        assertTrue(fd >= 0, "openat failed: " + Errno.name(fd));
        try {
            assertTrue(Files.exists(target));
            // The umask may remove bits, never add them; the owner keeps read and write.
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(target);
            assertTrue(perms.containsAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)), perms.toString());
            assertTrue(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ).containsAll(perms), perms.toString());

            byte[] data = pattern(2, 3000);
            assertEquals(cqe(11, 3000), one(ring, s -> s.prepWrite(fd, nativeCopy(arena, data), 0).userData(11)));
            MemorySegment back = buffer(arena, 3000, 0);
            assertEquals(cqe(12, 3000), one(ring, s -> s.prepRead(fd, back, 0).userData(12)));
            assertArrayEquals(data, bytes(back));
            assertArrayEquals(data, contents(target));
        } finally {
            assertEquals(cqe(13, 0), one(ring, s -> s.prepClose(fd).userData(13)));
        }
    }

    @Test
    void openatOfExistingFileReadsItsContent() throws Exception {
        byte[] data = pattern(3, 10_000);
        Path p = file(dir, "existing", data);
        Completion c = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, p.toString(), OpenFlags.RDONLY, 0).userData(20));
        int fd = c.res();
        assertTrue(fd >= 0, "openat failed: " + Errno.name(fd));
        assertEquals(20, c.userData());
        try {
            MemorySegment buf = buffer(arena, 4096, 0);
            assertEquals(cqe(21, 4096), one(ring, s -> s.prepRead(fd, buf, -1).userData(21)));
            assertArrayEquals(range(data, 0, 4096), bytes(buf));
            assertEquals(cqe(22, 4096), one(ring, s -> s.prepRead(fd, buf, -1).userData(22).flags(SqeFlags.ASYNC)));
            assertArrayEquals(range(data, 4096, 8192), bytes(buf));
            // Opened read-only: a write is refused by the kernel.
            assertEquals(cqe(23, -Errno.EBADF), one(ring, s -> s.prepWrite(fd, buf, 0).userData(23)));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void openatRelativeToDirectoryDescriptor() throws Exception {
        byte[] data = pattern(4, 100);
        file(dir, "inside", data);
        int dfd = Fds.open(dir, OpenFlags.RDONLY | OpenFlags.DIRECTORY, 0);
        try {
            Completion c = one(ring, s -> s.prepOpenat(dfd, "inside", OpenFlags.RDONLY, 0).userData(30));
            int fd = c.res();
            assertTrue(fd >= 0, "openat failed: " + Errno.name(fd));
            try {
                MemorySegment buf = buffer(arena, 100, 0);
                assertEquals(cqe(31, 100), one(ring, s -> s.prepRead(fd, buf, 0).userData(31)));
                assertArrayEquals(data, bytes(buf));
            } finally {
                Fds.close(fd);
            }
            assertEquals(cqe(32, -Errno.ENOENT), one(ring, s -> s.prepOpenat(dfd, "absent", OpenFlags.RDONLY, 0).userData(32)));
        } finally {
            Fds.close(dfd);
        }
    }

    @Test
    void openatOfMissingFileIsEnoent() {
        String missing = dir.resolve("no-such-file").toString();
        assertEquals(cqe(40, -Errno.ENOENT), one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, missing, OpenFlags.RDONLY, 0).userData(40)));
        assertEquals(cqe(41, -Errno.ENOENT),
                one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, dir.resolve("no-dir/f").toString(), OpenFlags.CREAT | OpenFlags.RDWR, 0644)
                        .userData(41)));
    }

    @Test
    void openatWithFixedFileIsEbadf() {
        String path = dir.resolve("x").toString();
        assertEquals(cqe(42, -Errno.EBADF), one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, path,
                OpenFlags.CREAT | OpenFlags.RDWR, 0644).userData(42).flags(SqeFlags.FIXED_FILE)));
        assertFalse(Files.exists(dir.resolve("x")), "a rejected openat created the file");
    }

    @Test
    void openatExclusiveOfExistingFileIsEexist() throws Exception {
        Path p = file(dir, "e", new byte[1]);
        assertEquals(cqe(43, -Errno.EEXIST), one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, p.toString(),
                OpenFlags.CREAT | OpenFlags.EXCL | OpenFlags.RDWR, 0644).userData(43)));
    }

    @Test
    void openatOfOverlongPathIsEnametoolong() {
        String path = "/" + "a".repeat(5000);
        assertEquals(cqe(44, -Errno.ENAMETOOLONG), one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, path, OpenFlags.RDONLY, 0).userData(44)));
    }

    // ------------------------------------------------------------------ close

    @Test
    void closeReleasesTheDescriptor() throws Exception {
        int fd = Fds.open(file(dir, "c", new byte[16]), OpenFlags.RDONLY, 0);
        assertEquals(cqe(50, 0), one(ring, s -> s.prepClose(fd).userData(50)));
        assertEquals(cqe(51, -Errno.EBADF), one(ring, s -> s.prepClose(fd).userData(51)), "closed twice");
    }

    @Test
    void closeOfBadDescriptorIsEbadf() {
        assertEquals(cqe(52, -Errno.EBADF), one(ring, s -> s.prepClose(BAD_FD).userData(52)));
        assertEquals(cqe(53, -Errno.EBADF), one(ring, s -> s.prepClose(-1).userData(53)));
    }

    /** As Linux's io_close_prep: a fixed-file close is -EBADF, stray SQE fields -EINVAL. */
    @Test
    void closeWithFixedFileIsEbadfAndWithStrayFieldsEinval() throws Exception {
        int fd = Fds.open(file(dir, "c", new byte[16]), OpenFlags.RDONLY, 0);
        try {
            assertEquals(cqe(54, -Errno.EBADF), one(ring, s -> s.prepClose(fd).userData(54).flags(SqeFlags.FIXED_FILE)));
            assertEquals(cqe(55, -Errno.EINVAL), one(ring, s -> s.prepClose(fd).off(8).userData(55)));
            assertEquals(cqe(56, -Errno.EINVAL), one(ring, s -> s.prepClose(fd).len(1).userData(56)));
            // None of the rejected closes closed it.
            MemorySegment buf = buffer(arena, 16, 0);
            assertEquals(cqe(57, 16), one(ring, s -> s.prepRead(fd, buf, 0).userData(57)));
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void openReadCloseAllThroughTheRing() throws Exception {
        byte[] data = pattern(5, 777);
        Path p = file(dir, "orc", data);
        int fd = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, p.toString(), OpenFlags.RDONLY, 0).userData(60)).res();
        assertTrue(fd >= 0, "openat failed: " + Errno.name(fd));
        MemorySegment buf = buffer(arena, 1000, 0);
        assertEquals(cqe(61, 777), one(ring, s -> s.prepRead(fd, buf, 0).userData(61)));
        assertArrayEquals(data, bytes(buf, 0, 777));
        assertEquals(cqe(62, 0), one(ring, s -> s.prepClose(fd).userData(62)));
        assertEquals(cqe(63, -Errno.EBADF), one(ring, s -> s.prepRead(fd, buf, 0).userData(63)));
        RingTestSupport.drain(ring);
    }
}
