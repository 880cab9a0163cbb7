package io.jring.ops;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.core.ProvidedBuffers;
import io.jring.core.Request;
import io.jring.sys.MsgCalls;
import io.jring.sys.PollCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SockAddrs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Multishot RECVMSG (Linux 6.18's io_recvmsg with io_recvmsg_multishot): each round selects a
 * provided buffer and lays the message out in it as {@code struct io_uring_recvmsg_out}
 * (namelen: the sender's full address length; controllen: the control bytes received;
 * payloadlen: the message's length; flags: its msg_flags), then the name truncated to the
 * msghdr's {@code msg_namelen}, the control room of its {@code msg_controllen}, and the payload.
 * The CQE's result is the header, both rooms and the payload bytes stored. A buffer smaller
 * than header and rooms ends it with -EFAULT (the buffer goes back). It posts with MORE and
 * goes on while the socket holds data (a datagram socket: until EAGAIN), else waits armed; it
 * ends, without MORE, on an error, when the group is empty (-ENOBUFS), and when recvmsg
 * returns 0 (EOF, or an empty datagram): that last CQE has the header and a buffer. The first
 * round's buffer is capped by the msghdr's one iovec, if it has one (Linux's sr->len), later
 * rounds take whole buffers. As {@link RecvBuffers}, it loops on instead of requeueing after
 * 32 rounds, and a full CQ overflows instead of ending it.
 */
final class RecvMsgMultishot {
    private RecvMsgMultishot() {}

    private static final int HANGUP = PollCalls.EPOLLRDHUP | PollCalls.EPOLLHUP | PollCalls.EPOLLERR;

    static int issue(Request req, boolean nonBlocking, int revents) {
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        ProvidedBuffers buffers = req.ring.buffers();
        MemorySegment block = req.msgBlock;
        int nameRoom = block.get(JAVA_INT, MsgHeaders.ROOM_NAME);
        long controlRoom = block.get(JAVA_LONG, MsgHeaders.ROOM_CONTROL);
        long header = 16 + nameRoom + controlRoom;
        for (;;) {
            if (req.selectedBid < 0) {
                int s = select(req, buffers, sc, nonBlocking);
                if (s != 0) {
                    return s;
                }
            }
            long buf = req.selectedAddress;
            long room = req.selectedLength;
            if (room < header) {
                buffers.recycle(req);
                return -Errno.EFAULT;
            }
            MemorySegment h = sc.path();
            h.asSlice(0, MsgCalls.MSGHDR_SIZE).fill((byte) 0);
            if (nameRoom > 0) {
                h.set(JAVA_LONG, MsgCalls.NAME, block.address() + MsgHeaders.NAME);
                h.set(JAVA_INT, MsgCalls.NAMELEN, SockAddrs.STORAGE_SIZE);
            }
            if (controlRoom > 0) {
                h.set(JAVA_LONG, MsgCalls.CONTROL, buf + 16 + nameRoom);
                h.set(JAVA_LONG, MsgCalls.CONTROLLEN, controlRoom);
            }
            MsgHeaders.singleBuffer(req, sc, buf + header, room - header);
            long r = MsgCalls.recv(sc, req.fd, h.address(), req.opFlags, nonBlocking);
            if (r == -Errno.EAGAIN) {
                buffers.recycle(req);
                return -Errno.EAGAIN;   // wait armed
            }
            if (r < 0) {
                buffers.recycle(req);
                return (int) r;
            }
            MemorySegment out = MemorySegment.ofAddress(buf).reinterpret(room);
            int namelen = nameRoom > 0 ? h.get(JAVA_INT, MsgCalls.NAMELEN) : 0;
            out.set(JAVA_INT, 0, namelen);
            out.set(JAVA_INT, 4, (int) h.get(JAVA_LONG, MsgCalls.CONTROLLEN));
            out.set(JAVA_INT, 8, (int) r);
            out.set(JAVA_INT, 12, h.get(JAVA_INT, MsgCalls.FLAGS));
            MemorySegment.copy(block, MsgHeaders.NAME, out, 16, Math.min(Math.max(namelen, 0), nameRoom));
            int res = (int) (header + Math.min(r, room - header));
            int cflags = SockNonEmpty.after(sc, req.fd, r, room - header, req.opFlags);
            cflags |= buffers.complete(req, res);
            if (r == 0) {
                req.cflags = cflags;
                return res;   // EOF or an empty datagram ends it (Linux: finished when recvmsg gives <= 0)
            }
            req.postMore(res, cflags);
            req.len = 0;   // later rounds take whole buffers (io_mshot_prep_retry)
            if ((cflags & CqeFlags.SOCK_NONEMPTY) != 0 || unknownInq(sc, req.fd)) {
                continue;
            }
            if ((revents & HANGUP) != 0) {
                revents = 0;
                continue;   // the EOF or error that came with this data (see RecvBuffers)
            }
            return -Errno.EAGAIN;
        }
    }

    private static int select(Request req, ProvidedBuffers buffers, SysCallContext sc, boolean nonBlocking) {
        if (req.fd < 0) {
            return -Errno.EBADF;
        }
        if (!nonBlocking || req.inWorker()) {
            return Files.noBuffer(req, SysCallContext.current(), true);
        }
        int s = buffers.select(req, req.bufGroup, req.len);
        if (s >= 0) {
            return 0;
        }
        int file = Files.noBuffer(req, sc, true);
        return file == -Errno.ENOBUFS ? s : file;
    }

    /** Datagram and other sockets leave Linux's msg_inq unknown: the multishot receives until EAGAIN. */
    private static boolean unknownInq(SysCallContext sc, int fd) {
        int kind = SocketKinds.of(sc, fd);
        return kind != SocketKinds.UNIX_STREAM && kind != SocketKinds.TCP;
    }
}
