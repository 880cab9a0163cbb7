package io.jring;

/** Opcodes ({@code IORING_OP_*}), Linux numbers. */
public final class Opcode {
    private Opcode() {}

    /** No operation: completes with 0 ({@code prepNop}). */
    public static final int NOP = 0;
    /** Vectored read ({@code prepReadv}). */
    public static final int READV = 1;
    /** Vectored write ({@code prepWritev}). */
    public static final int WRITEV = 2;
    /** fsync or fdatasync of a file ({@code prepFsync}). */
    public static final int FSYNC = 3;
    /** Read into a registered buffer ({@code prepReadFixed}). */
    public static final int READ_FIXED = 4;
    /** Write from a registered buffer ({@code prepWriteFixed}). */
    public static final int WRITE_FIXED = 5;
    /** Wait for readiness of a file, one-shot or multishot ({@code prepPollAdd}, {@code prepPollMultishot}). */
    public static final int POLL_ADD = 6;
    /** Remove a POLL_ADD by its user data ({@code prepPollRemove}). */
    public static final int POLL_REMOVE = 7;
    /** A timeout, relative or absolute, optionally completed by a count of CQEs ({@code prepTimeout}). */
    public static final int TIMEOUT = 11;
    /** Remove or update a TIMEOUT ({@code prepTimeoutRemove}, {@code prepTimeoutUpdate}). */
    public static final int TIMEOUT_REMOVE = 12;
    /** Accept a connection, one-shot or multishot ({@code prepAccept}, {@code prepMultishotAccept}). */
    public static final int ACCEPT = 13;
    /** Cancel requests by user data or descriptor ({@code prepCancel}, {@code prepCancelFd}). */
    public static final int ASYNC_CANCEL = 14;
    /** A timeout for the request linked before it ({@code prepLinkTimeout}). */
    public static final int LINK_TIMEOUT = 15;
    /** Connect a socket ({@code prepConnect}). */
    public static final int CONNECT = 16;
    /** Open a file, into a descriptor or a fixed-file slot ({@code prepOpenat}). */
    public static final int OPENAT = 18;
    /** Close a descriptor or a fixed-file slot ({@code prepClose}). */
    public static final int CLOSE = 19;
    /** Read into one buffer ({@code prepRead}). */
    public static final int READ = 22;
    /** Write from one buffer ({@code prepWrite}). */
    public static final int WRITE = 23;
    /** sendmsg(2) of a msghdr ({@code prepSendmsg}). */
    public static final int SENDMSG = 9;
    /** recvmsg(2) into a msghdr ({@code prepRecvmsg}, {@code prepRecvmsgMultishot}). */
    public static final int RECVMSG = 10;
    /** A zero-copy send: result CQE, then a notification ({@code prepSendZc}). */
    public static final int SEND_ZC = 47;
    /** A zero-copy sendmsg ({@code prepSendmsgZc}). */
    public static final int SENDMSG_ZC = 48;
    /** Send on a socket ({@code prepSend}). */
    public static final int SEND = 26;
    /** Receive from a socket ({@code prepRecv}). */
    public static final int RECV = 27;
    /** Give buffers to a provided-buffer group ({@code prepProvideBuffers}). */
    public static final int PROVIDE_BUFFERS = 31;
    /** Take buffers back from a provided-buffer group ({@code prepRemoveBuffers}). */
    public static final int REMOVE_BUFFERS = 32;
    /** Shut down part of a full-duplex connection ({@code prepShutdown}). */
    public static final int SHUTDOWN = 34;
    /** Post a CQE to another ring, or move a fixed file to it ({@code prepMsgRing}, {@code prepMsgRingFd}). */
    public static final int MSG_RING = 40;
    /** Create a socket ({@code prepSocket}). */
    public static final int SOCKET = 45;

    // Sockets set up through the ring, and data moved between pipes, files and sockets
    // without a user buffer (issue 23).
    /** splice(2) between a pipe and a file, socket or pipe ({@link Sqe#prepSplice}). */
    public static final int SPLICE = 30;
    /** tee(2): duplicates pipe data into another pipe ({@link Sqe#prepTee}). */
    public static final int TEE = 33;
    /** bind(2) ({@link Sqe#prepBind}). */
    public static final int BIND = 56;
    /** listen(2) ({@link Sqe#prepListen}). */
    public static final int LISTEN = 57;
    /** ftruncate(2) of a file, the length in {@code off} ({@link Sqe#prepFtruncate}; issue 22). */
    public static final int FTRUNCATE = 55;

    /**
     * One past the highest opcode number Linux defines today (6.18's IORING_OP_LAST, after
     * IORING_OP_PIPE); higher numbers are invalid.
     */
    public static final int LAST = 63;

    private static final String[] NAMES = new String[LAST];

    static {
        NAMES[NOP] = "NOP";
        NAMES[READV] = "READV";
        NAMES[WRITEV] = "WRITEV";
        NAMES[FSYNC] = "FSYNC";
        NAMES[READ_FIXED] = "READ_FIXED";
        NAMES[WRITE_FIXED] = "WRITE_FIXED";
        NAMES[POLL_ADD] = "POLL_ADD";
        NAMES[POLL_REMOVE] = "POLL_REMOVE";
        NAMES[8] = "SYNC_FILE_RANGE";
        NAMES[9] = "SENDMSG";
        NAMES[10] = "RECVMSG";
        NAMES[TIMEOUT] = "TIMEOUT";
        NAMES[TIMEOUT_REMOVE] = "TIMEOUT_REMOVE";
        NAMES[ACCEPT] = "ACCEPT";
        NAMES[ASYNC_CANCEL] = "ASYNC_CANCEL";
        NAMES[LINK_TIMEOUT] = "LINK_TIMEOUT";
        NAMES[CONNECT] = "CONNECT";
        NAMES[17] = "FALLOCATE";
        NAMES[OPENAT] = "OPENAT";
        NAMES[CLOSE] = "CLOSE";
        NAMES[20] = "FILES_UPDATE";
        NAMES[21] = "STATX";
        NAMES[READ] = "READ";
        NAMES[WRITE] = "WRITE";
        NAMES[24] = "FADVISE";
        NAMES[25] = "MADVISE";
        NAMES[SEND] = "SEND";
        NAMES[RECV] = "RECV";
        NAMES[28] = "OPENAT2";
        NAMES[29] = "EPOLL_CTL";
        NAMES[30] = "SPLICE";
        NAMES[PROVIDE_BUFFERS] = "PROVIDE_BUFFERS";
        NAMES[REMOVE_BUFFERS] = "REMOVE_BUFFERS";
        NAMES[33] = "TEE";
        NAMES[SHUTDOWN] = "SHUTDOWN";
        NAMES[35] = "RENAMEAT";
        NAMES[36] = "UNLINKAT";
        NAMES[37] = "MKDIRAT";
        NAMES[38] = "SYMLINKAT";
        NAMES[39] = "LINKAT";
        NAMES[MSG_RING] = "MSG_RING";
        NAMES[41] = "FSETXATTR";
        NAMES[42] = "SETXATTR";
        NAMES[43] = "FGETXATTR";
        NAMES[44] = "GETXATTR";
        NAMES[SOCKET] = "SOCKET";
        NAMES[46] = "URING_CMD";
        NAMES[47] = "SEND_ZC";
        NAMES[48] = "SENDMSG_ZC";
        NAMES[49] = "READ_MULTISHOT";
        NAMES[50] = "WAITID";
        NAMES[51] = "FUTEX_WAIT";
        NAMES[52] = "FUTEX_WAKE";
        NAMES[53] = "FUTEX_WAITV";
        NAMES[54] = "FIXED_FD_INSTALL";
        NAMES[FTRUNCATE] = "FTRUNCATE";
        NAMES[56] = "BIND";
        NAMES[57] = "LISTEN";
        NAMES[58] = "RECV_ZC";
        NAMES[59] = "EPOLL_WAIT";
        NAMES[60] = "READV_FIXED";
        NAMES[61] = "WRITEV_FIXED";
        NAMES[62] = "PIPE";
    }

    /**
     * The Linux name of an opcode.
     *
     * @param opcode an opcode number
     * @return its name without the {@code IORING_OP_} prefix ("READ", "NOP", ...), or "OP_n" for
     *         a number Linux does not define
     */
    public static String name(int opcode) {
        if (opcode >= 0 && opcode < LAST && NAMES[opcode] != null) {
            return NAMES[opcode];
        }
        return "OP_" + opcode;
    }
}
