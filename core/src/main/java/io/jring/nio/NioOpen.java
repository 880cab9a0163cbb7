package io.jring.nio;

import io.jring.Errno;
import io.jring.OpenFlags;
import io.jring.sys.DirectFds;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

import java.io.File;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Opens the descriptor of a {@link JringFileChannel} as the JDK's Unix channel factory does:
 * the options' rules (READ by default, APPEND implies WRITE, CREATE and TRUNCATE_EXISTING
 * only with WRITE, READ + APPEND and APPEND + TRUNCATE_EXISTING refused, DELETE_ON_CLOSE
 * unlinks right after the open), the permissions attribute, the JDK's exception per errno.
 */
final class NioOpen {
    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    private static final int O_NOFOLLOW = AARCH64 ? 0100000 : 0400000;
    private static final int O_SYNC = 04010000;
    private static final int ELOOP = 40;

    /** What was opened: the descriptor and the channel's modes. */
    record Opened(int fd, boolean read, boolean write, boolean append, boolean direct) {}

    private NioOpen() {}

    static Opened open(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
        boolean read = false, write = false, append = false, truncate = false, create = false, createNew = false;
        boolean deleteOnClose = false, direct = false;
        int extra = 0;
        for (OpenOption o : options) {
            if (o == StandardOpenOption.READ) {
                read = true;
            } else if (o == StandardOpenOption.WRITE) {
                write = true;
            } else if (o == StandardOpenOption.APPEND) {
                append = true;
                write = true;
            } else if (o == StandardOpenOption.TRUNCATE_EXISTING) {
                truncate = true;
            } else if (o == StandardOpenOption.CREATE) {
                create = true;
            } else if (o == StandardOpenOption.CREATE_NEW) {
                createNew = true;
            } else if (o == StandardOpenOption.DELETE_ON_CLOSE) {
                deleteOnClose = true;
            } else if (o == StandardOpenOption.SPARSE) {
                continue;   // a hint, as on the JDK's Linux channels
            } else if (o == StandardOpenOption.SYNC) {
                extra |= O_SYNC;
            } else if (o == StandardOpenOption.DSYNC) {
                extra |= OpenFlags.DSYNC;
            } else if (o == LinkOption.NOFOLLOW_LINKS) {
                extra |= O_NOFOLLOW;
            } else if (o != null && "DIRECT".equals(o.toString())
                    && "com.sun.nio.file.ExtendedOpenOption".equals(o.getClass().getName())) {
                direct = true;
            } else if (o == null) {
                throw new NullPointerException();
            } else {
                throw new UnsupportedOperationException(o + " not supported");
            }
        }
        if (!read && !write) {
            read = true;
        }
        if (read && append) {
            throw new IllegalArgumentException("READ + APPEND not allowed");
        }
        if (append && truncate) {
            throw new IllegalArgumentException("APPEND + TRUNCATE_EXISTING not allowed");
        }
        int flags = (read && write ? OpenFlags.RDWR : write ? OpenFlags.WRONLY : OpenFlags.RDONLY) | OpenFlags.CLOEXEC | extra;
        if (write) {
            if (createNew) {
                flags |= OpenFlags.CREAT | OpenFlags.EXCL | O_NOFOLLOW;
            } else if (create) {
                flags |= OpenFlags.CREAT;
            }
            if (truncate) {
                flags |= OpenFlags.TRUNC;
            }
            if (append) {
                flags |= OpenFlags.APPEND;
            }
        }
        if (direct) {
            flags |= OpenFlags.DIRECT;
        }
        String name = path.toAbsolutePath().toString();
        int fd = FsCalls.openat(SysCallContext.current(), FsCalls.AT_FDCWD, name, flags, mode(attrs));
        if (fd < 0) {
            throw exception(path, -fd, (extra & O_NOFOLLOW) != 0);
        }
        DirectFds.opened(fd, flags);
        if (deleteOnClose) {
            new File(name).delete();   // as the JDK on Unix: unlinked now, gone when the last descriptor closes
        }
        return new Opened(fd, read, write, append, direct);
    }

    private static int mode(FileAttribute<?>... attrs) {
        int mode = 0666;
        for (FileAttribute<?> a : attrs) {
            String n = a.name();
            if (!n.equals("posix:permissions") && !n.equals("unix:permissions")) {
                throw new UnsupportedOperationException("'" + n + "' not supported as initial attribute");
            }
            mode = 0;
            for (Object p : (Set<?>) a.value()) {
                mode |= bit((PosixFilePermission) p);
            }
        }
        return mode;
    }

    private static int bit(PosixFilePermission p) {
        return switch (p) {
            case OWNER_READ -> 0400;
            case OWNER_WRITE -> 0200;
            case OWNER_EXECUTE -> 0100;
            case GROUP_READ -> 040;
            case GROUP_WRITE -> 020;
            case GROUP_EXECUTE -> 010;
            case OTHERS_READ -> 04;
            case OTHERS_WRITE -> 02;
            case OTHERS_EXECUTE -> 01;
        };
    }

    private static IOException exception(Path path, int errno, boolean noFollow) {
        String file = path.toString();
        if (errno == Errno.ENOENT) {
            return new NoSuchFileException(file);
        }
        if (errno == Errno.EEXIST) {
            return new FileAlreadyExistsException(file);
        }
        if (errno == Errno.EACCES || errno == Errno.EPERM) {
            return new AccessDeniedException(file);
        }
        if (errno == ELOOP && noFollow) {
            return new FileSystemException(file, null, "Too many levels of symbolic links or unable to access attributes of symbolic link");
        }
        return new FileSystemException(file, null, Errno.name(errno));
    }
}
