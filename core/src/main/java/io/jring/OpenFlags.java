package io.jring;

/**
 * {@code open(2)} flags, Linux values. Most are the same on x86_64 and aarch64; DIRECT and
 * DIRECTORY differ and are chosen for the running architecture.
 */
public final class OpenFlags {
    private OpenFlags() {}

    public static final int RDONLY = 0;
    public static final int WRONLY = 1;
    public static final int RDWR = 2;
    public static final int CREAT = 0100;
    public static final int EXCL = 0200;
    public static final int TRUNC = 01000;
    public static final int APPEND = 02000;
    public static final int NONBLOCK = 04000;
    public static final int DSYNC = 010000;
    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    public static final int DIRECT = AARCH64 ? 0200000 : 040000;
    public static final int DIRECTORY = AARCH64 ? 040000 : 0200000;
    public static final int CLOEXEC = 02000000;
}
