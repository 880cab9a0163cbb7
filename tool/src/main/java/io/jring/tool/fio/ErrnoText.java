package io.jring.tool.fio;

import io.jring.Errno;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** strerror(3) for the errors a file benchmark meets, as fio prints them. */
final class ErrnoText {
    private ErrnoText() {}

    static String of(int errno) {
        return switch (errno) {
            case 1 -> "Operation not permitted";
            case 2 -> "No such file or directory";
            case 4 -> "Interrupted system call";
            case 5 -> "Input/output error";
            case 9 -> "Bad file descriptor";
            case 11 -> "Resource temporarily unavailable";
            case 12 -> "Cannot allocate memory";
            case 13 -> "Permission denied";
            case 17 -> "File exists";
            case 20 -> "Not a directory";
            case 14 -> "Bad address";
            case 16 -> "Device or resource busy";
            case 21 -> "Is a directory";
            case 22 -> "Invalid argument";
            case 24 -> "Too many open files";
            case 27 -> "File too large";
            case 28 -> "No space left on device";
            case 29 -> "Illegal seek";
            case 30 -> "Read-only file system";
            case 95 -> "Operation not supported";
            case 125 -> "Operation canceled";
            default -> Errno.name(errno);
        };
    }

    /**
     * Why a JDK file call failed, as strerror(3) words it: the JDK names the path but keeps
     * the reason in the exception type for the common errors (NoSuchFileException, ...).
     */
    static String describe(IOException e) {
        return switch (e) {
            case NoSuchFileException x -> of(Errno.ENOENT);
            case AccessDeniedException x -> of(Errno.EACCES);
            case FileAlreadyExistsException x -> of(Errno.EEXIST);
            case NotDirectoryException x -> "Not a directory";
            case DirectoryNotEmptyException x -> "Directory not empty";
            case FileSystemException f when f.getReason() != null -> f.getReason();
            default -> String.valueOf(e.getMessage());
        };
    }

    /** The errno behind {@link #describe}'s text, EIO if unknown. */
    static int errnoOf(IOException e) {
        return errnoOf(describe(e));
    }

    /** The errno whose text is {@code reason} (as the JDK's FileSystemException gives it), or EIO. */
    static int errnoOf(String reason) {
        if (reason != null) {
            for (int e = 1; e < 134; e++) {
                if (reason.contains(of(e))) {
                    return e;
                }
            }
        }
        return Errno.EIO;
    }
}
