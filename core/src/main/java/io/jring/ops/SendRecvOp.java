package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.Buffers;
import io.jring.sys.SocketCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SysCallContext;

/**
 * SEND and RECV (the kernel's {@code io_send}/{@code io_recv}): the inline attempt uses
 * MSG_DONTWAIT; on EAGAIN the request arms poll (POLLOUT/POLLIN) and is retried on
 * readiness, unless the SQE asked for MSG_DONTWAIT itself (then -EAGAIN is the result). A
 * short transfer is the result, except with MSG_WAITALL, where the rest is waited for on
 * stream and seqpacket sockets as Linux does (a datagram socket gives one datagram); a
 * WAITALL transfer that ends short fails its link. What moved before a cancel is reported
 * (CompletionPoster). RECV may select a provided buffer ({@code BUFFER_SELECT}): the CQE
 * then carries {@code CqeFlags.BUFFER} and its id; and {@code CqeFlags.SOCK_NONEMPTY} when
 * the socket still holds data ({@link SockNonEmpty}). Multishot RECV and RECV bundles go to
 * {@link RecvBuffers}, SEND from provided buffers and bundles to {@link SendBuffers}. Sends
 * never raise SIGPIPE: a dead peer is -EPIPE.
 */
final class SendRecvOp extends SocketIoOp {

    SendRecvOp(boolean send) {
        super(send);
    }

    /** Both may take provided buffers (Linux 6.18: SEND too, which bundles need). */
    @Override
    public boolean bufferSelect() {
        return true;
    }

    /** IORING_RECVSEND_POLL_FIRST, IORING_RECV_MULTISHOT, IORING_RECVSEND_BUNDLE, in ioprio. */
    static final int POLL_FIRST = 1;
    static final int RECV_MULTISHOT = 1 << 1;
    static final int BUNDLE = 1 << 4;

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.off != 0 || req.len < 0 || badIoprio(req)) {
            return -Errno.EINVAL;
        }
        if (!send) {
            // io_recvmsg_prep: a multishot recv needs a buffer group and no MSG_WAITALL; file_index
            // is sqe->optlen there, a multishot's byte limit, which any other recv must leave 0.
            boolean multishot = (req.ioprio & RECV_MULTISHOT) != 0;
            if (multishot && ((req.flags & SqeFlags.BUFFER_SELECT) == 0
                    || (req.opFlags & SocketCalls.MSG_WAITALL) != 0)) {
                return -Errno.EINVAL;
            }
            if (!multishot && req.fileIndex != 0) {
                return -Errno.EINVAL;
            }
        }
        if ((req.ioprio & BUNDLE) != 0) {
            io.jring.core.ProvidedBuffers.bundleOf(req).reset();
        }
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0) {
            req.addr = null;   // not read: Linux ignores addr when it selects a buffer
        } else if (req.addr != null) {
            // (NULL is address 0, as Linux imports it: the transfer faults when issued, -EFAULT)
            int bad = Buffers.check(req.addr, req.len);
            if (bad != 0) {
                return bad;
            }
        }
        Files.resolveFd(req);
        return 0;
    }

    /**
     * The flags Linux 6.18 accepts: POLL_FIRST and BUNDLE for both, RECV_MULTISHOT for RECV;
     * a RECV BUNDLE without a provided buffer runs as a plain recv. SEND's vectored form
     * (IORING_SEND_VECTORIZED) is not implemented and refused with -EINVAL, as unknown bits are.
     */
    private boolean badIoprio(Request req) {
        int valid = send ? POLL_FIRST | BUNDLE : POLL_FIRST | BUNDLE | RECV_MULTISHOT;
        return (req.ioprio & ~valid) != 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return issue(req, nonBlocking, 0);
    }

    /** An armed request's file is ready: a multishot RECV learns what was reported. */
    @Override
    public int pollReady(Request req, int revents) {
        return issue(req, true, revents);
    }

    private int issue(Request req, boolean nonBlocking, int revents) {
        if ((req.ioprio & POLL_FIRST) != 0) {
            // Wait for readiness before the first attempt. With MSG_DONTWAIT Linux makes no
            // attempt at all: -EAGAIN (the bit stays, so io-wq answers that too).
            if ((req.opFlags & SocketCalls.MSG_DONTWAIT) == 0) {
                req.ioprio &= ~POLL_FIRST;
            }
            return -Errno.EAGAIN;
        }
        if (send ? (req.flags & SqeFlags.BUFFER_SELECT) != 0 || (req.ioprio & BUNDLE) != 0
                : (req.flags & SqeFlags.BUFFER_SELECT) != 0 && (req.ioprio & (RECV_MULTISHOT | BUNDLE)) != 0) {
            return send ? SendBuffers.issue(req, nonBlocking) : RecvBuffers.issue(req, nonBlocking, revents);
        }
        long address;
        long length;
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0) {
            if (req.selectedBid < 0) {
                // Linux looks the file up and checks for a socket before it selects.
                if (req.fd < 0) {
                    return -Errno.EBADF;
                }
                if (!nonBlocking || req.inWorker()) {
                    // none was left when it went to io-wq (and a worker may not select)
                    return Files.noBuffer(req, SysCallContext.current(), true);
                }
                int r = req.ring.buffers().select(req, req.bufGroup, req.len);
                if (r != 0) {
                    return r == -Errno.ENOBUFS ? Files.noBuffer(req, req.sys(true), true) : r;
                }
            }
            address = req.selectedAddress;
            length = req.selectedLength;
        } else {
            if (req.addr != null && !req.addr.scope().isAlive()) {
                return req.resultAfter(-Errno.EFAULT);
            }
            address = req.addr == null ? 0 : req.addr.address();
            length = req.len;
        }
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        long done = req.done;
        long asked = length - done;
        long r = send
                ? SocketCalls.sendAt(sc, req.fd, address + done, asked, req.opFlags, nonBlocking)
                : SocketCalls.recvAt(sc, req.fd, address + done, asked, req.opFlags, nonBlocking);
        if (r == -Errno.EAGAIN) {
            return -Errno.EAGAIN;   // wait, or (NOWAIT) end: what moved so far is the result then
        }
        boolean waitAll = (req.opFlags & SocketCalls.MSG_WAITALL) != 0;
        if (waitAll && r > 0 && r < asked && SocketKinds.retriesWaitall(SocketKinds.of(sc, req.fd))) {
            req.markSideState(Request.SIDE_IO);
            req.done = done + r;
            return -Errno.EAGAIN;   // the rest, on readiness
        }
        int res = req.resultAfter(r);
        if (waitAll && res < length) {
            // Short of MSG_WAITALL's length (EOF, an error, one datagram): the request failed,
            // so its link breaks, as Linux's req_set_fail when ret < min_ret.
            req.markSideState(Request.SIDE_IO);
            req.failed = true;
        }
        if (!send) {
            req.cflags |= SockNonEmpty.after(sc, req.fd, r, asked, req.opFlags);
        }
        return res;
    }
}
