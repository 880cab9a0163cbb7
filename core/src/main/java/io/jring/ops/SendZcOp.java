package io.jring.ops;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.Buffers;
import io.jring.sys.MsgCalls;
import io.jring.sys.SocketCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SockAddrs;
import io.jring.sys.SysCallContext;
import io.jring.sys.UserMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * SEND_ZC and SENDMSG_ZC (Linux 6.18's io_send_zc and io_sendmsg_zc) with their two-CQE
 * protocol: the result CQE has {@code MORE}, and a notification CQE ({@code NOTIF}, result 0,
 * or {@link CqeFlags#NOTIF_USAGE_ZC_COPIED} with {@link Sqe#SEND_ZC_REPORT_USAGE}) follows once
 * the buffers are free, also when the send failed after prep made the notification (the
 * poster's job: {@code Request.expectNotif}). jring emulates zero copy by copying (a plain
 * send), so the notification comes right after the result and always reports a copy, as
 * Linux's does over loopback. Only TCP and UDP sockets take it (Linux's SOCK_SUPPORT_ZC),
 * else -EOPNOTSUPP. {@link Sqe#RECVSEND_FIXED_BUF} sends from a registered buffer (-EFAULT
 * outside it); POLL_FIRST and MSG_WAITALL as SEND. Prep refuses addr3 and CQE_SKIP_SUCCESS
 * before the notification exists (one CQE), and unknown flags after (two CQEs). SEND_ZC
 * takes a destination address as Linux does (addr2, addr_len; {@code Sqe.sendSetAddr}).
 */
final class SendZcOp extends SocketIoOp {
    private static final int VALID = Sqe.RECVSEND_POLL_FIRST | Sqe.RECVSEND_FIXED_BUF | Sqe.SEND_ZC_REPORT_USAGE;
    private static final int SO_DOMAIN = 39;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;

    private final boolean msg;

    SendZcOp(boolean msg) {
        super(true);
        this.msg = msg;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.addr3 != 0 || (req.flags & SqeFlags.CQE_SKIP_SUCCESS) != 0) {
            return -Errno.EINVAL;
        }
        boolean report = (req.ioprio & Sqe.SEND_ZC_REPORT_USAGE) != 0;
        req.expectNotif(report ? CqeFlags.NOTIF_USAGE_ZC_COPIED : 0);
        if ((req.ioprio & ~VALID) != 0) {
            return -Errno.EINVAL;
        }
        if (msg) {
            if (req.addr2 != 0 || req.fileIndex != 0 || (req.ioprio & Sqe.RECVSEND_FIXED_BUF) != 0) {
                return -Errno.EINVAL;
            }
            int bad = MsgHeaders.prep(req, false);
            if (bad != 0) {
                return bad;
            }
        } else {
            if (req.len < 0) {
                return -Errno.EINVAL;
            }
            int bad = destination(req);
            if (bad != 0) {
                return bad;
            }
            if ((req.ioprio & Sqe.RECVSEND_FIXED_BUF) == 0 && req.addr != null) {
                bad = Buffers.check(req.addr, req.len);
                if (bad != 0) {
                    return bad;
                }
            }
        }
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        int zc = supportsZeroCopy(sc, req.fd);
        if (zc != 0) {
            return zc;
        }
        if ((req.ioprio & Sqe.RECVSEND_POLL_FIRST) != 0) {
            if ((req.opFlags & SocketCalls.MSG_DONTWAIT) == 0) {
                req.ioprio &= ~Sqe.RECVSEND_POLL_FIRST;
            }
            return -Errno.EAGAIN;
        }
        long done = req.done;
        long r;
        long total;
        if (msg) {
            long hdr = MsgHeaders.forCall(req, sc, done, true);
            if (hdr < 0) {
                return done > 0 ? (int) done : (int) hdr;
            }
            r = MsgCalls.send(sc, req.fd, hdr, req.opFlags, nonBlocking);
            total = (req.opFlags & SocketCalls.MSG_WAITALL) != 0 && r >= 0 ? MsgHeaders.iovTotal(req, sc) : 0;
        } else {
            if (req.addr != null && !req.addr.scope().isAlive()) {
                return done > 0 ? (int) done : -Errno.EFAULT;
            }
            if ((req.ioprio & Sqe.RECVSEND_FIXED_BUF) != 0 && done == 0) {
                int bad = req.ring.resources().checkFixedBuffer(req.bufIndex, req.addr, req.len);
                if (bad != 0) {
                    return bad;
                }
            }
            long address = req.addr == null ? 0 : req.addr.address();
            total = req.len;
            r = req.addr2 == 0 ? SocketCalls.sendAt(sc, req.fd, address + done, total - done, req.opFlags, nonBlocking)
                    : sendTo(req, sc, address + done, total - done, nonBlocking);
        }
        if (r == -Errno.EAGAIN) {
            return -Errno.EAGAIN;
        }
        boolean waitAll = (req.opFlags & SocketCalls.MSG_WAITALL) != 0;
        if (waitAll && r > 0 && r < total - done && SocketKinds.retriesWaitall(SocketKinds.of(sc, req.fd))) {
            req.markSideState(Request.SIDE_IO);
            req.done = done + r;
            return -Errno.EAGAIN;
        }
        int res = r < 0 ? (done > 0 ? (int) done : (int) r) : (int) (done + r);
        if (waitAll && res < total) {
            req.markSideState(Request.SIDE_IO);
            req.failed = true;
        }
        return res;
    }

    /**
     * SEND_ZC's destination (Linux's io_send_setup): {@code addr2} a sockaddr of {@code addr_len}
     * bytes, the low 16 bits of the file index field (the high 16 must be 0), copied now into
     * the request's block (move_addr_to_kernel: more than 128 bytes -EINVAL, unreadable -EFAULT).
     */
    private static int destination(Request req) {
        if ((req.fileIndex >>> 16) != 0) {
            return -Errno.EINVAL;
        }
        if (req.addr2 == 0) {
            return 0;
        }
        int len = req.fileIndex & 0xFFFF;
        if (len > SockAddrs.STORAGE_SIZE) {
            return -Errno.EINVAL;
        }
        MemorySegment block = req.ring.resources().msgBlock(req);
        block.set(ValueLayout.JAVA_INT, MsgHeaders.ROOM_NAME, len);
        return UserMemory.copy(req.sys(true), req.addr2, block.asSlice(MsgHeaders.NAME, Math.max(len, 1)), len);
    }

    /** sendmsg of one buffer to the destination copied at prep. */
    private static long sendTo(Request req, SysCallContext sc, long address, long len, boolean nonBlocking) {
        MemorySegment h = sc.path();
        h.asSlice(0, MsgCalls.MSGHDR_SIZE).fill((byte) 0);
        int nameLen = req.msgBlock.get(ValueLayout.JAVA_INT, MsgHeaders.ROOM_NAME);
        if (nameLen > 0) {
            h.set(ValueLayout.JAVA_LONG, MsgCalls.NAME, req.msgBlock.address() + MsgHeaders.NAME);
            h.set(ValueLayout.JAVA_INT, MsgCalls.NAMELEN, nameLen);
        }
        MsgHeaders.singleBuffer(req, sc, address, len);
        return MsgCalls.send(sc, req.fd, h.address(), req.opFlags, nonBlocking);
    }

    /** 0 for a TCP or UDP socket; -EOPNOTSUPP for other sockets, -ENOTSOCK or -EBADF otherwise. */
    private static int supportsZeroCopy(SysCallContext sc, int fd) {
        if (fd < 0) {
            return -Errno.EBADF;
        }
        int domain = SocketCalls.getIntOption(sc, fd, SocketCalls.SOL_SOCKET, SO_DOMAIN);
        if (domain < 0) {
            return domain;
        }
        if (domain != AF_INET && domain != AF_INET6) {
            return -Errno.EOPNOTSUPP;
        }
        int kind = SocketKinds.of(sc, fd);
        return kind == SocketKinds.TCP || kind == SocketKinds.DATAGRAM ? 0 : -Errno.EOPNOTSUPP;
    }
}
