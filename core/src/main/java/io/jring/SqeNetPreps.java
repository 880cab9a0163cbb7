package io.jring;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

/**
 * {@link Sqe}'s prep methods for sockets: SOCKET, BIND, LISTEN, ACCEPT, CONNECT, SEND/RECV
 * (multishot and bundles), SENDMSG/RECVMSG, SEND_ZC/SENDMSG_ZC, SHUTDOWN, and the direct
 * descriptor forms.
 */
abstract sealed class SqeNetPreps extends SqeControlPreps permits Sqe {
    SqeNetPreps() {}

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
        return self();
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
        return self();
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
        ioprio = Sqe.ACCEPT_MULTISHOT;
        return self();
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
        return self();
    }

    /**
     * RECV: receives up to {@code buf.byteSize()} bytes; the result is the count, 0 when the peer
     * has closed. With {@link SqeFlags#BUFFER_SELECT} pass a null {@code buf} (see {@link Sqe#bufferGroup}).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a native segment that stays alive until the CQE, or null with BUFFER_SELECT
     * @param msgFlags recv(2) flags (e.g. MSG_WAITALL 0x100, MSG_DONTWAIT 0x40)
     * @return this SQE
     */
    public Sqe prepRecv(int fd, MemorySegment buf, int msgFlags) {
        rw(Opcode.RECV, fd, buf, lengthOf(buf), 0);
        opFlags = msgFlags;
        return self();
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
        return self();
    }

    /**
     * A multishot RECV (liburing's io_uring_prep_recv_multishot): {@link Sqe#prepRecv} with
     * {@link Sqe#RECV_MULTISHOT}; usually {@code buf} null and {@link Sqe#bufferSelect} after it
     * ({@code len}, if set, caps each CQE's bytes).
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf null with {@link Sqe#bufferSelect}, or a native segment that stays alive until the last CQE
     * @param msgFlags recv(2) flags
     * @return this SQE
     */
    public Sqe prepRecvMultishot(int fd, MemorySegment buf, int msgFlags) {
        prepRecv(fd, buf, msgFlags);
        ioprio = Sqe.RECV_MULTISHOT;
        return self();
    }

    /**
     * A SEND of a bundle of provided buffers (liburing's io_uring_prep_send_bundle): up to
     * {@code len} bytes (0: all the group holds) from its buffers in a row; needs
     * {@link Sqe#bufferSelect}.
     *
     * @param fd the descriptor, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param len the most bytes to send, or 0 for all the group's buffers
     * @param msgFlags send(2) flags
     * @return this SQE
     */
    public Sqe prepSendBundle(int fd, int len, int msgFlags) {
        prepSend(fd, null, msgFlags);
        this.len = len;
        ioprio = Sqe.RECVSEND_BUNDLE;
        return self();
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
     * {@link Sqe#prepBind(int, MemorySegment, int)} with an IPv4 or IPv6 address, encoded when submitted.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param address a resolved IPv4 or IPv6 address
     * @return this SQE
     */
    public Sqe prepBind(int fd, InetSocketAddress address) {
        rw(Opcode.BIND, fd, null, 0, 0);
        arg = address;
        return self();
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
     * {@link Sqe#prepConnect(int, InetSocketAddress)}.
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
     * {@link Sqe#FILE_INDEX_ALLOC} picks a free slot as {@link Sqe#prepSocketDirectAlloc} does.
     * SOCK_CLOEXEC in {@code type} is -EINVAL: a slot has no descriptor to close on exec.
     *
     * @param domain {@link Fds#AF_INET} or {@link Fds#AF_INET6} (and the other Linux families)
     * @param type {@link Fds#SOCK_STREAM} or {@link Fds#SOCK_DGRAM}, with SOCK_NONBLOCK (not SOCK_CLOEXEC)
     * @param protocol 0 for the type's default
     * @param fileIndex the 0-based fixed-file slot, or {@link Sqe#FILE_INDEX_ALLOC}
     * @return this SQE
     */
    public Sqe prepSocketDirect(int domain, int type, int protocol, int fileIndex) {
        prepSocket(domain, type, protocol);
        this.fileIndex = targetSlot(fileIndex);
        return self();
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
        this.fileIndex = Sqe.FILE_INDEX_ALLOC;
        return self();
    }

    /**
     * ACCEPT into fixed-file slot {@code fileIndex} (0-based, or {@link Sqe#FILE_INDEX_ALLOC};
     * liburing's io_uring_prep_accept_direct without the peer address): res 0 (the slot
     * with ALLOC), or the install's -ENXIO / -EINVAL / -ENFILE, the connection then closed.
     *
     * @param listenFd a listening socket, or with {@link SqeFlags#FIXED_FILE} its slot
     * @param flags accept4(2) flags ({@link Fds#SOCK_NONBLOCK}, {@link Fds#SOCK_CLOEXEC})
     * @param fileIndex the 0-based fixed-file slot for the connection, or {@link Sqe#FILE_INDEX_ALLOC}
     * @return this SQE
     */
    public Sqe prepAcceptDirect(int listenFd, int flags, int fileIndex) {
        prepAccept(listenFd, flags);
        this.fileIndex = targetSlot(fileIndex);
        return self();
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
        this.fileIndex = Sqe.FILE_INDEX_ALLOC;
        return self();
    }

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
        return self();
    }

    /**
     * RECVMSG (liburing's io_uring_prep_recvmsg): recvmsg(2) into the msghdr's iovecs; the
     * sender's address goes to {@code msg_name}, ancillary data to {@code msg_control}, and
     * {@code msg_namelen}, {@code msg_controllen} and {@code msg_flags} (MSG_TRUNC, MSG_CTRUNC)
     * are written back into {@code msghdr} when it completes, as recvmsg(2) does. With
     * {@link Sqe#bufferSelect} the data goes into a provided buffer instead (the msghdr then has
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
        return self();
    }

    /**
     * A multishot RECVMSG (liburing's io_uring_prep_recvmsg_multishot): a CQE with
     * {@link CqeFlags#MORE} per message, each in a provided buffer (call {@link Sqe#bufferSelect})
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
        ioprio = Sqe.RECV_MULTISHOT;
        return self();
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
     * @param zcFlags 0, {@link Sqe#RECVSEND_POLL_FIRST}, {@link Sqe#SEND_ZC_REPORT_USAGE}
     * @return this SQE
     */
    public Sqe prepSendZc(int fd, MemorySegment buf, int msgFlags, int zcFlags) {
        rw(Opcode.SEND_ZC, fd, buf, lengthOf(buf), 0);
        opFlags = msgFlags;
        ioprio = zcFlags;
        return self();
    }

    /**
     * SEND_ZC from registered buffer {@code bufIndex} (liburing's io_uring_prep_send_zc_fixed):
     * {@link Sqe#prepSendZc} with {@link Sqe#RECVSEND_FIXED_BUF}; {@code buf} must lie inside that buffer.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param buf a part of registered buffer {@code bufIndex}
     * @param msgFlags send(2) flags
     * @param zcFlags as {@link Sqe#prepSendZc}
     * @param bufIndex the registered buffer's index
     * @return this SQE
     */
    public Sqe prepSendZcFixed(int fd, MemorySegment buf, int msgFlags, int zcFlags, int bufIndex) {
        prepSendZc(fd, buf, msgFlags, zcFlags | Sqe.RECVSEND_FIXED_BUF);
        this.bufIndex = bufIndex;
        return self();
    }

    /**
     * SEND_ZC's destination (liburing's io_uring_prep_send_set_addr): a datagram's address, as
     * sendto(2), in {@code addr2} and {@code addr_len} (the low 16 bits of {@link Sqe#fileIndex}).
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
        return self();
    }

    /**
     * SENDMSG_ZC (liburing's io_uring_prep_sendmsg_zc): {@link Sqe#prepSendmsg} with
     * {@link Sqe#prepSendZc}'s two CQEs.
     *
     * @param fd the socket, or with {@link SqeFlags#FIXED_FILE} a fixed-file slot
     * @param msghdr a native segment of at least 56 bytes holding the msghdr
     * @param msgFlags sendmsg(2) flags
     * @return this SQE
     */
    public Sqe prepSendmsgZc(int fd, MemorySegment msghdr, int msgFlags) {
        rw(Opcode.SENDMSG_ZC, fd, msghdr, 1, 0);
        opFlags = msgFlags;
        return self();
    }
}
