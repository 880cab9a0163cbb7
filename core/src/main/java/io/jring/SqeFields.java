package io.jring;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/**
 * The fields of an {@link Sqe} slot, as Linux's {@code struct io_uring_sqe} (liburing's
 * names), with the reset every prep starts with, the raw setters and the getters the engine
 * reads. The base of a sealed chain that ends in {@link Sqe}: each link adds one family of
 * prep methods (files and buffers, then control ops, then sockets), as liburing's
 * {@code io_uring_prep_*} helpers are grouped; users only ever see {@code Sqe}.
 *
 * <p>Owned by the thread that uses the ring: plain fields, no synchronisation.
 */
abstract sealed class SqeFields permits SqeFilePreps {
    SqeFields() {}

    int opcode;

    int flags;

    int ioprio;

    int fd;

    long off;

    MemorySegment addr;

    int len;

    int opFlags;

    long userData;

    int bufIndex;

    int bufGroup;

    int fileIndex;

    /** addr2/addr3 of the kernel SQE: a target user_data, a MSG_RING command, a source index. */
    long addr2;

    long addr3;

    /** Out-of-line argument: iovec array, path, socket address or target ring. */
    Object arg;

    /** Some field may be non-zero: {@link Sqe#reset()} has work to do. Saves the second reset of getSqe + prep. */
    boolean dirty = true;

    /**
     * A field other than opcode, flags, userData and fd may be non-zero: only then does
     * {@link Sqe#reset()} clear them, so reusing a slot that held a NOP stores four fields, not fifteen.
     */
    boolean wide = true;

    /**
     * Resets every field to zero (what liburing's io_uring_prep_rw does first); each {@code prep*}
     * method calls it.
     *
     * @return this SQE
     */
    public Sqe reset() {
        if (!dirty) {
            return self();
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
        return self();
    }

    final Sqe rw(int op, int fd, MemorySegment buf, int len, long offset) {
        reset();
        dirty = true;
        wide = true;
        this.opcode = op;
        this.fd = fd;
        this.addr = buf;
        this.len = len;
        this.off = offset;
        return self();
    }

    static int lengthOf(MemorySegment buf) {
        if (buf == null) {
            return 0;
        }
        long size = buf.byteSize();
        // Linux caps a single read/write at MAX_RW_COUNT; the int len field cannot say more.
        return size > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) size;
    }

    /** liburing's __io_uring_set_target_fixed_file: slot + 1, Sqe.FILE_INDEX_ALLOC kept. */
    static int targetSlot(int fileIndex) {
        return fileIndex == Sqe.FILE_INDEX_ALLOC ? Sqe.FILE_INDEX_ALLOC : fileIndex + 1;
    }

    /**
     * Raw setter of {@code opcode}.
     *
     * @param opcode an {@link Opcode} number
     * @return this SQE
     */
    public Sqe opcode(int opcode) {
        dirty = true;
        this.opcode = opcode;
        return self();
    }

    /**
     * Raw setter of {@code fd}.
     *
     * @param fd a descriptor or fixed-file slot
     * @return this SQE
     */
    public Sqe fd(int fd) {
        dirty = true;
        this.fd = fd;
        return self();
    }

    /**
     * Raw setter of {@code off} (file offset; the count of a TIMEOUT, the data of a MSG_RING).
     *
     * @param off the value
     * @return this SQE
     */
    public Sqe off(long off) {
        dirty = true;
        wide = true;
        this.off = off;
        return self();
    }

    /**
     * Raw setter of {@code addr} (the buffer).
     *
     * @param addr a native segment, or null
     * @return this SQE
     */
    public Sqe addr(MemorySegment addr) {
        dirty = true;
        wide = true;
        this.addr = addr;
        return self();
    }

    /**
     * Raw setter of {@code len} (buffer length, vector count, mode, ...).
     *
     * @param len the value
     * @return this SQE
     */
    public Sqe len(int len) {
        dirty = true;
        wide = true;
        this.len = len;
        return self();
    }

    /**
     * Raw setter of the op-specific flags word ({@code rw_flags}, {@code msg_flags}, {@code timeout_flags}, ...).
     *
     * @param opFlags the value
     * @return this SQE
     */
    public Sqe opFlags(int opFlags) {
        dirty = true;
        wide = true;
        this.opFlags = opFlags;
        return self();
    }

    /**
     * Raw setter of {@code buf_index} (the registered buffer of READ_FIXED/WRITE_FIXED).
     *
     * @param bufIndex the value
     * @return this SQE
     */
    public Sqe bufIndex(int bufIndex) {
        dirty = true;
        wide = true;
        this.bufIndex = bufIndex;
        return self();
    }

    /**
     * Raw setter of {@code file_index} (a fixed-file slot + 1, or {@link Sqe#FILE_INDEX_ALLOC}).
     *
     * @param fileIndex the value
     * @return this SQE
     */
    public Sqe fileIndex(int fileIndex) {
        dirty = true;
        wide = true;
        this.fileIndex = fileIndex;
        return self();
    }

    /**
     * Raw setter of {@code addr2} (target user data, timeout nanos, MSG_RING command, SPLICE's
     * input offset).
     *
     * @param addr2 the value
     * @return this SQE
     */
    public Sqe addr2(long addr2) {
        dirty = true;
        wide = true;
        this.addr2 = addr2;
        return self();
    }

    /**
     * Raw setter of {@code addr3} (MSG_RING source file index, a timeout update's nanos).
     *
     * @param addr3 the value
     * @return this SQE
     */
    public Sqe addr3(long addr3) {
        dirty = true;
        wide = true;
        this.addr3 = addr3;
        return self();
    }

    /**
     * Raw setter of the out-of-line argument, what Linux reaches through {@code addr}: the
     * {@code MemorySegment[]} of READV/WRITEV, the {@code String} path of OPENAT, the
     * {@code InetSocketAddress} of CONNECT, the target {@link IoUring} of MSG_RING.
     *
     * @param arg the value
     * @return this SQE
     */
    public Sqe arg(Object arg) {
        dirty = true;
        wide = true;
        this.arg = arg;
        return self();
    }

    /** {@return the opcode} */
    public int opcode() {
        return opcode;
    }

    /** {@return the SQE flags} */
    public int flags() {
        return flags;
    }

    /** {@return the ioprio field} */
    public int ioprio() {
        return ioprio;
    }

    /** {@return the fd field} */
    public int fd() {
        return fd;
    }

    /** {@return the off field} */
    public long off() {
        return off;
    }

    /** {@return the buffer, or null} */
    public MemorySegment addr() {
        return addr;
    }

    /** {@return the len field} */
    public int len() {
        return len;
    }

    /** {@return the op-specific flags} */
    public int opFlags() {
        return opFlags;
    }

    /** {@return the user data} */
    public long userData() {
        return userData;
    }

    /** {@return the registered buffer index} */
    public int bufIndex() {
        return bufIndex;
    }

    /** {@return the provided-buffer group} */
    public int bufGroup() {
        return bufGroup;
    }

    /** {@return the file index field} */
    public int fileIndex() {
        return fileIndex;
    }

    /** {@return the addr2 field} */
    public long addr2() {
        return addr2;
    }

    /** {@return the addr3 field} */
    public long addr3() {
        return addr3;
    }

    /** {@return the out-of-line argument, or null} */
    public Object arg() {
        return arg;
    }

    @Override
    public String toString() {
        return "Sqe[" + Opcode.name(opcode) + " fd=" + fd + " off=" + off + " len=" + len
                + " flags=" + flags + " userData=" + userData + "]";
    }

    /** {@return this slot as the {@link Sqe} it is (the chain is sealed and ends there)} */
    final Sqe self() {
        return (Sqe) this;
    }
}
