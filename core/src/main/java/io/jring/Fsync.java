package io.jring;

/** Flags of {@code prepFsync} ({@code IORING_FSYNC_*}). */
public final class Fsync {
    private Fsync() {}

    /** fdatasync instead of fsync. */
    public static final int DATASYNC = 1;
}
