package io.jring.ops;

import io.jring.Errno;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** File-descriptor helpers shared by the file operations. */
final class Files {
    private Files() {}

    /** {@code req.fd} of a request whose fixed-file slot held no file: its issue fails with -EBADF. */
    static final int NO_FILE = -1;

    /**
     * Resolves the SQE's fd into {@code req.fd}: a fixed-file slot with FIXED_FILE. An empty
     * or out-of-range slot does not fail the SQE here: as Linux 6.x looks fixed files up when
     * it issues the request, submission goes on and the request completes with -EBADF when
     * issued ({@code req.fd} is {@link #NO_FILE}, which every syscall refuses with EBADF).
     */
    static void resolveFd(Request req) {
        if ((req.flags & SqeFlags.FIXED_FILE) != 0) {
            resolveSlot(req);
        }
    }

    /** {@link #resolveFd} for an fd that names a fixed-file slot without FIXED_FILE (ASYNC_CANCEL's FD_FIXED). */
    static void resolveSlot(Request req) {
        if (req.issueDeferred) {
            // A chain member or a drained request: looked up when it is issued (RequestIssuer.issue).
            req.deferFixedFile();
            return;
        }
        resolveFixedNow(req);
    }

    private static void resolveFixedNow(Request req) {
        req.ring.resources().lookUpFixedFile(req);   // req.fd: the slot's descriptor, or NO_FILE
    }

    /**
     * io-wq hash key of a regular file from its {@code struct stat} (device and inode, as
     * Linux hashes buffered writes by inode), so writes to it run serially. Never 0.
     */
    static long inodeHashKey(MemorySegment stat) {
        long dev = stat.get(JAVA_LONG, 0);
        long ino = stat.get(JAVA_LONG, 8);
        long key = dev * 0x9E3779B97F4A7C15L ^ ino;
        return key == 0 ? 1 : key;
    }

    /** True if the fd is a regular file (partial transfers of those are retried, as Linux does). */
    static boolean isRegular(int fd) {
        return FsCalls.fileType(SysCallContext.current(), fd) == io.jring.sys.Structs.Stat.S_IFREG;
    }

    /**
     * The result of a BUFFER_SELECT request whose group had no buffer. Linux looks the file
     * up before it selects, and RECV checks for a socket first: -EBADF, -ENOTSOCK
     * ({@code socket}), else -ENOBUFS. A syscall or two, on this rare path only.
     */
    static int noBuffer(Request req, SysCallContext sc, boolean socket) {
        if (req.fd < 0 || FsCalls.getStatusFlags(sc, req.fd) < 0) {
            return -Errno.EBADF;
        }
        if (socket && FsCalls.fileType(sc, req.fd) != io.jring.sys.Structs.Stat.S_IFSOCK) {
            return -Errno.ENOTSOCK;
        }
        return -Errno.ENOBUFS;
    }

    private static final int O_ACCMODE = 3;
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_PATH = 010000000;

    /**
     * {@code err}, an argument Linux refuses once it has the file (io_rw_init_file), unless
     * the file itself fails first: not open, not open for this direction, or O_PATH is
     * -EBADF. One fcntl, on the failure path only.
     */
    static int afterFileChecks(Request req, SysCallContext sc, boolean write, int err) {
        int fl = req.fd < 0 ? -1 : FsCalls.getStatusFlags(sc, req.fd);
        if (fl < 0 || (fl & O_PATH) != 0 || (fl & O_ACCMODE) == (write ? O_RDONLY : O_WRONLY)) {
            return -Errno.EBADF;
        }
        return err;
    }

    static int checkLive(MemorySegment seg) {
        return seg != null && seg.scope().isAlive() ? 0 : -Errno.EFAULT;
    }
}
