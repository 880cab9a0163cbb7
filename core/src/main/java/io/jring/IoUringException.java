package io.jring;

/**
 * Misuse of the API (not a request's failure, which is a CQE with {@code -errno}).
 * Carries the positive Linux errno that the kernel would have returned.
 */
public class IoUringException extends RuntimeException {
    /** Version of the serialized form. */
    private static final long serialVersionUID = 1L;

    /** The positive Linux errno. */
    private final int errno;

    /**
     * An exception for {@code errno}; the message starts with the errno's name.
     *
     * @param errno the positive Linux errno
     * @param message what was wrong and what to do instead
     */
    public IoUringException(int errno, String message) {
        super(Errno.name(errno) + ": " + message);
        this.errno = errno;
    }

    /**
     * An exception for {@code errno} with the throwable that caused it.
     *
     * @param errno the positive Linux errno
     * @param message what was wrong and what to do instead
     * @param cause what caused it
     */
    public IoUringException(int errno, String message, Throwable cause) {
        super(Errno.name(errno) + ": " + message, cause);
        this.errno = errno;
    }

    /** {@return the positive Linux errno value, e.g. {@link Errno#EINVAL}} */
    public int errno() {
        return errno;
    }
}
