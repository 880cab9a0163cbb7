package io.jring.sys;

import io.jring.Errno;
import io.jring.fault.FaultSite;
import io.jring.fault.Faults;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Descriptors and file metadata: openat, close, fsync, fdatasync, fstat, statx, ftruncate,
 * fallocate, lseek, pipe2, fcntl. Wrappers return {@code >= 0} or {@code -errno} and never
 * throw. All of these may block (io-wq) except the fcntl flag helpers, which are critical.
 */
public final class FsCalls {
    private FsCalls() {}

    public static final int AT_FDCWD = -100;
    public static final int AT_EMPTY_PATH = 0x1000;
    public static final int O_NONBLOCK = 04000;
    public static final int O_CLOEXEC = 02000000;
    public static final int F_GETFD = 1;
    public static final int F_SETFD = 2;
    public static final int F_GETFL = 3;
    public static final int F_SETFL = 4;
    public static final int FD_CLOEXEC = 1;
    public static final int SEEK_SET = 0;
    public static final int SEEK_CUR = 1;
    public static final int SEEK_END = 2;
    public static final int FALLOC_FL_KEEP_SIZE = 0x1;
    public static final int FALLOC_FL_PUNCH_HOLE = 0x2;

    private static final FunctionDescriptor INT_FD = FunctionDescriptor.of(JAVA_INT, JAVA_INT);

    /** {@code (capture, int dirfd, char *path, int flags, int mode) -> int}; mode is variadic in C. */
    public static final MethodHandle OPENAT = Libc.downcallVariadic("openat",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), 3);
    public static final MethodHandle CLOSE = Libc.downcall("close", INT_FD);
    public static final MethodHandle FSYNC = Libc.downcall("fsync", INT_FD);
    public static final MethodHandle FDATASYNC = Libc.downcall("fdatasync", INT_FD);
    /** {@code (capture, int fd, struct stat *buf) -> int}. */
    public static final MethodHandle FSTAT = fstatHandle();
    /** {@code (capture, int dirfd, char *path, int flags, int mask, struct statx *buf) -> int}. */
    public static final MethodHandle STATX = Libc.downcall("statx",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    public static final MethodHandle FTRUNCATE = Libc.downcall("ftruncate",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    public static final MethodHandle FALLOCATE = Libc.downcall("fallocate",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
    public static final MethodHandle LSEEK = Libc.downcall("lseek",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
    /** {@code (capture, int fds[2], int flags) -> int}. */
    public static final MethodHandle PIPE2 = Libc.downcall("pipe2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    /** {@code (capture, int fd, int cmd, int arg) -> int}; arg is variadic in C. F_SETLKW blocks: never critical. */
    public static final MethodHandle FCNTL = Libc.downcallVariadic("fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), 2);
    /** Only for F_GETFL/F_SETFL/F_GETFD/F_SETFD, which never block. */
    public static final MethodHandle FCNTL_CRITICAL = Libc.criticalVariadic("fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), 2);

    /** glibc before 2.33 exports fstat only as {@code __fxstat(version, fd, buf)}. */
    private static MethodHandle fstatHandle() {
        FunctionDescriptor fstat = FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS);
        if (Libc.find("fstat").isPresent()) {
            return Libc.downcall("fstat", fstat);
        }
        MethodHandle fxstat = Libc.downcall("__fxstat", fstat.insertArgumentLayouts(0, JAVA_INT));
        int statVersion = Arch.CURRENT == Arch.X86_64 ? 1 : 0;
        return MethodHandles.insertArguments(fxstat, 1, statVersion);
    }

    /** Opens the NUL-terminated path in {@code cPath}. */
    public static int openat(SysCallContext ctx, int dirfd, MemorySegment cPath, int flags, int mode) {
        int bad = Buffers.check(cPath);
        if (bad != 0) {
            return bad;
        }
        try {
            int r = (int) OPENAT.invokeExact(ctx.capture(), dirfd, cPath, flags, mode);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * Opens {@code path}, encoded (UTF-8) into {@link SysCallContext#path()}: -ENAMETOOLONG if
     * it does not fit, -EINVAL if it contains NUL (C would silently open a shorter path).
     */
    public static int openat(SysCallContext ctx, int dirfd, String path, int flags, int mode) {
        int bad = encodePath(ctx, path);
        return bad != 0 ? bad : openat(ctx, dirfd, ctx.path(), flags, mode);
    }

    private static final long SYS_OPENAT2 = 437;   // the same number on x86_64 and aarch64
    /** openat2's RESOLVE_CACHED: fail with EAGAIN rather than block on an uncached lookup. */
    private static final long RESOLVE_CACHED = 0x20;
    private static final int O_CREAT = 0100;
    private static final int O_TMPFILE_BIT = 020000000;

    /**
     * openat2 with RESOLVE_CACHED, as io_uring's non-blocking open attempt (LOOKUP_CACHED):
     * -EAGAIN when the path is not in the dentry cache. Stricter than openat about flags
     * (openat2 refuses unknown bits and a mode without O_CREAT/O_TMPFILE): the caller falls
     * back to {@link #openat} on -EINVAL or -ENOSYS. The {@code open_how} goes in
     * {@link SysCallContext#stat()} (room enough, not in use across this call).
     */
    public static int openatCached(SysCallContext ctx, int dirfd, String path, int flags, int mode) {
        int bad = encodePath(ctx, path);
        if (bad != 0) {
            return bad;
        }
        MemorySegment how = ctx.stat();
        how.set(ValueLayout.JAVA_LONG, 0, flags & 0xFFFFFFFFL);
        how.set(ValueLayout.JAVA_LONG, 8, (flags & (O_CREAT | O_TMPFILE_BIT)) != 0 ? mode & 07777L : 0L);
        how.set(ValueLayout.JAVA_LONG, 16, RESOLVE_CACHED);
        return (int) RawSyscall.call(ctx, SYS_OPENAT2, dirfd, ctx.path().address(), how.address(), 24);
    }

    /** Writes {@code path} NUL-terminated into {@link SysCallContext#path()}: 0 or -errno. */
    public static int encodePath(SysCallContext ctx, String path) {
        if (path.indexOf('\0') >= 0) {
            return -Errno.EINVAL;
        }
        try {
            ctx.path().setString(0, path);
            return 0;
        } catch (IndexOutOfBoundsException tooLong) {
            return -Errno.ENAMETOOLONG;
        } catch (IllegalStateException | WrongThreadException unusable) {
            return -Errno.EFAULT;
        }
    }

    /** Closes {@code fd}, counting the close first in {@link #closeEpoch()}; its number's socket kind is forgotten. */
    public static int close(SysCallContext ctx, int fd) {
        CLOSES.getAndAdd(1L);
        int r = intCall(CLOSE, ctx, fd);
        SocketKinds.forget(fd);
        return r;
    }

    /**
     * How many closes jring has made in this process (any thread): a poller that saw no
     * close since it last registered an fd with epoll knows that number still names the same
     * file, so re-arming it needs no {@code epoll_ctl}. Closes made outside jring are not
     * counted (see Poller).
     */
    public static long closeEpoch() {
        return CLOSES.get();
    }

    private static final java.util.concurrent.atomic.AtomicLong CLOSES = new java.util.concurrent.atomic.AtomicLong();

    /** fsync; EINTR (a signal) is retried, as the kernel's own fsync of a ring would never report it. */
    public static int fsync(SysCallContext ctx, int fd) {
        for (;;) {
            int r = 0;
            if (Faults.ENABLED) {
                r = SyscallFaults.plain(FaultSite.SYNC, fd);
            }
            if (r == 0) {
                r = intCall(FSYNC, ctx, fd);
            }
            if (r != -Errno.EINTR) {
                return r;
            }
        }
    }

    /** fdatasync; EINTR is retried as for {@link #fsync}. */
    public static int fdatasync(SysCallContext ctx, int fd) {
        for (;;) {
            int r = 0;
            if (Faults.ENABLED) {
                r = SyscallFaults.plain(FaultSite.SYNC, fd);
            }
            if (r == 0) {
                r = intCall(FDATASYNC, ctx, fd);
            }
            if (r != -Errno.EINTR) {
                return r;
            }
        }
    }

    /**
     * The fault seam's CLOSE: closes {@code fd} as an application would while requests use
     * it, but puts an O_PATH descriptor in its place (dup3), on which every I/O call fails
     * with EBADF, so the number cannot be given to another file while those requests still
     * use it. Counted as a close ({@link #closeEpoch}), as it is one for epoll.
     */
    static void closeMidFlight(int fd) {
        CLOSES.getAndAdd(1L);
        try {
            int r = (int) DUP3.invokeExact(SysCallContext.current().capture(), Tombstone.FD, fd, O_CLOEXEC);
            if (r < 0) {
                throw new IllegalStateException("fault seam: dup3 over fd " + fd + " failed, errno "
                        + SysCallContext.current().lastErrno());
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static final MethodHandle DUP3 = Libc.downcall("dup3",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));

    /** The O_PATH descriptor (of "/") whose copies stand in for closed ones; opened once, never closed. */
    private static final class Tombstone {
        static final int FD = openat(SysCallContext.current(), AT_FDCWD, "/", O_PATH | O_CLOEXEC, 0);
    }

    private static final int O_PATH = 010000000;

    /** Fills {@link SysCallContext#stat()}; read it with {@link Structs.Stat}. */
    public static int fstat(SysCallContext ctx, int fd) {
        try {
            int r = (int) FSTAT.invokeExact(ctx.capture(), fd, ctx.stat());
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** The file type bits ({@code mode & S_IFMT}, e.g. {@link Structs.Stat#S_IFREG}) or -errno. */
    public static int fileType(SysCallContext ctx, int fd) {
        int r = fstat(ctx, fd);
        return r < 0 ? r : Structs.Stat.mode(ctx.stat()) & Structs.Stat.S_IFMT;
    }

    /** The file size in bytes, or -errno. */
    public static long fileSize(SysCallContext ctx, int fd) {
        int r = fstat(ctx, fd);
        return r < 0 ? r : Structs.Stat.size(ctx.stat());
    }

    /** statx of the open {@code fd} itself (AT_EMPTY_PATH) into {@link SysCallContext#stat()}; read it with {@link Structs.Statx}. */
    public static int statx(SysCallContext ctx, int fd, int mask) {
        try {
            ctx.path().set(JAVA_INT, 0, 0);   // "" for AT_EMPTY_PATH
            int r = (int) STATX.invokeExact(ctx.capture(), fd, ctx.path(), AT_EMPTY_PATH, mask, ctx.stat());
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static int ftruncate(SysCallContext ctx, int fd, long length) {
        try {
            int r = (int) FTRUNCATE.invokeExact(ctx.capture(), fd, length);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static int fallocate(SysCallContext ctx, int fd, int mode, long offset, long len) {
        try {
            int r = (int) FALLOCATE.invokeExact(ctx.capture(), fd, mode, offset, len);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** The new file position, or -errno. */
    public static long lseek(SysCallContext ctx, int fd, long offset, int whence) {
        try {
            long r = (long) LSEEK.invokeExact(ctx.capture(), fd, offset, whence);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Writes the read end then the write end into {@code fds} (8 bytes, e.g. {@link SysCallContext#scratch()}). */
    public static int pipe2(SysCallContext ctx, MemorySegment fds, int flags) {
        int bad = Buffers.check(fds, 8);
        if (bad != 0) {
            return bad;
        }
        try {
            int r = (int) PIPE2.invokeExact(ctx.capture(), fds, flags);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** Any fcntl command with an int argument; may block (F_SETLKW). */
    public static int fcntl(SysCallContext ctx, int fd, int cmd, int arg) {
        try {
            int r = (int) FCNTL.invokeExact(ctx.capture(), fd, cmd, arg);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** The file status flags (F_GETFL), or -errno. */
    public static int getStatusFlags(SysCallContext ctx, int fd) {
        return fcntlCritical(ctx, fd, F_GETFL, 0);
    }

    /** Sets the file status flags (F_SETFL): 0 or -errno. */
    public static int setStatusFlags(SysCallContext ctx, int fd, int flags) {
        return fcntlCritical(ctx, fd, F_SETFL, flags);
    }

    /** Turns O_NONBLOCK on or off, keeping the other status flags: 0 or -errno. */
    public static int setNonBlocking(SysCallContext ctx, int fd, boolean nonBlocking) {
        int flags = getStatusFlags(ctx, fd);
        if (flags < 0) {
            return flags;
        }
        int wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK;
        return wanted == flags ? 0 : setStatusFlags(ctx, fd, wanted);
    }

    private static int fcntlCritical(SysCallContext ctx, int fd, int cmd, int arg) {
        try {
            int r = (int) FCNTL_CRITICAL.invokeExact(ctx.capture(), fd, cmd, arg);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    private static int intCall(MethodHandle handle, SysCallContext ctx, int fd) {
        try {
            int r = (int) handle.invokeExact(ctx.capture(), fd);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }
}
