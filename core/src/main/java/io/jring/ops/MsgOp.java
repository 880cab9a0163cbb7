package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.MsgCalls;
import io.jring.sys.SocketCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SysCallContext;

/**
 * SENDMSG and RECVMSG (Linux 6.18's io_sendmsg and io_recvmsg): sendmsg(2)/recvmsg(2) of the
 * msghdr copied at prep ({@link MsgHeaders}), with MSG_DONTWAIT inline and a poll wait on
 * EAGAIN as SEND and RECV. Prep refuses addr2 and file_index, flags other than POLL_FIRST (and
 * RECV_MULTISHOT for RECVMSG, which needs BUFFER_SELECT and no MSG_WAITALL; a BUNDLE is
 * -EINVAL on both). MSG_WAITALL waits for the rest of a stream's data (a RECVMSG with control
 * room does not: Linux disables it there) and a short end fails the link, as does a WAITALL
 * RECVMSG that got MSG_TRUNC or MSG_CTRUNC. RECVMSG with BUFFER_SELECT receives into a
 * provided buffer (the CQE's buffer id); multishot RECVMSG is {@link RecvMsgMultishot}.
 */
final class MsgOp extends SocketIoOp {

    MsgOp(boolean send) {
        super(send);
    }

    @Override
    public boolean bufferSelect() {
        return !send;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.addr2 != 0 || req.fileIndex != 0) {
            return -Errno.EINVAL;
        }
        int valid = send ? Sqe.RECVSEND_POLL_FIRST : Sqe.RECVSEND_POLL_FIRST | Sqe.RECV_MULTISHOT;
        if ((req.ioprio & ~valid) != 0) {
            return -Errno.EINVAL;
        }
        boolean multishot = (req.ioprio & Sqe.RECV_MULTISHOT) != 0;
        if (multishot && ((req.flags & SqeFlags.BUFFER_SELECT) == 0
                || (req.opFlags & SocketCalls.MSG_WAITALL) != 0)) {
            return -Errno.EINVAL;
        }
        int bad = MsgHeaders.prep(req, multishot);
        if (bad != 0) {
            return bad;
        }
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return issue(req, nonBlocking, 0);
    }

    @Override
    public int pollReady(Request req, int revents) {
        return issue(req, true, revents);
    }

    private int issue(Request req, boolean nonBlocking, int revents) {
        if ((req.ioprio & Sqe.RECVSEND_POLL_FIRST) != 0) {
            if ((req.opFlags & SocketCalls.MSG_DONTWAIT) == 0) {
                req.ioprio &= ~Sqe.RECVSEND_POLL_FIRST;
            }
            return -Errno.EAGAIN;
        }
        if ((req.ioprio & Sqe.RECV_MULTISHOT) != 0) {
            return RecvMsgMultishot.issue(req, nonBlocking, revents);
        }
        if (!send && io.jring.sys.Buffers.check(req.addr, MsgCalls.MSGHDR_SIZE) != 0) {
            return req.resultAfter(-Errno.EFAULT);   // the header a receive writes back is gone
        }
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        boolean select = (req.flags & SqeFlags.BUFFER_SELECT) != 0;
        if (select && req.selectedBid < 0) {
            int s = selectBuffer(req, sc, nonBlocking);
            if (s != 0) {
                return s;
            }
        }
        long done = req.done;
        long hdr = MsgHeaders.forCall(req, sc, select ? 0 : done, send);
        if (hdr < 0) {
            return req.resultAfter(hdr);
        }
        if (select) {
            MsgHeaders.singleBuffer(req, sc, req.selectedAddress + done, req.selectedLength - done);
        }
        long r = send ? MsgCalls.send(sc, req.fd, hdr, req.opFlags, nonBlocking)
                : MsgCalls.recv(sc, req.fd, hdr, req.opFlags, nonBlocking);
        if (r == -Errno.EAGAIN) {
            if (select && done == 0) {
                req.ring.buffers().recycle(req);
            }
            return -Errno.EAGAIN;
        }
        int msgFlags = 0;
        if (!send && r >= 0) {
            MsgHeaders.writeBack(req, sc);
            msgFlags = sc.path().get(java.lang.foreign.ValueLayout.JAVA_INT, MsgCalls.FLAGS);
        }
        boolean waitAll = (req.opFlags & SocketCalls.MSG_WAITALL) != 0
                && (send || req.msgBlock.get(java.lang.foreign.ValueLayout.JAVA_LONG, MsgCalls.CONTROLLEN) == 0);
        int kind = SocketKinds.of(sc, req.fd);
        boolean stream = kind == SocketKinds.UNIX_STREAM || kind == SocketKinds.TCP;
        long total = waitAll || (!send && stream && r > 0) ? (select ? req.selectedLength : MsgHeaders.iovTotal(req, sc)) : 0;
        long asked = total - done;
        if (waitAll && r > 0 && r < asked && SocketKinds.retriesWaitall(kind)) {
            req.markSideState(Request.SIDE_IO);
            req.done = done + r;
            return -Errno.EAGAIN;   // the rest, on readiness
        }
        int res = req.resultAfter(r);
        if ((waitAll && res < total)
                || (!send && (req.opFlags & SocketCalls.MSG_WAITALL) != 0
                    && (msgFlags & (MsgCalls.MSG_TRUNC | MsgCalls.MSG_CTRUNC)) != 0)) {
            req.markSideState(Request.SIDE_IO);
            req.failed = true;
        }
        if (select && res <= 0) {
            req.ring.buffers().recycle(req);   // nothing received: the buffer goes back (io_kbuf_recycle)
        }
        if (!send) {
            req.cflags |= SockNonEmpty.after(sc, req.fd, r, asked, req.opFlags);
        }
        return res;
    }

    /** A provided buffer for a RECVMSG: 0, or the result (the file checks Linux makes first, then -ENOBUFS). */
    private static int selectBuffer(Request req, SysCallContext sc, boolean nonBlocking) {
        if (req.fd < 0) {
            return -Errno.EBADF;
        }
        if (!nonBlocking || req.inWorker()) {
            return Files.noBuffer(req, SysCallContext.current(), true);
        }
        int r = req.ring.buffers().select(req, req.bufGroup, req.len);
        return r == 0 ? 0 : r == -Errno.ENOBUFS ? Files.noBuffer(req, sc, true) : r;
    }
}
