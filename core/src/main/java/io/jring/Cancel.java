package io.jring;

/** Flags of {@code prepCancel} ({@code IORING_ASYNC_CANCEL_*}). */
public final class Cancel {
    private Cancel() {}

    /** Cancel every matching request; the cancel's CQE is the count. */
    public static final int ALL = 1;
    /** Match by file descriptor instead of user data. */
    public static final int FD = 2;
    /** Match any request; the cancel's CQE is the count. */
    public static final int ANY = 4;
    /** With {@link #FD}: the fd is a fixed-file slot ({@code IORING_ASYNC_CANCEL_FD_FIXED}). */
    public static final int FD_FIXED = 8;
}
