package io.jring.ops;

import static io.jring.testkit.RingTestSupport.cqe;
import static io.jring.testkit.RingTestSupport.next;
import static io.jring.testkit.RingTestSupport.ring;
import static io.jring.testkit.RingTestSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.testkit.RingTestSupport;
import io.jring.sys.FileFlush;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CLOSE of a descriptor runs inline when it cannot block, as Linux's io_close does for files
 * without a ->flush ({@link CloseOp}, {@code io.jring.sys.FileFlush}; kernel
 * io_uring/openclose.c): a cancel in the same submit then finds nothing (-ENOENT), where a
 * close sent to io-wq would be caught running (-EALREADY). Checked on Linux 6.18 for pipes,
 * sockets, regular files and directories on ext4 and tmpfs, /proc, eventfd, and a number no
 * file has (-EBADF at once).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CloseInlineTest {
    @TempDir
    Path dir;

    private static List<RingTestSupport.Completion> closeWithCancel(IoUring ring, int fd) {
        sqe(ring).prepClose(fd).userData(1);
        sqe(ring).prepCancel(1, 0).userData(2);
        assertEquals(2, ring.submit());
        return next(ring, 2);
    }

    private static boolean isOpen(int fd) {
        return FsCalls.getStatusFlags(SysCallContext.current(), fd) >= 0;
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void closeOfAPipeSocketOrLocalFileRunsInlineSoItsCancelFindsNothing(int setup) throws Exception {
        // Each descriptor is closed by the CLOSE under test, none by the test (its number may be reused).
        try (IoUring ring = ring(setup)) {
            int[] p = Fds.pipe();
            int[] s = Fds.socketPair();
            int file = Fds.open(Files.createFile(dir.resolve("f")), OpenFlags.RDWR, 0);
            int directory = Fds.open(dir, OpenFlags.RDONLY, 0);
            for (int fd : new int[] {p[0], p[1], s[0], s[1], file, directory}) {
                assertEquals(List.of(cqe(1, 0), cqe(2, -Errno.ENOENT)), closeWithCancel(ring, fd), "fd " + fd);
                assertFalse(isOpen(fd), "closed: " + fd);
            }
            assertEquals(List.of(cqe(1, -Errno.EBADF), cqe(2, -Errno.ENOENT)), closeWithCancel(ring, 999_999),
                    "a number no file has");
        }
    }

    @Test
    void onlyDevicesAndFilesOfFileSystemsWithAFlushMayBlockInClose() throws Exception {
        SysCallContext sc = SysCallContext.current();
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors()) {
            int[] p = fds.pipe();
            int[] s = fds.socketPair();
            int file = fds.add(Fds.open(Files.createFile(dir.resolve("g")), OpenFlags.RDWR, 0));
            int proc = fds.add(Fds.open(Path.of("/proc/self/stat"), OpenFlags.RDONLY, 0));
            int device = fds.add(Fds.open(Path.of("/dev/null"), OpenFlags.RDWR, 0));
            for (int fd : new int[] {p[0], s[0], file, proc}) {
                assertFalse(FileFlush.mayFlush(sc, fd), "fd " + fd);
            }
            assertTrue(FileFlush.mayFlush(sc, device), "a device's driver may flush: io-wq");
            assertFalse(FileFlush.mayFlush(sc, 999_999), "no file: the close fails at once");
        }
    }
}
