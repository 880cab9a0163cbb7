package io.jring.sys;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Kernel struct layouts as offsets plus accessors that take the segment and an index, so
 * reading or filling an array of structs allocates nothing. Both supported architectures are
 * little-endian LP64; where they differ ({@code epoll_event}, {@code stat}) it says so.
 * Socket addresses are in {@link SockAddrs}.
 */
public final class Structs {
    private Structs() {}

    private static final boolean X86_64 = Arch.CURRENT == Arch.X86_64;

    /** {@code struct iovec { void *iov_base; size_t iov_len; }}. */
    public static final class Iovec {
        private Iovec() {}

        public static final StructLayout LAYOUT = MemoryLayout.structLayout(
                JAVA_LONG.withName("iov_base"), JAVA_LONG.withName("iov_len"));
        public static final long SIZE = 16;

        /** Writes entry {@code index} from a raw address; the caller vouches for the memory. */
        public static void set(MemorySegment iovs, int index, long address, long len) {
            long at = index * SIZE;
            iovs.set(JAVA_LONG, at, address);
            iovs.set(JAVA_LONG, at + 8, len);
        }

        /**
         * Writes entry {@code index} for the first {@code len} bytes of {@code buf}, after
         * {@link Buffers#check(MemorySegment, long)}: 0 or {@code -errno}. The kernel sees only the
         * address, so {@code buf} must stay alive until the call that uses the iovec returns.
         */
        public static int set(MemorySegment iovs, int index, MemorySegment buf, long len) {
            int bad = Buffers.check(buf, len);
            if (bad != 0) {
                return bad;
            }
            set(iovs, index, buf.address(), len);
            return 0;
        }

        public static long base(MemorySegment iovs, int index) {
            return iovs.get(JAVA_LONG, index * SIZE);
        }

        public static long len(MemorySegment iovs, int index) {
            return iovs.get(JAVA_LONG, index * SIZE + 8);
        }
    }

    /**
     * {@code struct epoll_event { uint32_t events; epoll_data_t data; }}: packed on x86_64
     * (12 bytes, data at offset 4), naturally aligned on aarch64 (16 bytes, data at 8).
     */
    public static final class EpollEvent {
        private EpollEvent() {}

        public static final long SIZE = X86_64 ? 12 : 16;
        public static final long DATA_OFFSET = X86_64 ? 4 : 8;
        public static final StructLayout LAYOUT = X86_64
                ? MemoryLayout.structLayout(JAVA_INT.withName("events"), JAVA_LONG_UNALIGNED.withName("data"))
                : MemoryLayout.structLayout(JAVA_INT.withName("events"), MemoryLayout.paddingLayout(4),
                        JAVA_LONG.withName("data"));

        public static void set(MemorySegment events, int index, int mask, long data) {
            long at = index * SIZE;
            events.set(JAVA_INT_UNALIGNED, at, mask);
            events.set(JAVA_LONG_UNALIGNED, at + DATA_OFFSET, data);
        }

        public static int events(MemorySegment events, int index) {
            return events.get(JAVA_INT_UNALIGNED, index * SIZE);
        }

        public static long data(MemorySegment events, int index) {
            return events.get(JAVA_LONG_UNALIGNED, index * SIZE + DATA_OFFSET);
        }
    }

    /** {@code struct stat} as filled by {@code fstat}: only the fields jring needs. */
    public static final class Stat {
        private Stat() {}

        public static final long SIZE = X86_64 ? 144 : 128;
        private static final long MODE_OFFSET = X86_64 ? 24 : 16;
        private static final long SIZE_OFFSET = 48;

        public static final int S_IFMT = 0170000;
        public static final int S_IFSOCK = 0140000;
        public static final int S_IFREG = 0100000;
        public static final int S_IFBLK = 0060000;
        public static final int S_IFDIR = 0040000;
        public static final int S_IFCHR = 0020000;
        public static final int S_IFIFO = 0010000;

        public static int mode(MemorySegment stat) {
            return stat.get(JAVA_INT, MODE_OFFSET);
        }

        public static long size(MemorySegment stat) {
            return stat.get(JAVA_LONG, SIZE_OFFSET);
        }

        /** {@code st_dev}: the device the file lives on (offset 0 on x86_64 and aarch64). */
        public static long dev(MemorySegment stat) {
            return stat.get(JAVA_LONG, 0);
        }

        /** {@code st_ino}: the file's inode number (offset 8 on x86_64 and aarch64). */
        public static long ino(MemorySegment stat) {
            return stat.get(JAVA_LONG, 8);
        }

        public static boolean isRegular(int mode) {
            return (mode & S_IFMT) == S_IFREG;
        }

        public static boolean isFifo(int mode) {
            return (mode & S_IFMT) == S_IFIFO;
        }

        public static boolean isSocket(int mode) {
            return (mode & S_IFMT) == S_IFSOCK;
        }

        public static boolean isCharDevice(int mode) {
            return (mode & S_IFMT) == S_IFCHR;
        }

        public static boolean isBlockDevice(int mode) {
            return (mode & S_IFMT) == S_IFBLK;
        }

        public static boolean isDirectory(int mode) {
            return (mode & S_IFMT) == S_IFDIR;
        }
    }

    /** {@code struct statx} (256 bytes, same on every architecture). */
    public static final class Statx {
        private Statx() {}

        public static final long SIZE = 256;
        public static final int STATX_TYPE = 0x1;
        public static final int STATX_MODE = 0x2;
        public static final int STATX_SIZE = 0x200;
        public static final int STATX_BASIC_STATS = 0x7ff;
        /** Linux 6.1+: O_DIRECT alignment in {@link #dioMemAlign} and {@link #dioOffsetAlign}. */
        public static final int STATX_DIOALIGN = 0x2000;

        /** Which fields the kernel filled. */
        public static int mask(MemorySegment statx) {
            return statx.get(JAVA_INT, 0);
        }

        public static int mode(MemorySegment statx) {
            return Short.toUnsignedInt(statx.get(JAVA_SHORT, 28));
        }

        public static long size(MemorySegment statx) {
            return statx.get(JAVA_LONG, 40);
        }

        public static int dioMemAlign(MemorySegment statx) {
            return statx.get(JAVA_INT, 152);
        }

        public static int dioOffsetAlign(MemorySegment statx) {
            return statx.get(JAVA_INT, 156);
        }
    }

    /** {@code struct iocb} of Linux native AIO (linux/aio_abi.h, little-endian), 64 bytes. */
    public static final class Iocb {
        private Iocb() {}

        public static final long SIZE = 64;
        public static final int CMD_PREAD = 0;
        public static final int CMD_PWRITE = 1;
        public static final int CMD_FSYNC = 2;
        public static final int CMD_FDSYNC = 3;
        public static final int CMD_POLL = 5;
        public static final int CMD_NOOP = 6;
        public static final int CMD_PREADV = 7;
        public static final int CMD_PWRITEV = 8;
        /** {@code aio_flags}: signal {@code aio_resfd} (an eventfd) on completion. */
        public static final int FLAG_RESFD = 1;

        /** Writes every field of the iocb at the start of {@code iocb} for one command. */
        public static void set(MemorySegment iocb, long data, int opcode, int fd,
                               long buf, long nbytes, long offset, int rwFlags) {
            iocb.set(JAVA_LONG, 0, data);
            iocb.set(JAVA_INT, 8, 0);                 // aio_key: the kernel requires 0
            iocb.set(JAVA_INT, 12, rwFlags);          // RWF_* as for preadv2
            iocb.set(JAVA_SHORT, 16, (short) opcode);
            iocb.set(JAVA_SHORT, 18, (short) 0);      // aio_reqprio
            iocb.set(JAVA_INT, 20, fd);
            iocb.set(JAVA_LONG, 24, buf);
            iocb.set(JAVA_LONG, 32, nbytes);
            iocb.set(JAVA_LONG, 40, offset);
            iocb.set(JAVA_LONG, 48, 0L);              // aio_reserved2 must be 0
            iocb.set(JAVA_INT, 56, 0);                // aio_flags
            iocb.set(JAVA_INT, 60, 0);                // aio_resfd
        }

        /** Sets {@code aio_flags = FLAG_RESFD} and {@code aio_resfd}. */
        public static void setResfd(MemorySegment iocb, int eventfd) {
            iocb.set(JAVA_INT, 56, FLAG_RESFD);
            iocb.set(JAVA_INT, 60, eventfd);
        }
    }

    /** {@code struct io_event { u64 data; u64 obj; s64 res; s64 res2; }}, 32 bytes. */
    public static final class IoEvent {
        private IoEvent() {}

        public static final long SIZE = 32;

        public static long data(MemorySegment events, int index) {
            return events.get(JAVA_LONG, index * SIZE);
        }

        public static long obj(MemorySegment events, int index) {
            return events.get(JAVA_LONG, index * SIZE + 8);
        }

        /** Bytes transferred, or {@code -errno} (already the io_uring convention). */
        public static long res(MemorySegment events, int index) {
            return events.get(JAVA_LONG, index * SIZE + 16);
        }
    }
}
