package io.jring.sys;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Whether closing a descriptor may call its file's {@code ->flush}, which can block (NFS
 * writes dirty pages back, FUSE asks its daemon, overlayfs flushes the real file): Linux's
 * io_close closes inline unless the file has one, and punts that close to io-wq. From user
 * space jring goes by what the descriptor is: pipes, FIFOs and sockets never flush (checked
 * on 6.18: CLOSE of each runs inline); regular files, directories and anonymous inodes
 * (eventfd, epoll...) flush only on file systems that define it, so those on the local ones
 * listed here close inline and the rest in io-wq; devices, whose driver may flush, go to
 * io-wq too.
 */
public final class FileFlush {
    private FileFlush() {}

    /** {@code fstatfs(int fd, struct statfs *buf)}: critical, it never blocks. */
    private static final class Calls {
        static final MethodHandle FSTATFS = Libc.critical("fstatfs",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }

    /** Magic numbers ({@code statfs.f_type}) of file systems whose files have no ->flush. */
    private static final long[] NO_FLUSH = {
        0xEF53L,        // ext2/3/4
        0x58465342L,    // xfs
        0x9123683EL,    // btrfs
        0xF2F52010L,    // f2fs
        0x01021994L,    // tmpfs (and devtmpfs)
        0x858458F6L,    // ramfs
        0x958458F6L,    // hugetlbfs
        0x9FA0L,        // proc
        0x62656572L,    // sysfs
        0x63677270L,    // cgroup2
        0x27E0EBL,      // cgroup
        0x64626720L,    // debugfs
        0x74726163L,    // tracefs
        0xCAFE4A11L,    // bpf
        0x09041934L,    // anonymous inodes (eventfd, epoll, timerfd, signalfd)
    };

    /**
     * True if closing {@code fd} may block in a ->flush. False for a number no file has (the
     * close fails with -EBADF at once, as Linux's lookup does).
     */
    public static boolean mayFlush(SysCallContext sc, int fd) {
        if (FsCalls.fstat(sc, fd) < 0) {
            return false;
        }
        int type = Structs.Stat.mode(sc.stat()) & Structs.Stat.S_IFMT;
        if (type == Structs.Stat.S_IFIFO || type == Structs.Stat.S_IFSOCK) {
            return false;
        }
        if (type == Structs.Stat.S_IFCHR || type == Structs.Stat.S_IFBLK) {
            return true;
        }
        long magic = fileSystem(sc, fd);
        for (long m : NO_FLUSH) {
            if (m == magic) {
                return false;
            }
        }
        return true;
    }

    /** The file system's magic number of {@code fd}'s file, or -errno. */
    static long fileSystem(SysCallContext sc, int fd) {
        try {
            int r = (int) Calls.FSTATFS.invokeExact(sc.capture(), fd, sc.stat());
            return r >= 0 ? sc.stat().get(JAVA_LONG, 0) & 0xFFFF_FFFFL : -sc.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }
}
