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
     * {@code IORING_FILE_INDEX_ALLOC}: as an SQE's {@code fileIndex} (OPENAT, SOCKET, ACCEPT,
     * MSG_RING SEND_FD), any free slot of the fixed-file table; the result is the slot.
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
    /**
     * {@code IORING_RECVSEND_FIXED_BUF}: SEND_ZC's data lies in registered buffer
     * {@link #bufIndex} (see {@link #prepSendZcFixed}).
     */
    public static final int RECVSEND_FIXED_BUF = 1 << 2;
    /**
     * {@code IORING_SEND_ZC_REPORT_USAGE}: a zero-copy send's notification CQE says whether the
     * data was copied ({@link CqeFlags#NOTIF_USAGE_ZC_COPIED}).
     */
    public static final int SEND_ZC_REPORT_USAGE = 1 << 3;

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

    /**
     * Resets every field to zero (what liburing's io_uring_prep_rw does first); each {@code prep*}
     * method calls it.
     *
     * @return this SQE
     */
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

    /**
     * NOP: completes with 0 (liburing's io_uring_prep_nop).
     *
     * @return this SQE
     */
    public Sqe prepNop() {
        reset();
        dirty = true;
        opcode = Opcode.NOP;
        return this;
    }

    /**
     * READ: reads up to {@code buf.byteSize()} bytes. The CQE's result is the count read, 0 at end
     * of file. With {@link SqeFlags#BUFFER_SELECT} pass a null {@code buf}: the buffer comes from
     * the group of {@link #bufferGroup}.
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
        return this;
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
        return this;
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
        return this;
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
        return this;
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
        return this;
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
     * OPENAT: opens a file; the CQE's result is the new descriptor. With {@link #fileIndex} set to
     * a slot + 1 (or {@link #FILE_INDEX_ALLOC}) the file goes into the fixed-file table instead
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
        return this;
    }

    /**
     * CLOSE: closes a descriptor (with {@link #fileIndex} set to a slot + 1 and fd 0: that fixed-file
     * slot, as liburing's io_uring_prep_close_direct).
     *
     * @param fd the descriptor
     * @return this SQE
     */
    public Sqe prepClose(int fd) {
        return rw(Opcode.CLOSE, fd, null, 0, 0);
    }

    /**
     * POLL_ADD, one-shot: completes once the file is ready; the result is the ready {@link Poll} mask.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param pollMask {@link Poll} bits to wait for (ERR, HUP, NVAL and RDHUP are always reported)
     * @return this SQE
     */
    public Sqe prepPollAdd(int fd, int pollMask) {
        rw(Opcode.POLL_ADD, fd, null, 0, 0);
        opFlags = pollMask;
        return this;
    }

    /**
     * POLL_ADD, multishot: a CQE with {@link CqeFlags#MORE} for each readiness, until removed or
     * cancelled (the last CQE has no MORE).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param pollMask {@link Poll} bits to wait for
     * @return this SQE
     */
    public Sqe prepPollMultishot(int fd, int pollMask) {
        prepPollAdd(fd, pollMask);
        len = POLL_ADD_MULTI;
        return this;
    }

    /**
     * POLL_REMOVE: removes the POLL_ADD with that user data (it completes -ECANCELED; this SQE 0,
     * or -ENOENT if none is armed).
     *
     * @param targetUserData the POLL_ADD's user data
     * @return this SQE
     */
    public Sqe prepPollRemove(long targetUserData) {
        rw(Opcode.POLL_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        return this;
    }

    /**
     * TIMEOUT: completes -ETIME when the time comes, or 0 once {@code count} other CQEs were posted.
     *
     * @param nanos relative nanoseconds, or an absolute time with {@link Timeout#ABS}
     * @param count the CQEs that complete it early; 0: only the time counts
     * @param timeoutFlags {@link Timeout} bits
     * @return this SQE
     */
    public Sqe prepTimeout(long nanos, int count, int timeoutFlags) {
        rw(Opcode.TIMEOUT, -1, null, 1, count);
        opFlags = timeoutFlags;
        addr2 = nanos;
        return this;
    }

    /**
     * TIMEOUT_REMOVE: removes the TIMEOUT with that user data (it completes -ECANCELED; this SQE 0,
     * or -ENOENT if none is pending).
     *
     * @param targetUserData the TIMEOUT's user data
     * @return this SQE
     */
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
     *
     * @param targetUserData the user data of the TIMEOUT or LINK_TIMEOUT
     * @param nanos its new expiry
     * @param timeoutFlags {@link Timeout} bits
     * @return this SQE
     */
    public Sqe prepTimeoutUpdate(long targetUserData, long nanos, int timeoutFlags) {
        rw(Opcode.TIMEOUT_REMOVE, -1, null, 0, 0);
        addr2 = targetUserData;
        addr3 = nanos;
        opFlags = timeoutFlags | Timeout.UPDATE;
        return this;
    }

    /**
     * LINK_TIMEOUT: bounds the SQE linked just before it (with {@link SqeFlags#IO_LINK}): on expiry
     * that SQE is cancelled and this one completes -ETIME; if that SQE finishes first, this one
     * completes -ECANCELED.
     *
     * @param nanos relative nanoseconds, or an absolute time with {@link Timeout#ABS}
     * @param timeoutFlags {@link Timeout} bits
     * @return this SQE
     */
    public Sqe prepLinkTimeout(long nanos, int timeoutFlags) {
        rw(Opcode.LINK_TIMEOUT, -1, null, 1, 0);
        opFlags = timeoutFlags;
        addr2 = nanos;
        return this;
    }

    /**
     * ASYNC_CANCEL by user data: the target completes -ECANCELED; this SQE 0 (with {@link Cancel#ALL}
     * or {@link Cancel#ANY}: the count), -ENOENT if nothing matched, -EALREADY if the target is
     * running and cannot be stopped.
     *
     * @param targetUserData the user data to match
     * @param cancelFlags {@link Cancel} bits
     * @return this SQE
     */
    public Sqe prepCancel(long targetUserData, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, -1, null, 0, 0);
        addr2 = targetUserData;
        opFlags = cancelFlags;
        return this;
    }

    /**
     * ASYNC_CANCEL of the requests on a descriptor ({@link Cancel#FD} is added).
     *
     * @param fd the descriptor, or with {@link Cancel#FD_FIXED} a fixed-file slot
     * @param cancelFlags {@link Cancel} bits
     * @return this SQE
     */
    public Sqe prepCancelFd(int fd, int cancelFlags) {
        rw(Opcode.ASYNC_CANCEL, fd, null, 0, 0);
        opFlags = cancelFlags | Cancel.FD;
        return this;
    }

    /**
     * SOCKET: creates a socket; the CQE's result is its descriptor.
     *
     * @param domain {@link Fds#AF_INET} or {@link Fds#AF_INET6} (and the other Linux families)
     * @param type {@link Fds#SOCK_STREAM} or {@link Fds#SOCK_DGRAM}, with SOCK_NONBLOCK or SOCK_CLOEXEC
     * @param protocol 0 for the type's default
     * @return this SQE
     */
    public Sqe prepSocket(int domain, int type, int protocol) {
        rw(Opcode.SOCKET, domain, null, protocol, type);
        return this;
    }

    /**
     * ACCEPT: one connection; the CQE's result is its descriptor.
     *
     * @param listenFd a listening socket, or with {@link SqeFlags#FIXED_FILE} its slot
     * @param flags accept4(2) flags ({@link Fds#SOCK_NONBLOCK}, {@link Fds#SOCK_CLOEXEC})
     * @return this SQE
     */
    public Sqe prepAccept(int listenFd, int flags) {
        rw(Opcode.ACCEPT, listenFd, null, 0, 0);
        opFlags = flags;
        return this;
    }

    /**
     * ACCEPT, multishot: a CQE with {@link CqeFlags#MORE} for each connection, until cancelled or
     * an error ends it (the last CQE has no MORE).
     *
     * @param listenFd a listening socket, or with {@link SqeFlags#FIXED_FILE} its slot
     * @param flags accept4(2) flags
     * @return this SQE
     */
    public Sqe prepMultishotAccept(int listenFd, int flags) {
        prepAccept(listenFd, flags);
        ioprio = ACCEPT_MULTISHOT;
        return this;
    }

    /**
     * CONNECT: connects a socket; the result is 0 or -errno (-ECONNREFUSED, ...).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param address a resolved IPv4 or IPv6 address
     * @return this SQE
     */
    public Sqe prepConnect(int fd, InetSocketAddress address) {
        rw(Opcode.CONNECT, fd, null, 0, 0);
        arg = address;
        return this;
    }

    /**
     * RECV: receives up to {@code buf.byteSize()} bytes; the result is the count, 0 when the peer
     * has closed. With {@link SqeFlags#BUFFER_SELECT} pass a null {@code buf} (see {@link #bufferGroup}).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a native segment that stays alive until the CQE, or null with BUFFER_SELECT
     * @param msgFlags recv(2) flags (e.g. MSG_WAITALL 0x100, MSG_DONTWAIT 0x40)
     * @return this SQE
     */
    public Sqe prepRecv(int fd, MemorySegment buf, int msgFlags) {
        rw(Opcode.RECV, fd, buf, lengthOf(buf), 0);
        opFlags = msgFlags;
        return this;
    }

    /**
     * SEND: sends {@code buf.byteSize()} bytes; the result is the count sent (never SIGPIPE: a
     * closed peer gives -EPIPE).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a native segment that stays alive until the CQE; {@code len} is its size
     * @param msgFlags send(2) flags
     * @return this SQE
     */
    public Sqe prepSend(int fd, MemorySegment buf, int msgFlags) {
        rw(Opcode.SEND, fd, buf, lengthOf(buf), 0);
        opFlags = msgFlags;
        return this;
    }

    /**
     * A multishot RECV (liburing's io_uring_prep_recv_multishot): {@link #prepRecv} with
     * {@link #RECV_MULTISHOT}; usually {@code buf} null and {@link #bufferSelect} after it
     * ({@code len}, if set, caps each CQE's bytes).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf null with {@link #bufferSelect}, or a native segment that stays alive until the last CQE
     * @param msgFlags recv(2) flags
     * @return this SQE
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
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param len the most bytes to send, or 0 for all the group's buffers
     * @param msgFlags send(2) flags
     * @return this SQE
     */
    public Sqe prepSendBundle(int fd, int len, int msgFlags) {
        prepSend(fd, null, msgFlags);
        this.len = len;
        ioprio = RECVSEND_BUNDLE;
        return this;
    }

    /**
     * SHUTDOWN: shutdown(2) of a socket.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param how {@link Fds#SHUT_RD}, {@link Fds#SHUT_WR} or {@link Fds#SHUT_RDWR}
     * @return this SQE
     */
    public Sqe prepShutdown(int fd, int how) {
        return rw(Opcode.SHUTDOWN, fd, null, how, 0);
    }

    // ---- sockets set up through the ring, direct descriptors, splice and tee (issue 23) ----

    /** liburing's __io_uring_set_target_fixed_file: slot + 1, FILE_INDEX_ALLOC kept. */
    private static int targetSlot(int fileIndex) {
        return fileIndex == FILE_INDEX_ALLOC ? FILE_INDEX_ALLOC : fileIndex + 1;
    }

    /**
     * BIND (liburing's io_uring_prep_bind): binds socket {@code fd} (with
     * {@link SqeFlags#FIXED_FILE}, a fixed-file slot) to the {@code addrlen}-byte sockaddr at
     * {@code addr}, as bind(2). The SQE holds the address in {@code addr} and its length in
     * {@code off} (the kernel's addr2); the address is copied when the SQE is submitted. The
     * CQE's res is 0 or bind(2)'s -errno (-EADDRINUSE, -EINVAL...), -ENOTSOCK or -EBADF.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param addr a native segment holding the sockaddr, alive until the SQE is submitted
     * @param addrlen the sockaddr's length in bytes
     * @return this SQE
     */
    public Sqe prepBind(int fd, MemorySegment addr, int addrlen) {
        return rw(Opcode.BIND, fd, addr, 0, addrlen);
    }

    /**
     * {@link #prepBind(int, MemorySegment, int)} with an IPv4 or IPv6 address, encoded when submitted.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param address a resolved IPv4 or IPv6 address
     * @return this SQE
     */
    public Sqe prepBind(int fd, InetSocketAddress address) {
        rw(Opcode.BIND, fd, null, 0, 0);
        arg = address;
        return this;
    }

    /**
     * LISTEN (liburing's io_uring_prep_listen): listen(2) on socket {@code fd} (with
     * {@link SqeFlags#FIXED_FILE}, a slot) with {@code backlog} in {@code len}. An unbound
     * TCP socket gets an ephemeral port. Res 0 or -errno (-EOPNOTSUPP for a datagram socket).
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param backlog listen(2)'s backlog: the most pending connections
     * @return this SQE
     */
    public Sqe prepListen(int fd, int backlog) {
        return rw(Opcode.LISTEN, fd, null, backlog, 0);
    }

    /**
     * CONNECT with liburing's layout (io_uring_prep_connect): the {@code addrlen}-byte
     * sockaddr at {@code addr}, any family (AF_UNIX too), copied when submitted. Otherwise as
     * {@link #prepConnect(int, InetSocketAddress)}.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param addr a native segment holding the sockaddr, alive until the SQE is submitted
     * @param addrlen the sockaddr's length in bytes
     * @return this SQE
     */
    public Sqe prepConnect(int fd, MemorySegment addr, int addrlen) {
        return rw(Opcode.CONNECT, fd, addr, 0, addrlen);
    }

    /**
     * SOCKET into fixed-file slot {@code fileIndex} (0-based; liburing's
     * io_uring_prep_socket_direct): res 0, or -ENXIO without a file table, -EINVAL past it.
     * {@link #FILE_INDEX_ALLOC} picks a free slot as {@link #prepSocketDirectAlloc} does.
     * SOCK_CLOEXEC in {@code type} is -EINVAL: a slot has no descriptor to close on exec.
     *
     * @param domain {@link Fds#AF_INET} or {@link Fds#AF_INET6} (and the other Linux families)
     * @param type {@link Fds#SOCK_STREAM} or {@link Fds#SOCK_DGRAM}, with SOCK_NONBLOCK (not SOCK_CLOEXEC)
     * @param protocol 0 for the type's default
     * @param fileIndex the 0-based fixed-file slot, or {@link #FILE_INDEX_ALLOC}
     * @return this SQE
     */
    public Sqe prepSocketDirect(int domain, int type, int protocol, int fileIndex) {
        prepSocket(domain, type, protocol);
        this.fileIndex = targetSlot(fileIndex);
        return this;
    }

    /**
     * SOCKET into any free fixed-file slot (liburing's io_uring_prep_socket_direct_alloc):
     * res is the slot, or -ENFILE when none is free or no table is registered.
     *
     * @param domain {@link Fds#AF_INET} or {@link Fds#AF_INET6} (and the other Linux families)
     * @param type {@link Fds#SOCK_STREAM} or {@link Fds#SOCK_DGRAM}, with SOCK_NONBLOCK (not SOCK_CLOEXEC)
     * @param protocol 0 for the type's default
     * @return this SQE
     */
    public Sqe prepSocketDirectAlloc(int domain, int type, int protocol) {
        prepSocket(domain, type, protocol);
        this.fileIndex = FILE_INDEX_ALLOC;
        return this;
    }

    /**
     * ACCEPT into fixed-file slot {@code fileIndex} (0-based, or {@link #FILE_INDEX_ALLOC};
     * liburing's io_uring_prep_accept_direct without the peer address): res 0 (the slot
     * with ALLOC), or the install's -ENXIO / -EINVAL / -ENFILE, the connection then closed.
     *
     * @param listenFd a listening socket, or with {@link SqeFlags#FIXED_FILE} its slot
     * @param flags accept4(2) flags ({@link Fds#SOCK_NONBLOCK}, {@link Fds#SOCK_CLOEXEC})
     * @param fileIndex the 0-based fixed-file slot for the connection, or {@link #FILE_INDEX_ALLOC}
     * @return this SQE
     */
    public Sqe prepAcceptDirect(int listenFd, int flags, int fileIndex) {
        prepAccept(listenFd, flags);
        this.fileIndex = targetSlot(fileIndex);
        return this;
    }

    /**
     * Multishot ACCEPT whose connections each take a free fixed-file slot (liburing's
     * io_uring_prep_multishot_accept_direct): every CQE's res is a slot, with
     * {@link CqeFlags#MORE} while it stays armed; -ENFILE ends it when the table is full.
     *
     * @param listenFd a listening socket, or with {@link SqeFlags#FIXED_FILE} its slot
     * @param flags accept4(2) flags
     * @return this SQE
     */
    public Sqe prepMultishotAcceptDirect(int listenFd, int flags) {
        prepMultishotAccept(listenFd, flags);
        this.fileIndex = FILE_INDEX_ALLOC;
        return this;
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
        return this;
    }

    /**
     * TEE (liburing's io_uring_prep_tee): copies up to {@code nbytes} of pipe {@code fdIn}'s
     * data into pipe {@code fdOut} without consuming it, as tee(2): -EINVAL unless both are
     * pipes (and different ones). Flags, fixed files and waiting as {@link #prepSplice}; TEE
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
        return this;
    }

    /**
     * MSG_RING: posts a CQE to {@code target} with {@code res = len} and {@code userData = data};
     * this SQE's own CQE is 0 or -errno (-EBADFD: the target is closed). The target may be
     * owned by another thread.
     *
     * @param target the ring that gets the CQE (may be this ring)
     * @param len the target CQE's result
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags
     * @return this SQE
     */
    public Sqe prepMsgRing(IoUring target, int len, long data, int msgFlags) {
        rw(Opcode.MSG_RING, -1, null, len, data);
        opFlags = msgFlags;
        addr2 = MsgRing.DATA;
        arg = target;
        return this;
    }

    /**
     * MSG_RING with {@link MsgRing#FLAGS_PASS}: the target CQE carries {@code cqeFlags}.
     *
     * @param target the ring that gets the CQE
     * @param len the target CQE's result
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags (FLAGS_PASS is added)
     * @param cqeFlags the target CQE's flags
     * @return this SQE
     */
    public Sqe prepMsgRingCqeFlags(IoUring target, int len, long data, int msgFlags, int cqeFlags) {
        prepMsgRing(target, len, data, msgFlags | MsgRing.FLAGS_PASS);
        fileIndex = cqeFlags;
        return this;
    }

    /**
     * MSG_RING SEND_FD: moves this ring's fixed file {@code srcFixedIndex} into the target's fixed slot
     * {@code dstFixedIndex} (both 0-based; the SQE's file index is the slot + 1, as liburing's
     * io_uring_prep_msg_ring_fd writes it). The target gets a CQE with {@code userData = data}
     * unless {@link MsgRing#CQE_SKIP}; this SQE completes when the file is installed, with the install's result.
     *
     * @param target another ring, with a registered file table
     * @param srcFixedIndex the slot in this ring's table
     * @param dstFixedIndex the slot in the target's table
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags
     * @return this SQE
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

    /**
     * SEND_FD into any free slot of the target's table ({@link #FILE_INDEX_ALLOC}): both CQEs carry
     * the slot.
     *
     * @param target another ring, with a registered file table
     * @param srcFixedIndex the slot in this ring's table
     * @param data the target CQE's user data
     * @param msgFlags {@link MsgRing} flags
     * @return this SQE
     */
    public Sqe prepMsgRingFdAlloc(IoUring target, int srcFixedIndex, long data, int msgFlags) {
        prepMsgRingFd(target, srcFixedIndex, 0, data, msgFlags);
        fileIndex = FILE_INDEX_ALLOC;
        return this;
    }

    // ---- messages and zero-copy sends (issue 23): msghdr layouts from MsgHdr ----

    /**
     * SENDMSG (liburing's io_uring_prep_sendmsg): sendmsg(2) of the {@code struct msghdr} in
     * {@code msghdr} (build it with {@link MsgHdr}): its iovecs, {@code msg_name} (a datagram's
     * destination) and {@code msg_control} (SCM_RIGHTS). The header is copied at submit; what it
     * points to must stay valid until the CQE. The result is the bytes sent.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param msghdr a native segment of at least 56 bytes holding the msghdr
     * @param msgFlags sendmsg(2) flags
     * @return this SQE
     */
    public Sqe prepSendmsg(int fd, MemorySegment msghdr, int msgFlags) {
        rw(Opcode.SENDMSG, fd, msghdr, 1, 0);
        opFlags = msgFlags;
        return this;
    }

    /**
     * RECVMSG (liburing's io_uring_prep_recvmsg): recvmsg(2) into the msghdr's iovecs; the
     * sender's address goes to {@code msg_name}, ancillary data to {@code msg_control}, and
     * {@code msg_namelen}, {@code msg_controllen} and {@code msg_flags} (MSG_TRUNC, MSG_CTRUNC)
     * are written back into {@code msghdr} when it completes, as recvmsg(2) does. With
     * {@link #bufferSelect} the data goes into a provided buffer instead (the msghdr then has
     * at most one iovec, whose length caps the receive).
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param msghdr a native segment of at least 56 bytes that stays alive until the CQE
     * @param msgFlags recvmsg(2) flags
     * @return this SQE
     */
    public Sqe prepRecvmsg(int fd, MemorySegment msghdr, int msgFlags) {
        rw(Opcode.RECVMSG, fd, msghdr, 1, 0);
        opFlags = msgFlags;
        return this;
    }

    /**
     * A multishot RECVMSG (liburing's io_uring_prep_recvmsg_multishot): a CQE with
     * {@link CqeFlags#MORE} per message, each in a provided buffer (call {@link #bufferSelect})
     * laid out as {@code struct io_uring_recvmsg_out}, then the name (up to the msghdr's
     * {@code msg_namelen} bytes), the control (its {@code msg_controllen}) and the payload: parse
     * it with {@link RecvmsgOut}. The msghdr is read at submit only.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param msghdr a native segment of at least 56 bytes giving the name and control sizes
     * @param msgFlags recvmsg(2) flags (not MSG_WAITALL)
     * @return this SQE
     */
    public Sqe prepRecvmsgMultishot(int fd, MemorySegment msghdr, int msgFlags) {
        prepRecvmsg(fd, msghdr, msgFlags);
        ioprio = RECV_MULTISHOT;
        return this;
    }

    /**
     * SEND_ZC (liburing's io_uring_prep_send_zc): a send with two CQEs, the result with
     * {@link CqeFlags#MORE}, then a notification with {@link CqeFlags#NOTIF} once {@code buf}
     * may be reused (also when the send failed). Only TCP and UDP sockets take it (else
     * -EOPNOTSUPP). jring copies the data, so the notification follows at once.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a native segment that stays alive until the notification
     * @param msgFlags send(2) flags
     * @param zcFlags 0, {@link #RECVSEND_POLL_FIRST}, {@link #SEND_ZC_REPORT_USAGE}
     * @return this SQE
     */
    public Sqe prepSendZc(int fd, MemorySegment buf, int msgFlags, int zcFlags) {
        rw(Opcode.SEND_ZC, fd, buf, lengthOf(buf), 0);
        opFlags = msgFlags;
        ioprio = zcFlags;
        return this;
    }

    /**
     * SEND_ZC from registered buffer {@code bufIndex} (liburing's io_uring_prep_send_zc_fixed):
     * {@link #prepSendZc} with {@link #RECVSEND_FIXED_BUF}; {@code buf} must lie inside that buffer.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a part of registered buffer {@code bufIndex}
     * @param msgFlags send(2) flags
     * @param zcFlags as {@link #prepSendZc}
     * @param bufIndex the registered buffer's index
     * @return this SQE
     */
    public Sqe prepSendZcFixed(int fd, MemorySegment buf, int msgFlags, int zcFlags, int bufIndex) {
        prepSendZc(fd, buf, msgFlags, zcFlags | RECVSEND_FIXED_BUF);
        this.bufIndex = bufIndex;
        return this;
    }

    /**
     * SEND_ZC's destination (liburing's io_uring_prep_send_set_addr): a datagram's address, as
     * sendto(2), in {@code addr2} and {@code addr_len} (the low 16 bits of {@link #fileIndex}).
     * Copied at submit. jring's SEND does not take one.
     *
     * @param sockaddr native memory holding the address (e.g. {@link MsgHdr#sockaddr})
     * @param addrLen its length in bytes (at most 128)
     * @return this SQE
     */
    public Sqe sendSetAddr(MemorySegment sockaddr, int addrLen) {
        dirty = true;
        wide = true;
        this.addr2 = sockaddr == null ? 0 : sockaddr.address();
        this.fileIndex = addrLen & 0xFFFF;
        return this;
    }

    /**
     * SENDMSG_ZC (liburing's io_uring_prep_sendmsg_zc): {@link #prepSendmsg} with
     * {@link #prepSendZc}'s two CQEs.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param msghdr a native segment of at least 56 bytes holding the msghdr
     * @param msgFlags sendmsg(2) flags
     * @return this SQE
     */
    public Sqe prepSendmsgZc(int fd, MemorySegment msghdr, int msgFlags) {
        rw(Opcode.SENDMSG_ZC, fd, msghdr, 1, 0);
        opFlags = msgFlags;
        return this;
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
        return this;
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
        return this;
    }

    // ---- chaining setters ----

    /**
     * Sets the user data the CQE carries back.
     *
     * @param userData any value
     * @return this SQE
     */
    public Sqe userData(long userData) {
        dirty = true;
        this.userData = userData;
        return this;
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
        return this;
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
        return this;
    }

    /**
     * The provided-buffer group to select from (with {@link SqeFlags#BUFFER_SELECT}).
     *
     * @param groupId the group of {@link #prepProvideBuffers}
     * @return this SQE
     */
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
     *
     * @param groupId the group of a {@link BufRing} or of {@link #prepProvideBuffers}
     * @return this SQE
     */
    public Sqe bufferSelect(int groupId) {
        dirty = true;
        wide = true;
        this.flags |= SqeFlags.BUFFER_SELECT;
        this.bufGroup = groupId;
        return this;
    }

    // ---- raw setters for every field ----

    /**
     * Raw setter of {@code opcode}.
     *
     * @param opcode an {@link Opcode} number
     * @return this SQE
     */
    public Sqe opcode(int opcode) {
        dirty = true;
        this.opcode = opcode;
        return this;
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
        return this;
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
        return this;
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
        return this;
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
        return this;
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
        return this;
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
        return this;
    }

    /**
     * Raw setter of {@code file_index} (a fixed-file slot + 1, or {@link #FILE_INDEX_ALLOC}).
     *
     * @param fileIndex the value
     * @return this SQE
     */
    public Sqe fileIndex(int fileIndex) {
        dirty = true;
        wide = true;
        this.fileIndex = fileIndex;
        return this;
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
        return this;
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
        return this;
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
        return this;
    }

    // ---- getters (the engine reads the slot through these) ----

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
}
