package io.jring;

/** SQE flags ({@code IOSQE_*}), Linux bit values. */
public final class SqeFlags {
    private SqeFlags() {}

    public static final int FIXED_FILE = 1;
    public static final int IO_DRAIN = 2;
    public static final int IO_LINK = 4;
    public static final int IO_HARDLINK = 8;
    public static final int ASYNC = 16;
    public static final int BUFFER_SELECT = 32;
    public static final int CQE_SKIP_SUCCESS = 64;

    /** Every flag bit jring (and Linux) knows; anything else completes with -EINVAL. */
    public static final int VALID = FIXED_FILE | IO_DRAIN | IO_LINK | IO_HARDLINK | ASYNC
            | BUFFER_SELECT | CQE_SKIP_SUCCESS;
}
