package io.jring.sys;

import io.jring.OpenFlags;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Which descriptors jring opened with O_DIRECT, and their {@link DirectFile} (in-flight
 * count, O_DSYNC companion), shared with their duplicates. A {@code preadv2(RWF_NOWAIT)} on
 * an O_DIRECT file does not return EAGAIN when the device is busy: it waits for the device,
 * which would make the submitting thread do every direct read itself, one at a time. So
 * reads and writes of descriptors listed here skip the inline attempt and go to the device
 * through native AIO (or io-wq), as Linux's io_uring never waits for a device in the submitter.
 *
 * <p>Listed when jring opens a descriptor ({@code Fds.open}, OPENAT, fixed-file duplicates)
 * and dropped when jring closes it. A descriptor opened or closed outside jring keeps what
 * jring last knew: a stale "direct" only costs a trip through AIO or io-wq, never a wrong
 * result. Descriptors beyond {@link #TRACKED} are asked about with {@code fcntl(F_GETFL)}.
 *
 * <p>Any thread: the table is read volatile on the issue path (once per request) and
 * changed under {@link #FILES}' monitor (opens, duplicates, closes).
 */
public final class DirectFds {
    /** Descriptors tracked by the table; larger ones ask the kernel. */
    public static final int TRACKED = 1 << 16;

    private static final AtomicReferenceArray<DirectFile> FILES = new AtomicReferenceArray<>(TRACKED);

    private DirectFds() {}

    /** Records the flags a descriptor was opened with. */
    public static void opened(int fd, int openFlags) {
        if (fd >= 0 && fd < TRACKED) {
            DirectFile f = (openFlags & OpenFlags.DIRECT) != 0 ? DirectFile.open(fd, openFlags) : null;
            synchronized (FILES) {
                drop(FILES.getAndSet(fd, f));
            }
        }
    }

    /** Records that a descriptor was closed (its number may come back for another file). */
    public static void closed(int fd) {
        if (fd >= 0 && fd < TRACKED) {
            synchronized (FILES) {
                drop(FILES.getAndSet(fd, null));
            }
        }
    }

    /** Records a duplicate: it shares the original's open file, O_DIRECT included. */
    public static void duplicated(int from, int to) {
        if (to >= 0 && to < TRACKED) {
            // An untracked original (beyond TRACKED) is asked about; the copy gets its own state.
            DirectFile fresh = from >= TRACKED && isDirect(from) ? DirectFile.open(to, OpenFlags.DIRECT) : null;
            synchronized (FILES) {
                DirectFile f = fresh != null ? fresh : file(from);
                if (f != null && f != fresh) {
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
            return FILES.get(fd) != null;
        }
        int fl = FsCalls.getStatusFlags(SysCallContext.current(), fd);
        return fl >= 0 && (fl & OpenFlags.DIRECT) != 0;
    }
}
