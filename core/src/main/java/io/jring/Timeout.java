package io.jring;

/** Flags of {@code prepTimeout} ({@code IORING_TIMEOUT_*}). */
public final class Timeout {
    private Timeout() {}

    /** The time is absolute on CLOCK_MONOTONIC ({@link System#nanoTime()} based in jring). */
    public static final int ABS = 1;
}
