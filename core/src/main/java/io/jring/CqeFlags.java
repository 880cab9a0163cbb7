package io.jring;

/** CQE flags ({@code IORING_CQE_F_*}), Linux bit values. */
public final class CqeFlags {
    private CqeFlags() {}

    /** The upper 16 bits of the flags hold the selected buffer id. */
    public static final int BUFFER = 1;
    /** More CQEs will follow for this (multishot) request. */
    public static final int MORE = 2;
    /** The socket still has data after this receive. */
    public static final int SOCK_NONEMPTY = 4;

    /**
     * {@code IORING_CQE_F_NOTIF}: the notification CQE of a zero-copy send (SEND_ZC,
     * SENDMSG_ZC): the send's buffers are no longer in use and may be reused. It follows the
     * send's result CQE (which has {@link #MORE}) and has the same user data.
     */
    public static final int NOTIF = 1 << 3;

    /**
     * {@code IORING_NOTIF_USAGE_ZC_COPIED}: in a notification's result, with
     * {@link Sqe#SEND_ZC_REPORT_USAGE}: the data was copied rather than sent from the
     * caller's pages (jring always copies; Linux does too over loopback).
     */
    public static final int NOTIF_USAGE_ZC_COPIED = 1 << 31;

    // ---- ring-mapped provided buffers (IoUring.registerBufRing, BufRing)

    /**
     * {@code IORING_CQE_F_BUF_MORE}: the CQE's buffer, from a ring registered with
     * {@link BufRing#INC}, was only partly consumed; it stays at the ring's head and later
     * CQEs with the same buffer id carry the data that follows.
     */
    public static final int BUF_MORE = 1 << 4;

    /** Shift of the buffer id inside the flags. */
    public static final int BUFFER_SHIFT = 16;

    /**
     * The buffer id carried by flags that have {@link #BUFFER}.
     *
     * @param flags a CQE's flags
     * @return the id of the provided buffer the request used
     */
    public static int bufferId(int flags) {
        return flags >>> BUFFER_SHIFT;
    }
}
