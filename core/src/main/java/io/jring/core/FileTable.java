package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;

/**
 * Registered ("fixed") files of a ring (the kernel's {@code file_table}): SQEs with
 * {@code SqeFlags.FIXED_FILE} name a slot instead of a descriptor. Slots hold -1 when empty.
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
        int[] copy = files.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] < -1) {
                throw new IoUringException(Errno.EBADF, "fd " + copy[i] + " at index " + i + " is not valid");
            }
        }
        fds = copy;
    }

    void update(int offset, int[] files) {
        if (fds == null) {
            throw new IoUringException(Errno.ENXIO, "no files registered");
        }
        if (files == null || offset < 0 || (long) offset + files.length > fds.length) {
            throw new IoUringException(Errno.EINVAL, "update of " + (files == null ? 0 : files.length)
                    + " slots at " + offset + " does not fit the " + fds.length + " registered");
        }
        for (int i = 0; i < files.length; i++) {
            if (files[i] < -1) {
                throw new IoUringException(Errno.EBADF, "fd " + files[i] + " is not valid");
            }
        }
        System.arraycopy(files, 0, fds, offset, files.length);
    }

    void unregister() {
        if (fds == null) {
            throw new IoUringException(Errno.ENXIO, "no files registered");
        }
        fds = null;
    }

    /** The descriptor in a slot, or -EBADF if the index is out of range or the slot empty. */
    int resolve(int index) {
        int[] t = fds;
        if (t == null || index < 0 || index >= t.length || t[index] < 0) {
            return -Errno.EBADF;
        }
        return t[index];
    }

    /** Installs a descriptor into a slot (MSG_RING SEND_FD). */
    int install(int index, int fd) {
        int[] t = fds;
        if (t == null || index < 0 || index >= t.length) {
            return -Errno.EINVAL;
        }
        t[index] = fd;
        return 0;
    }
}
