package io.jring;

/** Flags of {@code prepCancel} ({@code IORING_ASYNC_CANCEL_*}). */
public final class Cancel {
    private Cancel() {}

    public static final int ALL = 1;
    public static final int FD = 2;
    public static final int ANY = 4;
    /** With {@link #FD}: the fd is a fixed-file slot ({@code IORING_ASYNC_CANCEL_FD_FIXED}). */
    public static final int FD_FIXED = 8;
}
