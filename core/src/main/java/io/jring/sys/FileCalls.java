package io.jring.sys;

import io.jring.Errno;
import io.jring.fault.FaultSite;
import io.jring.fault.Faults;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The read/write family: read, write, pread, pwrite, readv, writev, preadv2, pwritev2.
 * Every wrapper returns the byte count or {@code -errno}, never throws, and checks the buffer
 * ({@link Buffers#check(MemorySegment, long)}) before the kernel sees it.
 *
 * <p>The {@code *Nowait} wrappers are the inline issue attempt of a request: they add
 * {@link #RWF_NOWAIT} and go through a critical handle, since with NOWAIT the kernel returns
 * {@code -EAGAIN} instead of blocking. A file that does not support NOWAIT returns
 * {@code -EOPNOTSUPP}; treat both as "punt to io-wq". Offsets of -1 mean the file position.
 *
 * <p>The vectored wrappers the engine's requests use (preadv2, pwritev2 and their NOWAIT
 * forms) retry EINTR, which a signal may cause before anything moved: io_uring never shows
 * it in a CQE. They carry the fault seam ({@code io.jring.fault.Faults}).
 */
public final class FileCalls {
    private FileCalls() {}

    /** preadv2/pwritev2 flags. */
    public static final int RWF_HIPRI = 0x1;
    public static final int RWF_DSYNC = 0x2;
    public static final int RWF_SYNC = 0x4;
    public static final int RWF_NOWAIT = 0x8;
    public static final int RWF_APPEND = 0x10;

    private static final FunctionDescriptor RW = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);
    private static final FunctionDescriptor PRW = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG);
    private static final FunctionDescriptor RWV = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT);
    private static final FunctionDescriptor PRWV2 =
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_INT);

    /** {@code (capture, int fd, void *buf, long count) -> long}. */
    public static final MethodHandle READ = Libc.downcall("read", RW);
    public static final MethodHandle WRITE = Libc.downcall("write", RW);
    /** Only for fds known to be O_NONBLOCK (eventfd, a non-blocking pipe). */
    public static final MethodHandle READ_CRITICAL = Libc.critical("read", RW);
    public static final MethodHandle WRITE_CRITICAL = Libc.critical("write", RW);
    /** {@code (capture, int fd, void *buf, long count, long offset) -> long}; off_t is 64-bit on LP64, so pread is pread64. */
    public static final MethodHandle PREAD = Libc.downcall("pread", PRW);
    public static final MethodHandle PWRITE = Libc.downcall("pwrite", PRW);
    /** {@code (capture, int fd, struct iovec *iov, int iovcnt) -> long}. */
    public static final MethodHandle READV = Libc.downcall("readv", RWV);
    public static final MethodHandle WRITEV = Libc.downcall("writev", RWV);
    /** {@code (capture, int fd, struct iovec *iov, int iovcnt, long offset, int flags) -> long}. */
    public static final MethodHandle PREADV2 = Libc.downcall("preadv2", PRWV2);
    public static final MethodHandle PWRITEV2 = Libc.downcall("pwritev2", PRWV2);
    /** Only with {@link #RWF_NOWAIT}: the call then never blocks. */
    public static final MethodHandle PREADV2_CRITICAL = Libc.critical("preadv2", PRWV2);
    public static final MethodHandle PWRITEV2_CRITICAL = Libc.critical("pwritev2", PRWV2);

    public static long read(SysCallContext ctx, int fd, MemorySegment buf, long len) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) READ.invokeExact(ctx.capture(), fd, buf, len);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long write(SysCallContext ctx, int fd, MemorySegment buf, long len) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) WRITE.invokeExact(ctx.capture(), fd, buf, len);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long pread(SysCallContext ctx, int fd, MemorySegment buf, long len, long offset) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) PREAD.invokeExact(ctx.capture(), fd, buf, len, offset);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long pwrite(SysCallContext ctx, int fd, MemorySegment buf, long len, long offset) {
        int bad = Buffers.check(buf, len);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) PWRITE.invokeExact(ctx.capture(), fd, buf, len, offset);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** {@code iov} holds {@code iovcnt} iovecs filled by {@link Structs.Iovec#set}, e.g. {@link SysCallContext#iovecs()}. */
    public static long readv(SysCallContext ctx, int fd, MemorySegment iov, int iovcnt) {
        int bad = checkIovecs(iov, iovcnt);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) READV.invokeExact(ctx.capture(), fd, iov, iovcnt);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long writev(SysCallContext ctx, int fd, MemorySegment iov, int iovcnt) {
        int bad = checkIovecs(iov, iovcnt);
        if (bad != 0) {
            return bad;
        }
        try {
            long r = (long) WRITEV.invokeExact(ctx.capture(), fd, iov, iovcnt);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Blocking preadv2 (io-wq): any RWF_* flags. */
    public static long preadv2(SysCallContext ctx, int fd, MemorySegment iov, int iovcnt, long offset, int flags) {
        int bad = checkIovecs(iov, iovcnt);
        if (bad != 0) {
            return bad;
        }
        for (;;) {
            int n = iovcnt;
            if (Faults.ENABLED) {
                long f = SyscallFaults.vectored(FaultSite.READ, fd, iov, iovcnt);
                if (f == -Errno.EINTR) {
                    continue;
                }
                if (f < 0) {
                    return f;
                }
                n = (int) f;
            }
            long r;
            try {
                r = (long) PREADV2.invokeExact(ctx.capture(), fd, iov, n, offset, flags);
            } catch (Throwable t) {
                return Libc.errnoOf(t);
            }
            if (r >= 0) {
                return r;
            }
            int e = ctx.lastErrno();
            if (e != Errno.EINTR) {
                return -e;
            }
        }
    }

    public static long pwritev2(SysCallContext ctx, int fd, MemorySegment iov, int iovcnt, long offset, int flags) {
        int bad = checkIovecs(iov, iovcnt);
        if (bad != 0) {
            return bad;
        }
        for (;;) {
            int n = iovcnt;
            if (Faults.ENABLED) {
                long f = SyscallFaults.vectored(FaultSite.WRITE, fd, iov, iovcnt);
                if (f == -Errno.EINTR) {
                    continue;
                }
                if (f < 0) {
                    return f;
                }
                n = (int) f;
            }
            long r;
            try {
                r = (long) PWRITEV2.invokeExact(ctx.capture(), fd, iov, n, offset, flags);
            } catch (Throwable t) {
                return Libc.errnoOf(t);
            }
            if (r >= 0) {
                return r;
            }
            int e = ctx.lastErrno();
            if (e != Errno.EINTR) {
                return -e;
            }
        }
    }

    /** The inline attempt for a vectored read: {@code flags | RWF_NOWAIT}, critical. */
    public static long preadv2Nowait(SysCallContext ctx, int fd, MemorySegment iov, int iovcnt, long offset, int flags) {
        int bad = checkIovecs(iov, iovcnt);
        if (bad != 0) {
            return bad;
        }
        for (;;) {
            int n = iovcnt;
            if (Faults.ENABLED) {
                long f = SyscallFaults.vectored(FaultSite.READ_NOWAIT, fd, iov, iovcnt);
                if (f == -Errno.EINTR) {
                    continue;
                }
                if (f < 0) {
                    return f;
                }
                n = (int) f;
            }
            long r;
            try {
                r = (long) PREADV2_CRITICAL.invokeExact(ctx.capture(), fd, iov, n, offset, flags | RWF_NOWAIT);
            } catch (Throwable t) {
                return Libc.errnoOf(t);
            }
            if (r >= 0) {
                return r;
            }
            int e = ctx.lastErrno();
            if (e != Errno.EINTR) {
                return -e;
            }
        }
    }

    public static long pwritev2Nowait(SysCallContext ctx, int fd, MemorySegment iov, int iovcnt, long offset, int flags) {
        int bad = checkIovecs(iov, iovcnt);
        if (bad != 0) {
            return bad;
        }
        for (;;) {
            int n = iovcnt;
            if (Faults.ENABLED) {
                long f = SyscallFaults.vectored(FaultSite.WRITE_NOWAIT, fd, iov, iovcnt);
                if (f == -Errno.EINTR) {
                    continue;
                }
                if (f < 0) {
                    return f;
                }
                n = (int) f;
            }
            long r;
            try {
                r = (long) PWRITEV2_CRITICAL.invokeExact(ctx.capture(), fd, iov, n, offset, flags | RWF_NOWAIT);
            } catch (Throwable t) {
                return Libc.errnoOf(t);
            }
            if (r >= 0) {
                return r;
            }
            int e = ctx.lastErrno();
            if (e != Errno.EINTR) {
                return -e;
            }
        }
    }

    /** The inline attempt for a single-buffer read (IORING_OP_READ): preadv2 with RWF_NOWAIT. */
    public static long preadNowait(SysCallContext ctx, int fd, MemorySegment buf, long len, long offset) {
        int bad = setSingleIovec(ctx, buf, len);
        return bad != 0 ? bad : preadv2Nowait(ctx, fd, ctx.singleIovec(), 1, offset, 0);
    }

    /** The inline attempt for a single-buffer write (IORING_OP_WRITE): pwritev2 with RWF_NOWAIT. */
    public static long pwriteNowait(SysCallContext ctx, int fd, MemorySegment buf, long len, long offset) {
        int bad = setSingleIovec(ctx, buf, len);
        return bad != 0 ? bad : pwritev2Nowait(ctx, fd, ctx.singleIovec(), 1, offset, 0);
    }

    /** Writing the context's iovec throws if the context is closed or not this thread's. */
    private static int setSingleIovec(SysCallContext ctx, MemorySegment buf, long len) {
        try {
            return Structs.Iovec.set(ctx.singleIovec(), 0, buf, len);
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * The iovec array itself must be valid memory; the buffers it points to were checked when
     * it was filled ({@link Structs.Iovec#set(MemorySegment, int, MemorySegment, long)}).
     */
    private static int checkIovecs(MemorySegment iov, int iovcnt) {
        if (iovcnt < 0) {
            return -Errno.EINVAL;
        }
        return Buffers.check(iov, iovcnt * Structs.Iovec.SIZE);
    }
}
