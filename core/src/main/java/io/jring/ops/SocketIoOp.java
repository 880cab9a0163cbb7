package io.jring.ops;

import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.SocketCalls;

/**
 * What every socket data op shares (SEND/RECV, SENDMSG/RECVMSG, SEND_ZC/SENDMSG_ZC, as
 * net.c's io_sendmsg/io_recvmsg families share their flags): the send/recv flags live in
 * ioprio, the work is unbound (a socket may wait forever), MSG_DONTWAIT means "never wait",
 * a direction decides the poll mask, and a multishot receive stays armed.
 */
abstract class SocketIoOp extends OpDef {
    /** Sends poll for POLLOUT, receives for POLLIN. */
    final boolean send;

    SocketIoOp(boolean send) {
        this.send = send;
    }

    @Override
    public final boolean ioprio() {
        return true;   // ioprio holds IORING_RECVSEND_* and IORING_RECV_MULTISHOT
    }

    @Override
    public final boolean boundedWork() {
        return false;
    }

    @Override
    public final boolean nowait(Request req) {
        return (req.opFlags & SocketCalls.MSG_DONTWAIT) != 0;
    }

    @Override
    public final int pollMask(Request req) {
        if ((req.opFlags & SocketCalls.MSG_DONTWAIT) != 0) {
            return 0;
        }
        return send ? NetOps.POLLOUT : NetOps.POLLIN;
    }

    /** A multishot receive stays armed after each arrival. */
    @Override
    public final boolean pollMultishot(Request req) {
        return !send && (req.ioprio & Sqe.RECV_MULTISHOT) != 0;
    }
}
