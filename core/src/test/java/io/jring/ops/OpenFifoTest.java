package io.jring.ops;

import static io.jring.ops.FileOps.cqe;
import static io.jring.ops.FileOps.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.RingTestSupport.Completion;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * OPENAT's non-blocking first attempt (Linux's io_openat2: O_NONBLOCK added, the lookup from
 * the dentry cache only; O_NONBLOCK cleared again unless asked for), seen where it shows: a
 * FIFO. Checked against Linux 6.18 with liburing: reading end opens at once, a writing end
 * with no reader is -ENXIO at once (not a worker blocked until a reader comes).
 */
@Timeout(10)
class OpenFifoTest extends RingAndArenaFixture {
    Path fifo;

    OpenFifoTest() {
        super(8);
    }

    @BeforeEach
    void makeFifo() throws Exception {
        fifo = dir.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, p.waitFor(), "mkfifo");
    }

    private static boolean nonBlocking(int fd) throws Exception {
        return (fdinfoFlags(fd) & 04000) != 0;
    }

    /** The file status flags the kernel shows for {@code fd}, O_CLOEXEC left out. */
    private static int fdinfoFlags(int fd) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo/" + fd))) {
            if (line.startsWith("flags:")) {
                return Integer.parseInt(line.substring(6).trim(), 8) & ~02000000;
            }
        }
        throw new AssertionError("no flags line for fd " + fd);
    }

    @Test
    void theReadingEndOpensAtOnceAndBlocksAsAsked() throws Exception {
        Completion c = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, fifo.toString(), OpenFlags.RDONLY, 0).userData(1));
        assertTrue(c.res() >= 0, "opened without a writer: " + c);
        try {
            assertTrue(!nonBlocking(c.res()), "O_NONBLOCK of the attempt is cleared again");
        } finally {
            Fds.close(c.res());
        }
        Completion nb = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, fifo.toString(), OpenFlags.RDONLY | OpenFlags.NONBLOCK, 0)
                .userData(2));
        try {
            assertTrue(nonBlocking(nb.res()), "O_NONBLOCK asked for stays");
        } finally {
            Fds.close(nb.res());
        }
    }

    @Test
    void oLargefileIsAddedExceptWithOPath() throws Exception {
        // Linux 6.18 (liburing, /proc/self/fdinfo): O_RDONLY gives 0100000, O_PATH 010000000 alone.
        int oPath = 010000000;
        int oLargefile = "aarch64".equals(System.getProperty("os.arch")) ? 0400000 : 0100000;
        Completion plain = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, fifo.toString(), OpenFlags.RDONLY | OpenFlags.NONBLOCK, 0)
                .userData(1));
        Completion path = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, fifo.toString(), oPath, 0).userData(2));
        try {
            assertTrue((fdinfoFlags(plain.res()) & oLargefile) != 0, "O_LARGEFILE on a plain open");
            assertEquals(oPath, fdinfoFlags(path.res()), "O_PATH alone");
        } finally {
            Fds.close(plain.res());
            Fds.close(path.res());
        }
    }

    @Test
    void aWritingEndWithoutReaderIsEnxioAtOnce() {
        assertEquals(cqe(1, -Errno.ENXIO),
                one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, fifo.toString(), OpenFlags.WRONLY, 0).userData(1)));
    }

    @Test
    void aWritingEndOpensWhileAReaderIsThere() throws Exception {
        int reader = Fds.open(fifo, OpenFlags.RDONLY | OpenFlags.NONBLOCK, 0);
        try {
            Completion c = one(ring, s -> s.prepOpenat(Fds.AT_FDCWD, fifo.toString(), OpenFlags.WRONLY, 0).userData(1));
            assertTrue(c.res() >= 0, "opened: " + c);
            Fds.close(c.res());
        } finally {
            Fds.close(reader);
        }
    }
}
