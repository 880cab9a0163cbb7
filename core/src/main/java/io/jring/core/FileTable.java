package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.sys.DirectFds;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/**
 * Registered ("fixed") files of a ring (the kernel's {@code file_table}): SQEs with
 * {@code SqeFlags.FIXED_FILE} name a slot instead of a descriptor. Slots hold -1 when empty.
 * Like the kernel, which takes a reference to each file, the table holds its own duplicate
 * of every descriptor, so closing the original leaves the slot usable; the duplicates are
 * closed when a slot is replaced, on unregister and when the ring closes.
 * Written under the ring's posting right (registration calls enter the ring); read by the
 * submitter under the same right: plain fields.
 */
final class FileTable {
    private int[] fds;

    boolean isRegistered() {
        return fds != null;
    }

    int size() {
        return fds == null ? 0 : fds.length;
    }

    void register(int[] files) {
        if (fds != null) {
            throw new IoUringException(Errno.EBUSY, "files are already registered; unregisterFiles() first");
        }
        if (files == null || files.length == 0) {
            throw new IoUringException(Errno.EINVAL, "registerFiles needs at least one slot");
        }
        if (files.length > 1 << 20) {
            throw new IoUringException(Errno.EMFILE, "too many fixed files: " + files.length);
        }
        int[] copy = new int[files.length];
        java.util.Arrays.fill(copy, -1);
        for (int i = 0; i < files.length; i++) {
            int d = dup(files[i]);
            if (d < -1) {
                closeAll(copy);
                throw new IoUringException(Errno.EBADF, "fd " + files[i] + " at index " + i + " is not valid");
            }
            copy[i] = d;
        }
        fds = copy;
    }

    /** A private duplicate of {@code fd} (-1 stays -1), or a value < -1 (-errno) on failure. */
    static int dup(int fd) {
        if (fd == -1) {
            return -1;
        }
        if (fd < 0) {
            return -Errno.EBADF;
        }
        int d = FsCalls.fcntl(SysCallContext.current(), fd, F_DUPFD_CLOEXEC, 0);
        if (d >= 0) {
            DirectFds.duplicated(fd, d);
        }
        return d >= 0 ? d : Math.min(d, -2);
    }

    private static final int F_DUPFD_CLOEXEC = 1030;

    /**
     * Requests in flight on each duplicate, by fd number: a slot replaced or unregistered
     * while requests use its file closes the duplicate only when the last one completes, as
     * Linux's requests hold a reference to their file. Posting right, like the table.
     */
    private int[] inUse = new int[0];
    private boolean[] closeWhenIdle = new boolean[0];

    /** A request took slot's descriptor {@code fd}: it stays open until {@link #releaseUse}. */
    void acquireUse(int fd) {
        if (fd >= inUse.length) {
            int n = Math.max(fd + 1, inUse.length * 2);
            inUse = java.util.Arrays.copyOf(inUse, n);
            closeWhenIdle = java.util.Arrays.copyOf(closeWhenIdle, n);
        }
        inUse[fd]++;
    }

    /** The request that took {@code fd} completed. */
    void releaseUse(int fd) {
        if (--inUse[fd] == 0 && closeWhenIdle[fd]) {
            closeWhenIdle[fd] = false;
            closeNow(fd);
        }
    }

    private void closeDup(int fd) {
        if (fd < 0) {
            return;
        }
        if (fd < inUse.length && inUse[fd] > 0) {
            closeWhenIdle[fd] = true;
        } else {
            closeNow(fd);
        }
    }

    /** Closes a duplicate this table (or a message carrying one) made. */
    static void closeNow(int fd) {
        DirectFds.closed(fd);
        FsCalls.close(SysCallContext.current(), fd);
    }

    private void closeAll(int[] t) {
        for (int fd : t) {
            closeDup(fd);
        }
    }

    void update(int offset, int[] files) {
        if (fds == null) {
            throw new IoUringException(Errno.ENXIO, "no files registered");
        }
        if (files == null || offset < 0 || (long) offset + files.length > fds.length) {
            throw new IoUringException(Errno.EINVAL, "update of " + (files == null ? 0 : files.length)
                    + " slots at " + offset + " does not fit the " + fds.length + " registered");
        }
        int[] dups = new int[files.length];
        for (int i = 0; i < files.length; i++) {
            dups[i] = dup(files[i]);
            if (dups[i] < -1) {
                java.util.Arrays.fill(dups, i, dups.length, -1);
                closeAll(dups);
                throw new IoUringException(Errno.EBADF, "fd " + files[i] + " is not valid");
            }
        }
        for (int i = 0; i < files.length; i++) {
            closeDup(fds[offset + i]);
            fds[offset + i] = dups[i];
        }
    }

    void unregister() {
        if (fds == null) {
            throw new IoUringException(Errno.ENXIO, "no files registered");
        }
        closeAll(fds);
        fds = null;
    }

    /** The ring is closing: releases the duplicates. */
    void release() {
        if (fds != null) {
            closeAll(fds);
            fds = null;
        }
    }

    /** The descriptor in a slot, or -EBADF if the index is out of range or the slot empty. */
    int resolve(int index) {
        int[] t = fds;
        if (t == null || index < 0 || index >= t.length || t[index] < 0) {
            return -Errno.EBADF;
        }
        return t[index];
    }

    /**
     * Installs a duplicate of a descriptor into a slot (MSG_RING SEND_FD), replacing what was
     * there. 0, or as Linux's io_install_fixed_file: -ENXIO without a table, -EINVAL for a
     * slot out of range.
     */
    int install(int index, int fd) {
        int[] t = fds;
        if (t == null) {
            return -Errno.ENXIO;
        }
        if (index < 0 || index >= t.length) {
            return -Errno.EINVAL;
        }
        int d = dup(fd);
        if (d < 0) {
            return -Errno.EBADF;
        }
        closeDup(t[index]);
        t[index] = d;
        return 0;
    }
}
