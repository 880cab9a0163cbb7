package io.jring;

/** Linux errno values. CQEs carry them negated; {@link IoUringException#errno()} positive. */
public final class Errno {
    private Errno() {}

    /** Operation not permitted. */
    public static final int EPERM = 1;
    /** No such file or directory; for cancel and remove: no request matched. */
    public static final int ENOENT = 2;
    /** Interrupted system call; a cancelled request that was running may end with it. */
    public static final int EINTR = 4;
    /** Input/output error. */
    public static final int EIO = 5;
    /** No such device or address (also: no fixed-file table is registered). */
    public static final int ENXIO = 6;
    /** Argument list too long. */
    public static final int E2BIG = 7;
    /** Bad file descriptor (or an empty or out-of-range fixed-file slot). */
    public static final int EBADF = 9;
    /** Resource temporarily unavailable: the operation would block. */
    public static final int EAGAIN = 11;
    /** Cannot allocate memory. */
    public static final int ENOMEM = 12;
    /** Permission denied. */
    public static final int EACCES = 13;
    /** Bad address (for example a closed memory segment). */
    public static final int EFAULT = 14;
    /** Device or resource busy (also: a ring side used by two threads at once). */
    public static final int EBUSY = 16;
    /** File exists (also: a SINGLE_ISSUER ring used by a thread other than its owner). */
    public static final int EEXIST = 17;
    /** No such device. */
    public static final int ENODEV = 19;
    /** Not a directory. */
    public static final int ENOTDIR = 20;
    /** Is a directory. */
    public static final int EISDIR = 21;
    /** Invalid argument. */
    public static final int EINVAL = 22;
    /** Too many open files in system. */
    public static final int ENFILE = 23;
    /** Too many open files. */
    public static final int EMFILE = 24;
    /** File too large. */
    public static final int EFBIG = 27;
    /** No space left on device. */
    public static final int ENOSPC = 28;
    /** Illegal seek. */
    public static final int ESPIPE = 29;
    /** Read-only file system. */
    public static final int EROFS = 30;
    /** Broken pipe. */
    public static final int EPIPE = 32;
    /** Numerical result out of range. */
    public static final int ERANGE = 34;
    /** File name too long. */
    public static final int ENAMETOOLONG = 36;
    /** Function not implemented. */
    public static final int ENOSYS = 38;
    /** Timer expired: the CQE of an expired TIMEOUT or LINK_TIMEOUT. */
    public static final int ETIME = 62;
    /** Value too large for defined data type. */
    public static final int EOVERFLOW = 75;
    /** File descriptor in bad state: the ring (or MSG_RING's target ring) is closed. */
    public static final int EBADFD = 77;
    /** Socket operation on non-socket. */
    public static final int ENOTSOCK = 88;
    /** Destination address required. */
    public static final int EDESTADDRREQ = 89;
    /** Message too long. */
    public static final int EMSGSIZE = 90;
    /** Protocol wrong type for socket. */
    public static final int EPROTOTYPE = 91;
    /** Protocol not supported. */
    public static final int EPROTONOSUPPORT = 93;
    /** Operation not supported. */
    public static final int EOPNOTSUPP = 95;
    /** Address family not supported by protocol. */
    public static final int EAFNOSUPPORT = 97;
    /** Address already in use. */
    public static final int EADDRINUSE = 98;
    /** Cannot assign requested address. */
    public static final int EADDRNOTAVAIL = 99;
    /** Network is unreachable. */
    public static final int ENETUNREACH = 101;
    /** Software caused connection abort. */
    public static final int ECONNABORTED = 103;
    /** Connection reset by peer. */
    public static final int ECONNRESET = 104;
    /** No buffer space available (also: the provided-buffer group is empty). */
    public static final int ENOBUFS = 105;
    /** Transport endpoint is already connected. */
    public static final int EISCONN = 106;
    /** Transport endpoint is not connected. */
    public static final int ENOTCONN = 107;
    /** Connection timed out. */
    public static final int ETIMEDOUT = 110;
    /** Connection refused. */
    public static final int ECONNREFUSED = 111;
    /** No route to host. */
    public static final int EHOSTUNREACH = 113;
    /** Operation already in progress: the cancel target is running and cannot be stopped. */
    public static final int EALREADY = 114;
    /** Operation now in progress. */
    public static final int EINPROGRESS = 115;
    /** Operation canceled: the request was cancelled, or a link before it failed. */
    public static final int ECANCELED = 125;
    /** Owner died: MSG_RING SEND_FD to a ring whose owner thread ended first. */
    public static final int EOWNERDEAD = 130;

    /**
     * The symbolic name of an errno value.
     *
     * @param errno a positive or negated errno value
     * @return its name, e.g. "ECANCELED", or "E" and the number for a value this class does not name
     */
    public static String name(int errno) {
        int e = Math.abs(errno);
        return switch (e) {
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case EINTR -> "EINTR";
            case EIO -> "EIO";
            case ENXIO -> "ENXIO";
            case E2BIG -> "E2BIG";
            case EBADF -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EACCES -> "EACCES";
            case EFAULT -> "EFAULT";
            case EBUSY -> "EBUSY";
            case EEXIST -> "EEXIST";
            case ENODEV -> "ENODEV";
            case ENOTDIR -> "ENOTDIR";
            case EISDIR -> "EISDIR";
            case EINVAL -> "EINVAL";
            case ENFILE -> "ENFILE";
            case EMFILE -> "EMFILE";
            case EFBIG -> "EFBIG";
            case ENOSPC -> "ENOSPC";
            case ESPIPE -> "ESPIPE";
            case EROFS -> "EROFS";
            case EPIPE -> "EPIPE";
            case ERANGE -> "ERANGE";
            case ENAMETOOLONG -> "ENAMETOOLONG";
            case ENOSYS -> "ENOSYS";
            case ETIME -> "ETIME";
            case EOVERFLOW -> "EOVERFLOW";
            case EBADFD -> "EBADFD";
            case ENOTSOCK -> "ENOTSOCK";
            case EDESTADDRREQ -> "EDESTADDRREQ";
            case EMSGSIZE -> "EMSGSIZE";
            case EPROTOTYPE -> "EPROTOTYPE";
            case EPROTONOSUPPORT -> "EPROTONOSUPPORT";
            case EOPNOTSUPP -> "EOPNOTSUPP";
            case EAFNOSUPPORT -> "EAFNOSUPPORT";
            case EADDRINUSE -> "EADDRINUSE";
            case EADDRNOTAVAIL -> "EADDRNOTAVAIL";
            case ENETUNREACH -> "ENETUNREACH";
            case ECONNABORTED -> "ECONNABORTED";
            case ECONNRESET -> "ECONNRESET";
            case ENOBUFS -> "ENOBUFS";
            case EISCONN -> "EISCONN";
            case ENOTCONN -> "ENOTCONN";
            case ETIMEDOUT -> "ETIMEDOUT";
            case ECONNREFUSED -> "ECONNREFUSED";
            case EHOSTUNREACH -> "EHOSTUNREACH";
            case EALREADY -> "EALREADY";
            case EINPROGRESS -> "EINPROGRESS";
            case ECANCELED -> "ECANCELED";
            case EOWNERDEAD -> "EOWNERDEAD";
            default -> "E" + e;
        };
    }
}
