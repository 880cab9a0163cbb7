package io.jring;

import java.lang.foreign.MemorySegment;

/**
 * {@link Sqe}'s prep methods for files and provided buffers (NOP, READ/WRITE and their
 * vectored and fixed forms, FSYNC, FTRUNCATE, OPENAT, CLOSE, SPLICE, TEE, PROVIDE/REMOVE
 * BUFFERS) and the setters that chain after any prep ({@code userData}, {@code flags},
 * {@code ioprio}, buffer selection).
 */
abstract sealed class SqeFilePreps extends SqeFields permits SqeControlPreps {
    SqeFilePreps() {}

    /**
     * NOP: completes with 0 (liburing's io_uring_prep_nop).
     *
     * @return this SQE
     */
    public Sqe prepNop() {
        reset();
        dirty = true;
        opcode = Opcode.NOP;
        return self();
    }

    /**
     * READ: reads up to {@code buf.byteSize()} bytes. The CQE's result is the count read, 0 at end
     * of file. With {@link SqeFlags#BUFFER_SELECT} pass a null {@code buf}: the buffer comes from
     * the group of {@link Sqe#bufferGroup}.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a native segment that stays alive until the CQE, or null with BUFFER_SELECT
     * @param offset the file offset, or -1 for the file's current position (pipes and sockets ignore it)
     * @return this SQE
     */
    public Sqe prepRead(int fd, MemorySegment buf, long offset) {
        return rw(Opcode.READ, fd, buf, lengthOf(buf), offset);
    }

    /**
     * WRITE: writes {@code buf.byteSize()} bytes. The CQE's result is the count written.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a native segment that stays alive until the CQE; {@code len} is its size
     * @param offset the file offset, or -1 for the file's current position (pipes and sockets ignore it)
     * @return this SQE
     */
    public Sqe prepWrite(int fd, MemorySegment buf, long offset) {
        return rw(Opcode.WRITE, fd, buf, lengthOf(buf), offset);
    }

    /**
     * READV: reads into the buffers in turn (readv(2)'s iovec).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param bufs native segments that stay alive until the CQE
     * @param offset the file offset, or -1 for the file's current position (pipes and sockets ignore it)
     * @return this SQE
     */
    public Sqe prepReadv(int fd, MemorySegment[] bufs, long offset) {
        rw(Opcode.READV, fd, null, bufs == null ? 0 : bufs.length, offset);
        arg = bufs;
        return self();
    }

    /**
     * WRITEV: writes the buffers in turn (writev(2)'s iovec).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param bufs native segments that stay alive until the CQE
     * @param offset the file offset, or -1 for the file's current position (pipes and sockets ignore it)
     * @return this SQE
     */
    public Sqe prepWritev(int fd, MemorySegment[] bufs, long offset) {
        rw(Opcode.WRITEV, fd, null, bufs == null ? 0 : bufs.length, offset);
        arg = bufs;
        return self();
    }

    /**
     * READ_FIXED: READ into (part of) a registered buffer.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a slice of registered buffer {@code bufIndex}
     * @param offset the file offset, or -1 for the file's current position (pipes and sockets ignore it)
     * @param bufIndex the buffer's index in {@link IoUring#registerBuffers}
     * @return this SQE
     */
    public Sqe prepReadFixed(int fd, MemorySegment buf, long offset, int bufIndex) {
        rw(Opcode.READ_FIXED, fd, buf, lengthOf(buf), offset);
        this.bufIndex = bufIndex;
        return self();
    }

    /**
     * WRITE_FIXED: WRITE from (part of) a registered buffer.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a slice of registered buffer {@code bufIndex}
     * @param offset the file offset, or -1 for the file's current position (pipes and sockets ignore it)
     * @param bufIndex the buffer's index in {@link IoUring#registerBuffers}
     * @return this SQE
     */
    public Sqe prepWriteFixed(int fd, MemorySegment buf, long offset, int bufIndex) {
        rw(Opcode.WRITE_FIXED, fd, buf, lengthOf(buf), offset);
        this.bufIndex = bufIndex;
        return self();
    }

    /**
     * FSYNC: fsync(2) of the file, after its direct I/O in flight through jring.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param fsyncFlags 0, or {@link Fsync#DATASYNC} for fdatasync(2)
     * @return this SQE
     */
    public Sqe prepFsync(int fd, int fsyncFlags) {
        rw(Opcode.FSYNC, fd, null, 0, 0);
        opFlags = fsyncFlags;
        return self();
    }

    /**
     * FTRUNCATE: ftruncate(2) of the file to {@code length} bytes (liburing's
     * io_uring_prep_ftruncate; the length goes in {@code off}), after its direct I/O in flight
     * through jring. Runs in io-wq. The CQE's result is 0, or -EINVAL (negative length, a file
     * not open for writing or not regular), -EBADF, -EPERM, -EFBIG as ftruncate(2).
     *
     * @param fd the file, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param length the new size in bytes
     * @return this SQE
     */
    public Sqe prepFtruncate(int fd, long length) {
        return rw(Opcode.FTRUNCATE, fd, null, 0, length);
    }

    /**
     * OPENAT: opens a file; the CQE's result is the new descriptor. With {@link Sqe#fileIndex} set to
     * a slot + 1 (or {@link Sqe#FILE_INDEX_ALLOC}) the file goes into the fixed-file table instead
     * and the result is 0 (the slot, for ALLOC), as liburing's io_uring_prep_openat_direct.
     *
     * @param dirfd {@link Fds#AT_FDCWD} or a directory descriptor that a relative path starts from
     * @param path the file
     * @param openFlags {@link OpenFlags} bits
     * @param mode with {@link OpenFlags#CREAT}, the new file's permission bits
     * @return this SQE
     */
    public Sqe prepOpenat(int dirfd, String path, int openFlags, int mode) {
        rw(Opcode.OPENAT, dirfd, null, mode, 0);
        opFlags = openFlags;
        arg = path;
        return self();
    }

    /**
     * CLOSE: closes a descriptor (with {@link Sqe#fileIndex} set to a slot + 1 and fd 0: that fixed-file
     * slot, as liburing's io_uring_prep_close_direct).
     *
     * @param fd the descriptor
     * @return this SQE
     */
    public Sqe prepClose(int fd) {
        return rw(Opcode.CLOSE, fd, null, 0, 0);
    }

    /**
     * SPLICE (liburing's io_uring_prep_splice): moves up to {@code nbytes} (unsigned) from
     * {@code fdIn} to {@code fdOut}, one of which must be a pipe, as splice(2). An offset of -1
     * means the file's position (which moves); a pipe's offset must be -1 (else -ESPIPE).
     * {@code spliceFlags} are {@link Splice} bits; with {@link Splice#F_FD_IN_FIXED}
     * {@code fdIn} is a fixed-file slot, with {@link SqeFlags#FIXED_FILE} {@code fdOut} is.
     * It runs in io-wq and, without {@link Splice#F_NONBLOCK}, waits for data or room.
     * Res: the bytes moved, 0 at EOF, or -errno; a short splice breaks a link.
     * The SQE holds {@code fdOut} in {@code fd}, {@code offOut} in {@code off}, {@code fdIn}
     * in {@code fileIndex} (the kernel's splice_fd_in) and {@code offIn} in {@code addr2}
     * (the kernel's splice_off_in, which shares addr's place).
     *
     * @param fdIn the input descriptor, or with {@link Splice#F_FD_IN_FIXED} a fixed-file slot
     * @param offIn the input's offset, or -1 for its file position (always -1 for a pipe)
     * @param fdOut the output descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param offOut the output's offset, or -1 for its file position (always -1 for a pipe)
     * @param nbytes the most bytes to move (unsigned)
     * @param spliceFlags {@link Splice} flags, or 0
     * @return this SQE
     */
    public Sqe prepSplice(int fdIn, long offIn, int fdOut, long offOut, int nbytes, int spliceFlags) {
        rw(Opcode.SPLICE, fdOut, null, nbytes, offOut);
        addr2 = offIn;
        fileIndex = fdIn;
        opFlags = spliceFlags;
        return self();
    }

    /**
     * TEE (liburing's io_uring_prep_tee): copies up to {@code nbytes} of pipe {@code fdIn}'s
     * data into pipe {@code fdOut} without consuming it, as tee(2): -EINVAL unless both are
     * pipes (and different ones). Flags, fixed files and waiting as {@link Sqe#prepSplice}; TEE
     * has no offsets (a non-zero {@code off} or {@code addr2} fails with -EINVAL).
     *
     * @param fdIn the input pipe, or with {@link Splice#F_FD_IN_FIXED} a fixed-file slot
     * @param fdOut the output pipe, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param nbytes the most bytes to copy (unsigned)
     * @param spliceFlags {@link Splice} flags, or 0
     * @return this SQE
     */
    public Sqe prepTee(int fdIn, int fdOut, int nbytes, int spliceFlags) {
        rw(Opcode.TEE, fdOut, null, nbytes, 0);
        fileIndex = fdIn;
        opFlags = spliceFlags;
        return self();
    }

    /**
     * PROVIDE_BUFFERS: gives {@code count} buffers of {@code bufLen} bytes, cut from {@code region},
     * to group {@code groupId}, with ids from {@code firstBid}.
     *
     * @param region a native segment of at least {@code bufLen * count} bytes that stays alive while the buffers are in use
     * @param bufLen each buffer's length
     * @param count how many buffers
     * @param groupId the group
     * @param firstBid the first buffer's id
     * @return this SQE
     */
    public Sqe prepProvideBuffers(MemorySegment region, int bufLen, int count, int groupId, int firstBid) {
        rw(Opcode.PROVIDE_BUFFERS, count, region, bufLen, firstBid);
        bufGroup = groupId;
        return self();
    }

    /**
     * REMOVE_BUFFERS: takes up to {@code count} buffers back from a group; the result is how many.
     *
     * @param count how many at most
     * @param groupId the group
     * @return this SQE
     */
    public Sqe prepRemoveBuffers(int count, int groupId) {
        rw(Opcode.REMOVE_BUFFERS, count, null, 0, 0);
        bufGroup = groupId;
        return self();
    }

    /**
     * Sets the user data the CQE carries back.
     *
     * @param userData any value
     * @return this SQE
     */
    public Sqe userData(long userData) {
        dirty = true;
        this.userData = userData;
        return self();
    }

    /**
     * Sets the SQE flags.
     *
     * @param flags {@link SqeFlags} bits
     * @return this SQE
     */
    public Sqe flags(int flags) {
        dirty = true;
        this.flags = flags;
        return self();
    }

    /**
     * Sets the I/O priority field (for ACCEPT and SEND/RECV, their op flags, as Linux).
     *
     * @param ioprio the raw {@code ioprio} value
     * @return this SQE
     */
    public Sqe ioprio(int ioprio) {
        dirty = true;
        wide = true;
        this.ioprio = ioprio;
        return self();
    }

    /**
     * The provided-buffer group to select from (with {@link SqeFlags#BUFFER_SELECT}).
     *
     * @param groupId the group of {@link Sqe#prepProvideBuffers}
     * @return this SQE
     */
    public Sqe bufferGroup(int groupId) {
        dirty = true;
        wide = true;
        this.bufGroup = groupId;
        return self();
    }

    /**
     * Takes the operation's buffer from provided-buffer group {@code groupId} (a
     * {@link BufRing} or PROVIDE_BUFFERS): adds {@link SqeFlags#BUFFER_SELECT} to the flags
     * set so far and sets the group, as liburing's {@code sqe->flags |= IOSQE_BUFFER_SELECT;
     * sqe->buf_group = bgid}.
     *
     * @param groupId the group of a {@link BufRing} or of {@link Sqe#prepProvideBuffers}
     * @return this SQE
     */
    public Sqe bufferSelect(int groupId) {
        dirty = true;
        wide = true;
        this.flags |= SqeFlags.BUFFER_SELECT;
        this.bufGroup = groupId;
        return self();
    }
}
