package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.Buffers;
import io.jring.sys.SocketCalls;

/**
 * SEND and RECV (the kernel's {@code io_send}/{@code io_recv}): the inline attempt uses
 * MSG_DONTWAIT; on EAGAIN the request arms poll (POLLOUT/POLLIN) and is retried on
 * readiness. A short transfer is the result, except with MSG_WAITALL, where the rest is
 * waited for as Linux does on stream sockets. RECV may select a provided buffer
 * ({@code BUFFER_SELECT}): the CQE then carries {@code CqeFlags.BUFFER} and its id. Sends
 * never raise SIGPIPE: a dead peer is -EPIPE.
 */
final class SendRecvOp extends OpDef {
    private final boolean send;

    SendRecvOp(boolean send) {
        this.send = send;
    }

    @Override
    public boolean bufferSelect() {
        return !send;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.off != 0 || req.len < 0) {
            return -Errno.EINVAL;
        }
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0) {
            if (req.addr != null) {
                return -Errno.EINVAL;
            }
        } else {
            int bad = Buffers.check(req.addr, req.len);
            if (bad != 0) {
                return bad;
            }
        }
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        long address;
        long length;
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0) {
            if (req.selectedBid < 0) {
                if (!nonBlocking) {
                    return -Errno.ENOBUFS;   // none was left when it went to io-wq
                }
                int r = req.ring.selectBuffer(req);
                if (r != 0) {
                    return r;
                }
            }
            address = req.selectedAddress;
            length = req.selectedLength;
        } else {
            if (req.addr != null && !req.addr.scope().isAlive()) {
                return finish(req, -Errno.EFAULT);
            }
            address = req.addr == null ? 0 : req.addr.address();
            length = req.len;
        }
        long done = req.done;
        long r = send
                ? SocketCalls.sendAt(NetOps.sys(req, nonBlocking), req.fd, address + done, length - done, req.opFlags, nonBlocking)
                : SocketCalls.recvAt(NetOps.sys(req, nonBlocking), req.fd, address + done, length - done, req.opFlags, nonBlocking);
        if (r == -Errno.EAGAIN) {
            return done > 0 && (req.opFlags & SocketCalls.MSG_DONTWAIT) != 0 ? (int) done : -Errno.EAGAIN;
        }
        if (r > 0 && (req.opFlags & SocketCalls.MSG_WAITALL) != 0 && done + r < length) {
            req.markSideState(Request.SIDE_IO);
            req.done = done + r;
            return -Errno.EAGAIN;   // the rest, on readiness
        }
        return finish(req, r);
    }

    private static int finish(Request req, long r) {
        if (r < 0) {
            return req.done > 0 ? (int) req.done : (int) r;
        }
        return (int) (req.done + r);
    }

    @Override
    public int pollMask(Request req) {
        if ((req.opFlags & SocketCalls.MSG_DONTWAIT) != 0) {
            return 0;
        }
        return send ? NetOps.POLLOUT : NetOps.POLLIN;
    }

    @Override
    public boolean boundedWork() {
        return false;
    }
}
