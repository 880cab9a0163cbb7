package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.DirectFds;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/**
 * OPENAT: path in the SQE's argument, flags in op flags, mode in len. As Linux's io_openat2:
 * first a non-blocking attempt inline (O_NONBLOCK added, the lookup only from the dentry
 * cache: openat2 with RESOLVE_CACHED; O_NONBLOCK is cleared again after unless asked for),
 * so a cached path, or a FIFO, opens without a thread hop; io-wq when that would block, and
 * at once for O_CREAT, O_TRUNC and O_TMPFILE (io_openat_force_async). With
 * a file index (liburing's io_uring_prep_openat_direct: slot + 1, or
 * {@code IORING_FILE_INDEX_ALLOC} for any free slot) the file goes into the fixed-file table
 * instead of being returned: res is 0 (the slot for ALLOC) or the install's -errno. jring
 * needs a descriptor for it where Linux needs none: it opens one close-on-exec and the table
 * takes it at once inline (the CQE keeps its place), or, from io-wq, in the request's task
 * (the posting right owns the table).
 */
final class OpenatOp extends OpDef {
    /** O_LARGEFILE, forced by io_uring's openat as by open(2) on 64-bit, except with O_PATH (x86_64 / aarch64 values). */
    private static final int O_LARGEFILE = "aarch64".equals(System.getProperty("os.arch")) ? 0400000 : 0100000;

    private static final int O_CREAT = 0100;
    private static final int O_TRUNC = 01000;
    private static final int O_TMPFILE_BIT = 020000000;
    private static final int O_PATH = 010000000;

    @Override
    public boolean forceAsync(Request req) {
        return (req.opFlags & (O_CREAT | O_TRUNC | O_TMPFILE_BIT)) != 0;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // As Linux: ioprio (io_init_req) and buf_index (io_openat_prep) are refused first.
        if (req.ioprio != 0 || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        if ((req.flags & SqeFlags.FIXED_FILE) != 0) {
            return -Errno.EBADF;   // as Linux: the dirfd cannot be a fixed file
        }
        int bad = checkName(req.arg);
        if (bad != 0) {
            return bad;
        }
        // A fixed file has no descriptor for close-on-exec to apply to.
        return req.fileIndex != 0 && (req.opFlags & FsCalls.O_CLOEXEC) != 0 ? -Errno.EINVAL : 0;
    }

    /**
     * The name checks of Linux's getname(), which io_openat_prep runs (so they end the
     * submit): no path -EFAULT, an empty one -ENOENT, PATH_MAX bytes or more (UTF-8, as it
     * is encoded) -ENAMETOOLONG. A NUL inside is -EINVAL: C would open a shorter path.
     */
    private static int checkName(Object arg) {
        if (!(arg instanceof String path)) {
            return -Errno.EFAULT;
        }
        if (path.isEmpty()) {
            return -Errno.ENOENT;
        }
        if (utf8Length(path) >= SysCallContext.PATH_CAPACITY) {
            return -Errno.ENAMETOOLONG;
        }
        return path.indexOf('\0') >= 0 ? -Errno.EINVAL : 0;
    }

    /** UTF-8 bytes of {@code s}, counted up to PATH_CAPACITY (a lone surrogate encodes as '?'). */
    private static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length() && n < SysCallContext.PATH_CAPACITY; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += Character.isSurrogate(c) ? 1 : 3;
            }
        }
        return n;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        boolean fixed = req.fileIndex != 0;
        int flags = req.opFlags | ((req.opFlags & O_PATH) == 0 ? O_LARGEFILE : 0) | (fixed ? FsCalls.O_CLOEXEC : 0);
        SysCallContext sc = SysCallContext.current();
        int fd;
        if (nonBlocking) {
            fd = tryInline(sc, req, flags);
            if (fd == -Errno.EAGAIN) {
                return fd;   // to io-wq: the open would block
            }
        } else {
            fd = FsCalls.openat(sc, req.fd, (String) req.arg, flags, req.len);
        }
        if (fd < 0) {
            return fd;
        }
        DirectFds.opened(fd, req.opFlags);
        return fixed ? req.ring.resources().installDirect(req, fd, nonBlocking && !req.inWorker()) : fd;
    }

    /** The inline attempt: a descriptor, an error that is the answer, or -EAGAIN to go to io-wq. */
    private static int tryInline(SysCallContext sc, Request req, int flags) {
        boolean path = (flags & O_PATH) != 0;   // O_PATH takes no O_NONBLOCK (openat2 refuses it)
        int fd = FsCalls.openatCached(sc, req.fd, (String) req.arg, path ? flags : flags | FsCalls.O_NONBLOCK, req.len);
        if (fd == -Errno.EINVAL || fd == -Errno.ENOSYS || fd == -Errno.E2BIG) {
            return -Errno.EAGAIN;   // openat2 is stricter than openat: the worker's openat decides
        }
        if (fd >= 0 && !path && (req.opFlags & FsCalls.O_NONBLOCK) == 0) {
            int fl = FsCalls.getStatusFlags(sc, fd);
            if (fl >= 0) {
                FsCalls.setStatusFlags(sc, fd, fl & ~FsCalls.O_NONBLOCK);
            }
        }
        return fd;
    }
}
