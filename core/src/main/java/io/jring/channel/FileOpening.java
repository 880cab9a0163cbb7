package io.jring.channel;

import io.jring.Fds;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.sys.FsCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Opens a file for an {@code AsynchronousFileChannel} as the JDK's provider does: the
 * {@link StandardOpenOption}s and {@code ExtendedOpenOption.DIRECT} as open(2) flags, the
 * {@code posix:permissions} attribute as the mode of a new file, errors as the exceptions
 * of {@code java.nio.file}. {@code DELETE_ON_CLOSE} unlinks the file after it is opened (it
 * lives on through the descriptor), as the JDK does when the path is absolute.
 *
 * @param fd the descriptor
 * @param readable whether READ was asked (or implied)
 * @param writable whether WRITE was asked
 * @param direct whether it is an O_DIRECT file
 * @param key the file's identity, for locks
 */
public record FileOpening(int fd, boolean readable, boolean writable, boolean direct, FileLockTable.FileKey key) {

    /**
     * Opens {@code path}.
     *
     * @param path the file
     * @param options the open options
     * @param attrs file attributes for a new file (only {@code posix:permissions})
     * @return the open file
     * @throws IOException as {@code AsynchronousFileChannel.open}
     */
    public static FileOpening open(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        boolean read = false;
        boolean write = false;
        boolean direct = false;
        boolean deleteOnClose = false;
        int flags = OpenFlags.CLOEXEC;
        for (OpenOption o : options) {
            if (o == null) {
                throw new NullPointerException("an open option is null");
            }
            if (o == StandardOpenOption.READ) {
                read = true;
            } else if (o == StandardOpenOption.WRITE) {
                write = true;
            } else if (o == StandardOpenOption.APPEND) {
                throw new UnsupportedOperationException("APPEND not allowed");
            } else if (o == StandardOpenOption.CREATE || o == StandardOpenOption.CREATE_NEW
                    || o == StandardOpenOption.TRUNCATE_EXISTING || o == StandardOpenOption.SPARSE
                    || o == LinkOption.NOFOLLOW_LINKS) {
                continue;   // applied below, once READ and WRITE are known
            } else if (o == StandardOpenOption.SYNC) {
                flags |= 04010000;   // O_SYNC
            } else if (o == StandardOpenOption.DSYNC) {
                flags |= OpenFlags.DSYNC;
            } else if (o == StandardOpenOption.DELETE_ON_CLOSE) {
                deleteOnClose = true;
            } else if ("DIRECT".equals(o.toString()) && o.getClass().getName().equals("com.sun.nio.file.ExtendedOpenOption")) {
                direct = true;
                flags |= OpenFlags.DIRECT;
            } else {
                throw new UnsupportedOperationException(o + " not supported");
            }
        }
        if (!read && !write) {
            read = true;
        }
        flags |= read && write ? OpenFlags.RDWR : write ? OpenFlags.WRONLY : OpenFlags.RDONLY;
        if (write) {
            if (options.contains(StandardOpenOption.CREATE_NEW)) {
                flags |= OpenFlags.CREAT | OpenFlags.EXCL;
            } else if (options.contains(StandardOpenOption.CREATE)) {
                flags |= OpenFlags.CREAT;
            }
            if (options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
                flags |= OpenFlags.TRUNC;
            }
        }
        if (options.contains(LinkOption.NOFOLLOW_LINKS) || (flags & OpenFlags.EXCL) != 0) {
            flags |= 0400000;   // O_NOFOLLOW: CREATE_NEW never follows a link either
        }
        int mode = mode(attrs);
        int fd;
        try {
            fd = Fds.open(path, flags, mode);
        } catch (IoUringException e) {
            throw IoErrors.open(e.errno(), path.toString());
        }
        SysCallContext ctx = SysCallContext.current();
        int r = FsCalls.fstat(ctx, fd);
        if (r < 0) {
            Fds.close(fd);
            throw IoErrors.io(-r);
        }
        FileLockTable.FileKey key = new FileLockTable.FileKey(Structs.Stat.dev(ctx.stat()), Structs.Stat.ino(ctx.stat()));
        if (deleteOnClose) {
            try {
                java.nio.file.Files.deleteIfExists(path);
            } catch (IOException e) {
                Fds.close(fd);
                throw e;
            }
        }
        return new FileOpening(fd, read, write, direct, key);
    }

    private static int mode(FileAttribute<?>... attrs) {
        int mode = 0666;
        for (FileAttribute<?> a : attrs) {
            if (!"posix:permissions".equals(a.name()) && !"unix:permissions".equals(a.name())) {
                throw new UnsupportedOperationException("'" + a.name() + "' not supported as initial attribute");
            }
            mode = 0;
            for (Object p : (Set<?>) a.value()) {
                mode |= 0400 >> ((PosixFilePermission) p).ordinal();
            }
        }
        return mode;
    }
}
