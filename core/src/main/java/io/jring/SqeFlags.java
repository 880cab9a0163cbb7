package io.jring;

/** SQE flags ({@code IOSQE_*}), Linux bit values. */
public final class SqeFlags {
    private SqeFlags() {}

    /** The SQE's fd is a slot of the registered (fixed) file table. */
    public static final int FIXED_FILE = 1;
    /** Start only after every earlier SQE has completed; later SQEs wait for this one. */
    public static final int IO_DRAIN = 2;
    /** Link the next SQE: it starts when this one succeeds, else completes with -ECANCELED. */
    public static final int IO_LINK = 4;
    /** As {@link #IO_LINK}, but the chain goes on when this one fails. */
    public static final int IO_HARDLINK = 8;
    /** Skip the inline non-blocking attempt: go to io-wq (for a pollable file, io-wq tries once and arms poll). */
    public static final int ASYNC = 16;
    /** Take the buffer from a provided-buffer group (see {@link Sqe#bufferGroup}); the CQE names it. */
    public static final int BUFFER_SELECT = 32;
    /** Post no CQE when the request succeeds. */
    public static final int CQE_SKIP_SUCCESS = 64;

    /** Every flag bit jring (and Linux) knows; anything else completes with -EINVAL. */
    public static final int VALID = FIXED_FILE | IO_DRAIN | IO_LINK | IO_HARDLINK | ASYNC
            | BUFFER_SELECT | CQE_SKIP_SUCCESS;
}
