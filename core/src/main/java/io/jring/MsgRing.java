package io.jring;

/** Constants of {@code prepMsgRing} ({@code IORING_MSG_*}). */
public final class MsgRing {
    private MsgRing() {}

    /** Command: post a CQE to the target ring. */
    public static final int DATA = 0;
    /** Command: move a registered file to the target ring. */
    public static final int SEND_FD = 1;
    /** Do not post a CQE to the target ring (SEND_FD). */
    public static final int CQE_SKIP = 1;
    /** Pass the given CQE flags to the target CQE. */
    public static final int FLAGS_PASS = 2;
}
