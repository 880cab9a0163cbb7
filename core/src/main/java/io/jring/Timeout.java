package io.jring;

/** Flags of {@code prepTimeout}, {@code prepLinkTimeout} and {@code prepTimeoutUpdate} ({@code IORING_TIMEOUT_*}). */
public final class Timeout {
    private Timeout() {}

    /** The time is absolute on CLOCK_MONOTONIC ({@link System#nanoTime()} based in jring), or on the clock chosen below. */
    public static final int ABS = 1;
    /** TIMEOUT_REMOVE updates a TIMEOUT's expiry instead of removing it ({@code IORING_TIMEOUT_UPDATE}). */
    public static final int UPDATE = 2;
    /** The time is on CLOCK_BOOTTIME (matters for ABS). */
    public static final int BOOTTIME = 4;
    /** The time is on CLOCK_REALTIME, nanoseconds since the epoch for ABS. */
    public static final int REALTIME = 8;
    /** TIMEOUT_REMOVE updates an armed LINK_TIMEOUT's expiry ({@code IORING_LINK_TIMEOUT_UPDATE}). */
    public static final int LINK_TIMEOUT_UPDATE = 16;
    /** Expiry (-ETIME) is not a failure: linked requests go on, CQE_SKIP_SUCCESS holds. */
    public static final int ETIME_SUCCESS = 32;
    /** Fires every interval (relative only): -ETIME CQEs with {@link CqeFlags#MORE}, {@code count} times (0: until removed). */
    public static final int MULTISHOT = 64;
}
