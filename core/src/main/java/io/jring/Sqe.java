package io.jring;

/**
 * A submission queue entry: a flyweight over one preallocated slot of the ring's SQ, valid
 * from {@link IoUring#getSqe()} until the next {@code submit}. Each {@code prep*} method resets
 * the slot first and returns {@code this}; {@link #userData(long)}, {@link #flags(int)} and
 * {@link #ioprio(int)} chain after it. Field meanings follow Linux's {@code struct io_uring_sqe}
 * as liburing fills it, so any SQE Linux accepts can be expressed with the raw setters.
 *
 * <p>The fields, the raw setters and getters live in {@code SqeFields}, the prep methods in
 * three links of a sealed chain by family (files, control, sockets); all are this class's.
 *
 * <p>Owned by the thread that uses the ring: plain fields, no synchronisation.
 */
public final class Sqe extends SqeNetPreps {
    /** {@code IORING_POLL_ADD_MULTI}, in {@code len} of a POLL_ADD. */
    public static final int POLL_ADD_MULTI = 1;

    /** {@code IORING_ACCEPT_MULTISHOT}, in {@code ioprio} of an ACCEPT. */
    public static final int ACCEPT_MULTISHOT = 1;

    /**
     * {@code IORING_FILE_INDEX_ALLOC}: as an SQE's {@code fileIndex} (OPENAT, SOCKET, ACCEPT,
     * MSG_RING SEND_FD), any free slot of the fixed-file table; the result is the slot.
     */
    public static final int FILE_INDEX_ALLOC = 0xFFFFFFFF;

    /** {@code IORING_RECVSEND_POLL_FIRST}: wait for readiness before the first attempt. */
    public static final int RECVSEND_POLL_FIRST = 1;

    /**
     * {@code IORING_RECV_MULTISHOT}: one RECV, a CQE with {@link CqeFlags#MORE} per arrival,
     * each in a buffer of its group (BUFFER_SELECT required); the last CQE has no MORE (EOF
     * 0, -ENOBUFS when the group ran out, -ECANCELED, an error).
     */
    public static final int RECV_MULTISHOT = 1 << 1;

    /**
     * {@code IORING_RECVSEND_BUNDLE}: with BUFFER_SELECT, one RECV or SEND uses several buffers
     * of its group in a row; the CQE's result is the bytes of all, its buffer id the first's.
     */
    public static final int RECVSEND_BUNDLE = 1 << 4;

    /**
     * {@code IORING_RECVSEND_FIXED_BUF}: SEND_ZC's data lies in registered buffer
     * {@link #bufIndex(int)} (see {@link #prepSendZcFixed}).
     */
    public static final int RECVSEND_FIXED_BUF = 1 << 2;

    /**
     * {@code IORING_SEND_ZC_REPORT_USAGE}: a zero-copy send's notification CQE says whether the
     * data was copied ({@link CqeFlags#NOTIF_USAGE_ZC_COPIED}).
     */
    public static final int SEND_ZC_REPORT_USAGE = 1 << 3;

    Sqe() {}
}
