package io.jring.sys;

import io.jring.OpenFlags;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

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
 * <p>Each tracked O_DIRECT descriptor also maps to its {@link DirectFile} (in-flight count,
 * O_DSYNC companion), shared with its duplicates.
 *
 * <p>Any thread; an {@link AtomicLongArray} bitset (volatile reads, CAS updates), read once
 * per request on the issue path. The file table is read volatile on the issue path and
 * changed under {@link #FILES}' monitor (opens, duplicates, closes).
 */
public final class DirectFds {
    /** Descriptors tracked by the bitset; larger ones ask the kernel. */
    public static final int TRACKED = 1 << 16;

    private static final AtomicLongArray BITS = new AtomicLongArray(TRACKED / 64);
    private static final AtomicReferenceArray<DirectFile> FILES = new AtomicReferenceArray<>(TRACKED);

    private DirectFds() {}

    /** Records the flags a descriptor was opened with. */
    public static void opened(int fd, int openFlags) {
        boolean direct = (openFlags & OpenFlags.DIRECT) != 0;
        set(fd, direct);
        if (fd >= 0 && fd < TRACKED) {
            DirectFile f = direct ? DirectFile.open(fd, openFlags) : null;
            synchronized (FILES) {
                drop(FILES.getAndSet(fd, f));
            }
        }
    }

    /** Records that a descriptor was closed (its number may come back for another file). */
    public static void closed(int fd) {
        set(fd, false);
        if (fd >= 0 && fd < TRACKED) {
            synchronized (FILES) {
                drop(FILES.getAndSet(fd, null));
            }
        }
    }

    /** Records a duplicate: it shares the original's open file, O_DIRECT included. */
    public static void duplicated(int from, int to) {
        set(to, isDirect(from));
        if (to >= 0 && to < TRACKED) {
            synchronized (FILES) {
                DirectFile f = file(from);
                if (f != null) {
                    f.refs++;
                }
                drop(FILES.getAndSet(to, f));
            }
        }
    }

    /** The O_DIRECT file state of {@code fd}, or null if jring did not open it (or does not track it). */
    public static DirectFile file(int fd) {
        return fd >= 0 && fd < TRACKED ? FILES.get(fd) : null;
    }

    /** Under the table's monitor: one descriptor less names {@code f}. */
    private static void drop(DirectFile f) {
        if (f != null && --f.refs == 0) {
            f.release();
        }
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
