package io.jring.channel;

import io.jring.Errno;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Linux errno values as the exceptions java.nio reports them with. */
public final class IoErrors {
    private IoErrors() {}

    /**
     * The exception for a failed read, write or other I/O call.
     *
     * @param errno the positive errno
     * @return an IOException whose message names the error as strerror would
     */
    public static IOException io(int errno) {
        return new IOException(describe(errno));
    }

    /**
     * The exception for a failed open, as the JDK's UnixException.translateToIOException.
     *
     * @param errno the positive errno
     * @param file the file's name
     * @return the matching FileSystemException
     */
    public static FileSystemException open(int errno, String file) {
        return switch (errno) {
            case Errno.EACCES -> new AccessDeniedException(file);
            case Errno.ENOENT -> new NoSuchFileException(file);
            case Errno.EEXIST -> new FileAlreadyExistsException(file);
            case 40 -> new FileSystemLoopException(file);   // ELOOP (NOFOLLOW_LINKS on a link)
            case 20 -> new NotDirectoryException(file);     // ENOTDIR
            default -> new FileSystemException(file, null, describe(errno));
        };
    }

    private static String describe(int errno) {
        return switch (errno) {
            case Errno.EIO -> "Input/output error";
            case Errno.EINVAL -> "Invalid argument";
            case Errno.ENOSPC -> "No space left on device";
            case Errno.EBADF -> "Bad file descriptor";
            case Errno.EFAULT -> "Bad address";
            case Errno.EISDIR -> "Is a directory";
            case Errno.EFBIG -> "File too large";
            default -> Errno.name(errno);
        };
    }
}
