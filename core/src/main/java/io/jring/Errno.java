package io.jring;

/** Linux errno values. CQEs carry them negated; {@link IoUringException#errno()} positive. */
public final class Errno {
    private Errno() {}

    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int E2BIG = 7;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int EFBIG = 27;
    public static final int ENOSPC = 28;
    public static final int ESPIPE = 29;
    public static final int EROFS = 30;
    public static final int EPIPE = 32;
    public static final int ERANGE = 34;
    public static final int ENAMETOOLONG = 36;
    public static final int ENOSYS = 38;
    public static final int ETIME = 62;
    public static final int EOVERFLOW = 75;
    public static final int EBADFD = 77;
    public static final int ENOTSOCK = 88;
    public static final int EDESTADDRREQ = 89;
    public static final int EMSGSIZE = 90;
    public static final int EPROTOTYPE = 91;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int EADDRINUSE = 98;
    public static final int EADDRNOTAVAIL = 99;
    public static final int ENETUNREACH = 101;
    public static final int ECONNABORTED = 103;
    public static final int ECONNRESET = 104;
    public static final int ENOBUFS = 105;
    public static final int EISCONN = 106;
    public static final int ENOTCONN = 107;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EHOSTUNREACH = 113;
    public static final int EALREADY = 114;
    public static final int EINPROGRESS = 115;
    public static final int ECANCELED = 125;
    public static final int EOWNERDEAD = 130;

    /** The symbolic name of a (positive or negated) errno value, e.g. "ECANCELED". */
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
