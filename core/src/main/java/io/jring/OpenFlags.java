package io.jring;

/**
 * {@code open(2)} flags, Linux values. Most are the same on x86_64 and aarch64; DIRECT and
 * DIRECTORY differ and are chosen for the running architecture.
 */
public final class OpenFlags {
    private OpenFlags() {}

    /** Open for reading only. */
    public static final int RDONLY = 0;
    /** Open for writing only. */
    public static final int WRONLY = 1;
    /** Open for reading and writing. */
    public static final int RDWR = 2;
    /** Create the file if it does not exist (with the mode given). */
    public static final int CREAT = 0100;
    /** With CREAT: fail with EEXIST if the file exists. */
    public static final int EXCL = 0200;
    /** Truncate a regular file to length 0. */
    public static final int TRUNC = 01000;
    /** Every write appends at the end of the file. */
    public static final int APPEND = 02000;
    /** Non-blocking mode. */
    public static final int NONBLOCK = 04000;
    /** Writes complete only once their data is durable, as fdatasync. */
    public static final int DSYNC = 010000;
    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    /** Direct I/O, bypassing the page cache (buffers, lengths and offsets must be aligned); jring sends it through native AIO. */
    public static final int DIRECT = AARCH64 ? 0200000 : 040000;
    /** Fail with ENOTDIR unless the path is a directory. */
    public static final int DIRECTORY = AARCH64 ? 040000 : 0200000;
    /** Close the descriptor on exec. */
    public static final int CLOEXEC = 02000000;
}
