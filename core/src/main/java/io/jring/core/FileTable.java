package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.Sqe;
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
    /** {@code IORING_FILE_INDEX_ALLOC}: an SQE's file index asking for any free slot. */
    static final int INDEX_ALLOC = Sqe.FILE_INDEX_ALLOC;
    /** {@code IORING_REGISTER_FILES_SKIP}: an update entry that leaves its slot as it is. */
    static final int FILES_SKIP = -2;

    private int[] fds;

    /**
     * Where the search for a free slot starts (Linux's {@code file_table.alloc_hint}): one
     * past the slot last filled, or the slot last emptied; 0 after registration. Replacing
     * an occupied slot leaves it. Posting right, like the table.
     */
    private int allocHint;

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
        allocHint = 0;
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

    /**
     * IORING_REGISTER_FILES_UPDATE: slot {@code offset + i} gets a duplicate of
     * {@code files[i]}; -1 empties the slot, {@link #FILES_SKIP} leaves it. As Linux's
     * __io_sqe_files_update, a slot is emptied before its new descriptor is checked, and a
     * bad descriptor stops the update there: the entries before it stay done (skips count)
     * and their number is returned; only a failure of the first entry is an error.
     */
    int update(int offset, int[] files) {
        if (files == null || files.length == 0) {
            throw new IoUringException(Errno.EINVAL, "updateFiles needs at least one descriptor");
        }
        if (fds == null) {
            throw new IoUringException(Errno.ENXIO, "no files registered");
        }
        if (offset < 0 || (long) offset + files.length > fds.length) {
            throw new IoUringException(Errno.EINVAL, "update of " + files.length
                    + " slots at " + offset + " does not fit the " + fds.length + " registered");
        }
        int done = 0;
        int err = 0;
        for (; done < files.length; done++) {
            int fd = files[done];
            if (fd == FILES_SKIP) {
                continue;
            }
            int slot = offset + done;
            if (fds[slot] >= 0) {
                empty(slot);
            }
            if (fd != -1) {
                int d = dup(fd);
                if (d < 0) {
                    err = -d;
                    break;
                }
                fill(slot, d);
            }
        }
        if (done == 0 && err != 0) {
            throw new IoUringException(err, "fd " + files[0] + " for slot " + offset
                    + " is not valid; the slot is now empty, as in Linux");
        }
        return done;
    }

    /** An empty slot gets descriptor {@code fd}, the table's own. */
    private void fill(int slot, int fd) {
        fds[slot] = fd;
        allocHint = slot + 1;
    }

    /** An occupied slot's descriptor is closed (once no request uses it) and the slot is free. */
    private void empty(int slot) {
        closeDup(fds[slot]);
        fds[slot] = -1;
        allocHint = slot;
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
     * Installs a duplicate of a descriptor as the SQE's {@code fileIndex} asks (MSG_RING
     * SEND_FD: slot + 1, or {@link #INDEX_ALLOC}), replacing what the slot held. As
     * {@link #installOwned}.
     */
    int install(int fileIndex, int fd) {
        int d = dup(fd);
        if (d < 0) {
            return -Errno.EBADF;
        }
        return installOwned(fileIndex, d);
    }

    /**
     * Installs descriptor {@code fd} into a slot, as Linux's __io_fixed_fd_install:
     * {@code fileIndex} is the SQE's file index, slot + 1 (replacing what the slot held), or
     * {@link #INDEX_ALLOC} for the first free slot from the allocation hint, wrapping once.
     * The table takes {@code fd} in every case: it is the slot's now, or closed on failure.
     * Returns 0 (the slot for INDEX_ALLOC), or -ENXIO without a table (-ENFILE for
     * INDEX_ALLOC), -EINVAL for a slot out of range, -ENFILE when no slot is free.
     */
    int installOwned(int fileIndex, int fd) {
        int r = installSlot(fileIndex, fd);
        if (r < 0) {
            closeNow(fd);
        }
        return r;
    }

    private int installSlot(int fileIndex, int fd) {
        int[] t = fds;
        if (fileIndex == INDEX_ALLOC) {
            int slot = freeSlot();
            if (slot < 0) {
                return slot;
            }
            fill(slot, fd);
            return slot;
        }
        if (t == null) {
            return -Errno.ENXIO;
        }
        int slot = fileIndex - 1;
        if (slot < 0 || slot >= t.length) {
            return -Errno.EINVAL;   // file index 0 is no slot, and indexes are unsigned
        }
        if (t[slot] >= 0) {
            closeDup(t[slot]);   // replaced: Linux leaves the hint where it was
            t[slot] = fd;
        } else {
            fill(slot, fd);
        }
        return 0;
    }

    /** Linux's io_file_bitmap_get: the first free slot from the hint, then from 0; -ENFILE if none. */
    private int freeSlot() {
        int[] t = fds;
        if (t == null) {
            return -Errno.ENFILE;
        }
        for (int i = allocHint; i < t.length; i++) {
            if (t[i] < 0) {
                return i;
            }
        }
        int end = Math.min(allocHint, t.length);
        allocHint = 0;
        for (int i = 0; i < end; i++) {
            if (t[i] < 0) {
                return i;
            }
        }
        return -Errno.ENFILE;
    }

    /**
     * CLOSE of fixed-file slot {@code offset} (Linux's io_fixed_fd_remove): 0, or -ENXIO
     * without a table, -EINVAL for a slot out of range, -EBADF for an empty one. A request
     * still using the slot's file keeps it open until it completes, as in Linux.
     */
    int remove(int offset) {
        int[] t = fds;
        if (t == null) {
            return -Errno.ENXIO;
        }
        if (offset < 0 || offset >= t.length) {
            return -Errno.EINVAL;
        }
        if (t[offset] < 0) {
            return -Errno.EBADF;
        }
        empty(offset);
        return 0;
    }
}
