package io.jring;

/**
 * Misuse of the API (not a request's failure, which is a CQE with {@code -errno}).
 * Carries the positive Linux errno that the kernel would have returned.
 */
public class IoUringException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int errno;

    public IoUringException(int errno, String message) {
        super(Errno.name(errno) + ": " + message);
        this.errno = errno;
    }

    public IoUringException(int errno, String message, Throwable cause) {
        super(Errno.name(errno) + ": " + message, cause);
        this.errno = errno;
    }

    /** The positive Linux errno value, e.g. {@link Errno#EINVAL}. */
    public int errno() {
        return errno;
    }
}
