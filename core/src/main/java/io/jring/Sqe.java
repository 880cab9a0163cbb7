package io.jring;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/**
 * A submission queue entry: a flyweight over one preallocated slot of the ring's SQ, valid
 * from {@link IoUring#getSqe()} until the next {@code submit}. Each {@code prep*} method resets
 * the slot first and returns {@code this}; {@link #userData(long)}, {@link #flags(int)} and
 * {@link #ioprio(int)} chain after it. Field meanings follow Linux's {@code struct io_uring_sqe}
 * as liburing fills it, so any SQE Linux accepts can be expressed with the raw setters.
 *
 * <p>Owned by the thread that uses the ring: plain fields, no synchronisation.
 */
public final class Sqe {
    /** {@code IORING_POLL_ADD_MULTI}, in {@code len} of a POLL_ADD. */
    public static final int POLL_ADD_MULTI = 1;
    /** {@code IORING_ACCEPT_MULTISHOT}, in {@code ioprio} of an ACCEPT. */
    public static final int ACCEPT_MULTISHOT = 1;
    /**
     * {@code IORING_FILE_INDEX_ALLOC}: as an SQE's {@code fileIndex} (OPENAT, MSG_RING
     * SEND_FD), any free slot of the fixed-file table; the result is the slot.
     */
    public static final int FILE_INDEX_ALLOC = 0xFFFFFFFF;

    // ---- RECV/SEND flags in ioprio (IORING_RECVSEND_*, IORING_RECV_*), for buffer rings
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

    private int opcode;
    private int flags;
    private int ioprio;
    private int fd;
    private long off;
    private MemorySegment addr;
    private int len;
    private int opFlags;
    private long userData;
    private int bufIndex;
    private int bufGroup;
    private int fileIndex;
    /** addr2/addr3 of the kernel SQE: a target user_data, a MSG_RING command, a source index. */
    private long addr2;
    private long addr3;
    /** Out-of-line argument: iovec array, path, socket address or target ring. */
    private Object arg;
    /** Some field may be non-zero: {@link #reset()} has work to do. Saves the second reset of getSqe + prep. */
    private boolean dirty = true;
    /**
     * A field other than opcode, flags, userData and fd may be non-zero: only then does
     * {@link #reset()} clear them, so reusing a slot that held a NOP stores four fields, not fifteen.
     */
    private boolean wide = true;

    Sqe() {}

    /** Resets every field to zero (what liburing's io_uring_prep_rw does first). */
    public Sqe reset() {
        if (!dirty) {
            return this;
        }
        dirty = false;
        opcode = 0;
        flags = 0;
        fd = 0;
        userData = 0;
        if (wide) {
            wide = false;
            ioprio = 0;
            off = 0;
            addr = null;
            len = 0;
            opFlags = 0;
            bufIndex = 0;
            bufGroup = 0;
            fileIndex = 0;
            addr2 = 0;
            addr3 = 0;
            arg = null;
        }
        return this;
    }

    private Sqe rw(int op, int fd, MemorySegment buf, int len, long offset) {
        reset();
        dirty = true;
        wide = true;
        this.opcode = op;
        this.fd = fd;
        this.addr = buf;
        this.len = len;
        this.off = offset;
        return this;
    }

    private static int lengthOf(MemorySegment buf) {
        if (buf == null) {
            return 0;
        }
        long size = buf.byteSize();
        // Linux caps a single read/write at MAX_RW_COUNT; the int len field cannot say more.
        return size > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) size;
    }

    // ---- preparation, one method per operation (liburing's io_uring_prep_*) ----

    public Sqe prepNop() {
        reset();
        dirty = true;
        opcode = Opcode.NOP;
        return this;
    }

    public Sqe prepRead(int fd, MemorySegment buf, long offset) {
        return rw(Opcode.READ, fd, buf, lengthOf(buf), offset);
    }

    public Sqe prepWrite(int fd, MemorySegment buf, long offset) {
        return rw(Opcode.WRITE, fd, buf, lengthOf(buf), offset);
    }

    public Sqe prepReadv(int fd, MemorySegment[] bufs, long offset) {
        rw(Opcode.READV, fd, null, bufs == null ? 0 : bufs.length, offset);
        arg = bufs;
        return this;
    }

    public Sqe prepWritev(int fd, MemorySegment[] bufs, long offset) {
        rw(Opcode.WRITEV, fd, null, bufs == null ? 0 : bufs.length, offset);
        arg = bufs;
        return this;
    }

    public Sqe prepReadFixed(int fd, MemorySegment buf, long offset, int bufIndex) {
        rw(Opcode.READ_FIXED, fd, buf, lengthOf(buf), offset);
        this.bufIndex = bufIndex;
        return this;
    }

    public Sqe prepWriteFixed(int fd, MemorySegment buf, long offset, int bufIndex) {
        rw(Opcode.WRITE_FIXED, fd, buf, lengthOf(buf), offset);
        this.bufIndex = bufIndex;
        return this;
    }

    public Sqe prepFsync(int fd, int fsyncFlags) {
        rw(Opcode.FSYNC, fd, null, 0, 0);
        opFlags = fsyncFlags;
        return this;
    }

    public Sqe prepOpenat(int dirfd, String path, int openFlags, int mode) {
        rw(Opcode.OPENAT, dirfd, null, mode, 0);
        opFlags = openFlags;
        arg = path;
        return this;
    }

    public Sqe prepClose(int fd) {
        return rw(Opcode.CLOSE, fd, null, 0, 0);
    }

    public Sqe prepPollAdd(int fd, int pollMask) {
        rw(Opcode.POLL_ADD, fd, null, 0, 0);
        opFlags = pollMask;
        return this;
    }

    public Sqe prepPollMultishot(int fd, int pollMask) {
        prepPollAdd(fd, pollMask);
        len = POLL_ADD_MULTI;
        return this;
    }

    public Sqe prepPollRemove(long targetUserData) {
        rw(Opcode.POLL_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        return this;
    }

    /** A timeout of {@code nanos} (relative, or absolute CLOCK_MONOTONIC with {@link Timeout#ABS}). */
    public Sqe prepTimeout(long nanos, int count, int timeoutFlags) {
        rw(Opcode.TIMEOUT, -1, null, 1, count);
        opFlags = timeoutFlags;
        addr2 = nanos;
        return this;
    }

    public Sqe prepTimeoutRemove(long targetUserData) {
        rw(Opcode.TIMEOUT_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        return this;
    }

    /**
     * TIMEOUT_REMOVE that updates instead of removing (liburing's io_uring_prep_timeout_update):
     * the TIMEOUT with {@code targetUserData} (with {@code Timeout.LINK_TIMEOUT_UPDATE}: the
     * armed LINK_TIMEOUT) now expires after {@code nanos} (absolute with {@code Timeout.ABS}).
     * {@code Timeout.UPDATE} is always added, as liburing does.
     */
    public Sqe prepTimeoutUpdate(long targetUserData, long nanos, int timeoutFlags) {
        rw(Opcode.TIMEOUT_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        addr3 = nanos;
        opFlags = timeoutFlags | Timeout.UPDATE;
        return this;
    }

    public Sqe prepLinkTimeout(long nanos, int timeoutFlags) {
        rw(Opcode.LINK_TIMEOUT, -1, null, 1, 0);
        opFlags = timeoutFlags;
        addr2 = nanos;
        return this;
    }

    public Sqe prepCancel(long targetUserData, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, -1, null, 0, 0);
        addr2 = targetUserData;
        opFlags = cancelFlags;
        return this;
    }

    public Sqe prepCancelFd(int fd, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, fd, null, 0, 0);
        opFlags = cancelFlags | Cancel.FD;
        return this;
    }

    public Sqe prepSocket(int domain, int type, int protocol) {
        rw(Opcode.SOCKET, domain, null, protocol, type);
        return this;
    }

    public Sqe prepAccept(int listenFd, int flags) {
        rw(Opcode.ACCEPT, listenFd, null, 0, 0);
        opFlags = flags;
        return this;
    }

    public Sqe prepMultishotAccept(int listenFd, int flags) {
        prepAccept(listenFd, flags);
        ioprio = ACCEPT_MULTISHOT;
        return this;
    }

    public Sqe prepConnect(int fd, InetSocketAddress address) {
        rw(Opcode.CONNECT, fd, null, 0, 0);
        arg = address;
        return this;
    }

    public Sqe prepRecv(int fd, MemorySegment buf, int msgFlags) {
        rw(Opcode.RECV, fd, buf, lengthOf(buf), 0);
        opFlags = msgFlags;
        return this;
    }

    public Sqe prepSend(int fd, MemorySegment buf, int msgFlags) {
        rw(Opcode.SEND, fd, buf, lengthOf(buf), 0);
        opFlags = msgFlags;
        return this;
    }

    /**
     * A multishot RECV (liburing's io_uring_prep_recv_multishot): {@link #prepRecv} with
     * {@link #RECV_MULTISHOT}; usually {@code buf} null and {@link #bufferSelect} after it
     * ({@code len}, if set, caps each CQE's bytes).
     */
    public Sqe prepRecvMultishot(int fd, MemorySegment buf, int msgFlags) {
        prepRecv(fd, buf, msgFlags);
        ioprio = RECV_MULTISHOT;
        return this;
    }

    /**
     * A SEND of a bundle of provided buffers (liburing's io_uring_prep_send_bundle): up to
     * {@code len} bytes (0: all the group holds) from its buffers in a row; needs
     * {@link #bufferSelect}.
     */
    public Sqe prepSendBundle(int fd, int len, int msgFlags) {
        prepSend(fd, null, msgFlags);
        this.len = len;
        ioprio = RECVSEND_BUNDLE;
        return this;
    }

    public Sqe prepShutdown(int fd, int how) {
        return rw(Opcode.SHUTDOWN, fd, null, how, 0);
    }

    public Sqe prepMsgRing(IoUring target, int len, long data, int msgFlags) {
        rw(Opcode.MSG_RING, -1, null, len, data);
        opFlags = msgFlags;
        addr2 = MsgRing.DATA;
        arg = target;
        return this;
    }

    public Sqe prepMsgRingCqeFlags(IoUring target, int len, long data, int msgFlags, int cqeFlags) {
        prepMsgRing(target, len, data, msgFlags | MsgRing.FLAGS_PASS);
        fileIndex = cqeFlags;
        return this;
    }

    /**
     * SEND_FD: moves this ring's fixed file {@code srcFixedIndex} into the target's fixed slot
     * {@code dstFixedIndex} (both 0-based; the SQE's file index is the slot + 1, as liburing's
     * io_uring_prep_msg_ring_fd writes it).
     */
    public Sqe prepMsgRingFd(IoUring target, int srcFixedIndex, int dstFixedIndex, long data, int msgFlags) {
        rw(Opcode.MSG_RING, -1, null, 0, data);
        opFlags = msgFlags;
        addr2 = MsgRing.SEND_FD;
        addr3 = srcFixedIndex;
        fileIndex = dstFixedIndex + 1;
        arg = target;
        return this;
    }

    /** SEND_FD into any free slot of the target's table ({@link #FILE_INDEX_ALLOC}): both CQEs carry the slot. */
    public Sqe prepMsgRingFdAlloc(IoUring target, int srcFixedIndex, long data, int msgFlags) {
        prepMsgRingFd(target, srcFixedIndex, 0, data, msgFlags);
        fileIndex = FILE_INDEX_ALLOC;
        return this;
    }

    public Sqe prepProvideBuffers(MemorySegment region, int bufLen, int count, int groupId, int firstBid) {
        rw(Opcode.PROVIDE_BUFFERS, count, region, bufLen, firstBid);
        bufGroup = groupId;
        return this;
    }

    public Sqe prepRemoveBuffers(int count, int groupId) {
        rw(Opcode.REMOVE_BUFFERS, count, null, 0, 0);
        bufGroup = groupId;
        return this;
    }

    // ---- chaining setters ----

    public Sqe userData(long userData) {
        dirty = true;
        this.userData = userData;
        return this;
    }

    public Sqe flags(int flags) {
        dirty = true;
        this.flags = flags;
        return this;
    }

    public Sqe ioprio(int ioprio) {
        dirty = true;
        wide = true;
        this.ioprio = ioprio;
        return this;
    }

    /** The provided-buffer group to select from (with {@link SqeFlags#BUFFER_SELECT}). */
    public Sqe bufferGroup(int groupId) {
        dirty = true;
        wide = true;
        this.bufGroup = groupId;
        return this;
    }

    /**
     * Takes the operation's buffer from provided-buffer group {@code groupId} (a
     * {@link BufRing} or PROVIDE_BUFFERS): adds {@link SqeFlags#BUFFER_SELECT} to the flags
     * set so far and sets the group, as liburing's {@code sqe->flags |= IOSQE_BUFFER_SELECT;
     * sqe->buf_group = bgid}.
     */
    public Sqe bufferSelect(int groupId) {
        dirty = true;
        wide = true;
        this.flags |= SqeFlags.BUFFER_SELECT;
        this.bufGroup = groupId;
        return this;
    }

    // ---- raw setters for every field ----

    public Sqe opcode(int opcode) {
        dirty = true;
        this.opcode = opcode;
        return this;
    }

    public Sqe fd(int fd) {
        dirty = true;
        this.fd = fd;
        return this;
    }

    public Sqe off(long off) {
        dirty = true;
        wide = true;
        this.off = off;
        return this;
    }

    public Sqe addr(MemorySegment addr) {
        dirty = true;
        wide = true;
        this.addr = addr;
        return this;
    }

    public Sqe len(int len) {
        dirty = true;
        wide = true;
        this.len = len;
        return this;
    }

    public Sqe opFlags(int opFlags) {
        dirty = true;
        wide = true;
        this.opFlags = opFlags;
        return this;
    }

    public Sqe bufIndex(int bufIndex) {
        dirty = true;
        wide = true;
        this.bufIndex = bufIndex;
        return this;
    }

    public Sqe fileIndex(int fileIndex) {
        dirty = true;
        wide = true;
        this.fileIndex = fileIndex;
        return this;
    }

    /** Raw {@code addr2} (target user data, timeout nanos, MSG_RING command). */
    public Sqe addr2(long addr2) {
        dirty = true;
        wide = true;
        this.addr2 = addr2;
        return this;
    }

    /** Raw {@code addr3} (MSG_RING source file index). */
    public Sqe addr3(long addr3) {
        dirty = true;
        wide = true;
        this.addr3 = addr3;
        return this;
    }

    /** Out-of-line argument: iovec array, path, socket address or target ring. */
    public Sqe arg(Object arg) {
        dirty = true;
        wide = true;
        this.arg = arg;
        return this;
    }

    // ---- getters (the engine reads the slot through these) ----

    public int opcode() {
        return opcode;
    }

    public int flags() {
        return flags;
    }

    public int ioprio() {
        return ioprio;
    }

    public int fd() {
        return fd;
    }

    public long off() {
        return off;
    }

    public MemorySegment addr() {
        return addr;
    }

    public int len() {
        return len;
    }

    public int opFlags() {
        return opFlags;
    }

    public long userData() {
        return userData;
    }

    public int bufIndex() {
        return bufIndex;
    }

    public int bufGroup() {
        return bufGroup;
    }

    public int fileIndex() {
        return fileIndex;
    }

    public long addr2() {
        return addr2;
    }

    public long addr3() {
        return addr3;
    }

    public Object arg() {
        return arg;
    }

    @Override
    public String toString() {
        return "Sqe[" + Opcode.name(opcode) + " fd=" + fd + " off=" + off + " len=" + len
                + " flags=" + flags + " userData=" + userData + "]";
    }
}
