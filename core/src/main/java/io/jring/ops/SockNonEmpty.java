package io.jring.ops;

import io.jring.CqeFlags;
import io.jring.sys.PollCalls;
import io.jring.sys.SocketCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SysCallContext;

/**
 * {@code IORING_CQE_F_SOCK_NONEMPTY} on a RECV's CQE. Linux 6.18 sets it when the socket's
 * msg_inq is positive after the request's last recvmsg (io_recv_finish), and only stream
 * sockets fill msg_inq in: AF_UNIX with the bytes still queued (peeked ones included), TCP
 * with tcp_inq_hint, the bytes not yet read or 1 once the peer's FIN has arrived (so a reader
 * comes back for the EOF, which has the flag too). Datagram, seqpacket and MPTCP sockets never
 * set it, nor does a failed recv. Checked on 6.18 for each case (unix and TCP: partial, full,
 * peek, zero-length, data then FIN, EOF, after a reset, after a local SHUT_RD).
 *
 * <p>Most answers need no syscall: a short read emptied the queue, a peek left its bytes; a
 * recv that filled its buffer asks (FIONREAD for AF_UNIX, one poll for TCP), a TCP EOF reads
 * the connection's state. One deviation, to keep a syscall off every short TCP read (the
 * common case of request/response traffic): a short TCP read that took the last bytes before
 * a FIN that had already arrived has no flag, where Linux's has (the FIN counts as 1); the
 * application's next recv is the EOF, at once, and has it.
 */
final class SockNonEmpty {
    private SockNonEmpty() {}

    /**
     * The flag for a recv of {@code asked} bytes on {@code fd} (msg flags {@code msgFlags})
     * whose last call returned {@code r}: {@code CqeFlags.SOCK_NONEMPTY} or 0.
     */
    static int after(SysCallContext sc, int fd, long r, long asked, int msgFlags) {
        if (r < 0) {
            return 0;
        }
        int kind = SocketKinds.of(sc, fd);
        if (kind != SocketKinds.UNIX_STREAM && kind != SocketKinds.TCP) {
            return 0;
        }
        if (r > 0 && (msgFlags & SocketCalls.MSG_PEEK) != 0) {
            return CqeFlags.SOCK_NONEMPTY;   // what it saw is still queued
        }
        boolean left = kind == SocketKinds.UNIX_STREAM ? unixLeft(sc, fd, r, asked) : tcpLeft(sc, fd, r, asked);
        return left ? CqeFlags.SOCK_NONEMPTY : 0;
    }

    private static boolean unixLeft(SysCallContext sc, int fd, long r, long asked) {
        if (r < asked) {
            return false;   // a short read (or EOF) took everything queued
        }
        return SocketKinds.bytesQueued(sc, fd) > 0;
    }

    private static boolean tcpLeft(SysCallContext sc, int fd, long r, long asked) {
        if (r == 0 && asked > 0) {
            return SocketKinds.tcpFinReceived(sc, fd);   // EOF: 1 after a FIN, 0 after a reset
        }
        if (r < asked) {
            return false;   // a short read took all the data (a FIN already in: see above)
        }
        int ready = SocketKinds.readyNow(sc, fd, PollCalls.EPOLLIN | PollCalls.EPOLLRDHUP);
        if (ready <= 0) {
            return false;   // no data, no FIN
        }
        if ((ready & PollCalls.EPOLLRDHUP) == 0) {
            return true;    // readable and not shut down: data
        }
        // Shut down for reading: by the peer's FIN (the hint is 1), or locally (data only).
        return SocketKinds.bytesQueued(sc, fd) > 0 || SocketKinds.tcpFinReceived(sc, fd);
    }
}
