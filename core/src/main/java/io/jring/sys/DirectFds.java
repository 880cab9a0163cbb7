package io.jring.sys;

import io.jring.OpenFlags;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which descriptors jring opened with O_DIRECT. A {@code preadv2(RWF_NOWAIT)} on an O_DIRECT
 * file does not return EAGAIN when the device is busy: it waits for the device, which would
 * make the submitting thread do every direct read itself, one at a time. So reads and
 * writes of descriptors marked here skip the inline attempt and go to io-wq (later: native
 * AIO), as Linux's io_uring never waits for a device in the submitter.
 *
 * <p>Marked when jring opens a descriptor ({@code Fds.open}, OPENAT, fixed-file duplicates)
 * and cleared when jring closes it. A descriptor opened or closed outside jring keeps what
 * jring last knew: a stale "direct" only costs a trip through io-wq, never a wrong result.
 * Descriptors beyond {@link #TRACKED} are asked about with {@code fcntl(F_GETFL)}.
 *
 * <p>Any thread; an {@link AtomicLongArray} bitset (volatile reads, CAS updates), read once
 * per request on the issue path.
 */
public final class DirectFds {
    /** Descriptors tracked by the bitset; larger ones ask the kernel. */
    public static final int TRACKED = 1 << 16;

    private static final AtomicLongArray BITS = new AtomicLongArray(TRACKED / 64);

    private DirectFds() {}

    /** Records the flags a descriptor was opened with. */
    public static void opened(int fd, int openFlags) {
        set(fd, (openFlags & OpenFlags.DIRECT) != 0);
    }

    /** Records that a descriptor was closed (its number may come back for another file). */
    public static void closed(int fd) {
        set(fd, false);
    }

    /** Records a duplicate: it shares the original's open file, O_DIRECT included. */
    public static void duplicated(int from, int to) {
        set(to, isDirect(from));
    }

    public static boolean isDirect(int fd) {
        if (fd < 0) {
            return false;
        }
        if (fd < TRACKED) {
            return (BITS.get(fd >>> 6) & (1L << fd)) != 0;
        }
        int fl = FsCalls.getStatusFlags(SysCallContext.current(), fd);
        return fl >= 0 && (fl & OpenFlags.DIRECT) != 0;
    }

    private static void set(int fd, boolean direct) {
        if (fd < 0 || fd >= TRACKED) {
            return;
        }
        int i = fd >>> 6;
        long bit = 1L << fd;
        long cur;
        do {
            cur = BITS.get(i);
            if (((cur & bit) != 0) == direct) {
                return;
            }
        } while (!BITS.compareAndSet(i, cur, direct ? cur | bit : cur & ~bit));
    }
}
