package io.jring.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.SqeFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FTRUNCATE (issue 22) beyond the kernel cross-check: open modes and fixed files. */
class FtruncateTest {
    @TempDir
    Path dir;

    private static int run(IoUring ring, int fd, long length, int sqeFlags) {
        ring.getSqe().prepFtruncate(fd, length).userData(5).flags(sqeFlags);
        ring.submit();
        Cqe c = RingTestSupport.waitCqe(ring);
        int res = c.res();
        ring.cqeSeen(c);
        return res;
    }

    @Test
    void readOnlyIsEinvalAppendModeTruncates() throws Exception {
        Path f = dir.resolve("f");
        Files.write(f, new byte[100]);
        try (IoUring ring = IoUring.open(4)) {
            int ro = Fds.open(f, OpenFlags.RDONLY, 0);
            try {
                assertEquals(-Errno.EINVAL, run(ring, ro, 10, 0), "ftruncate needs a file open for writing");
            } finally {
                Fds.close(ro);
            }
            int ap = Fds.open(f, OpenFlags.WRONLY | OpenFlags.APPEND, 0);
            try {
                assertEquals(0, run(ring, ap, 10, 0), "O_APPEND does not stop ftruncate");
            } finally {
                Fds.close(ap);
            }
            assertEquals(10, Files.size(f));
        }
    }

    @Test
    void fixedFileAndEmptySlot() throws Exception {
        Path f = dir.resolve("g");
        Files.write(f, new byte[100]);
        int fd = Fds.open(f, OpenFlags.RDWR, 0);
        try (IoUring ring = IoUring.open(4)) {
            ring.registerFiles(new int[] {fd, -1});
            assertEquals(0, run(ring, 0, 7, SqeFlags.FIXED_FILE));
            assertEquals(7, Files.size(f));
            assertEquals(-Errno.EBADF, run(ring, 1, 7, SqeFlags.FIXED_FILE));
        } finally {
            Fds.close(fd);
        }
    }
}
