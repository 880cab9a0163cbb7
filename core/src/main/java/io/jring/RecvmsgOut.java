package io.jring;

import io.jring.sys.MsgCalls;
import io.jring.sys.SockAddrs;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One message of a multishot RECVMSG ({@link Sqe#prepRecvmsgMultishot}) in its provided
 * buffer: Linux's {@code struct io_uring_recvmsg_out} (namelen, controllen, payloadlen, flags:
 * four 32-bit fields), then {@code msg_namelen} bytes of room for the name, {@code msg_controllen}
 * bytes for control messages, then the payload, with the sizes the SQE's msghdr gave. As
 * liburing's io_uring_recvmsg_validate, _name, _cmsg and _payload. Immutable view.
 */
public final class RecvmsgOut {
    /** {@code sizeof(struct io_uring_recvmsg_out)}. */
    public static final int SIZE = 16;

    private final MemorySegment buf;
    private final int nameRoom;
    private final int controlRoom;

    private RecvmsgOut(MemorySegment buf, int nameRoom, int controlRoom) {
        this.buf = buf;
        this.nameRoom = nameRoom;
        this.controlRoom = controlRoom;
    }

    /**
     * The message in a CQE's buffer, or null if the CQE's {@code res} bytes cannot hold the
     * header and the room the msghdr asked for (io_uring_recvmsg_validate).
     *
     * @param buf the provided buffer the CQE names (at least {@code res} bytes)
     * @param res the CQE's result: the bytes the kernel used in {@code buf}
     * @param msghdr the msghdr the SQE had (its {@code msg_namelen} and {@code msg_controllen})
     * @return the view, or null
     */
    public static RecvmsgOut validate(MemorySegment buf, int res, MemorySegment msghdr) {
        int nameRoom = msghdr.get(JAVA_INT, MsgCalls.NAMELEN);
        long controlRoom = msghdr.get(JAVA_LONG, MsgCalls.CONTROLLEN);
        long header = SIZE + (long) nameRoom + controlRoom;
        if (res < 0 || nameRoom < 0 || controlRoom < 0 || header > res || res > buf.byteSize()) {
            return null;
        }
        return new RecvmsgOut(buf.asSlice(0, res), nameRoom, (int) controlRoom);
    }

    /** {@return the sender's address length (before truncation to the name room)} */
    public int nameLength() {
        return buf.get(JAVA_INT, 0);
    }

    /** {@return the bytes of control messages received} */
    public int controlLength() {
        return buf.get(JAVA_INT, 4);
    }

    /** {@return the message's full length (more than {@link #payload()} holds when truncated)} */
    public int payloadLength() {
        return buf.get(JAVA_INT, 8);
    }

    /** {@return the message's flags (MsgHdr.MSG_TRUNC, MsgHdr.MSG_CTRUNC)} */
    public int flags() {
        return buf.get(JAVA_INT, 12);
    }

    /** {@return the name bytes received (at most the msghdr's name room)} */
    public MemorySegment name() {
        return buf.asSlice(SIZE, Math.min(Math.max(nameLength(), 0), nameRoom));
    }

    /** {@return the sender's IPv4 or IPv6 address, or null (none, another family, or truncated)} */
    public InetSocketAddress address() {
        int len = nameLength();
        if (len <= 0 || len > nameRoom) {
            return null;
        }
        return SockAddrs.decode(name(), len);
    }

    /** {@return the control messages received (parse SCM_RIGHTS with {@link MsgHdr#rightsIn})} */
    public MemorySegment control() {
        return buf.asSlice(SIZE + (long) nameRoom, Math.min(Math.max(controlLength(), 0), controlRoom));
    }

    /** {@return the payload this buffer holds: the bytes after the header, the name and control room} */
    public MemorySegment payload() {
        long start = SIZE + (long) nameRoom + controlRoom;
        return buf.asSlice(start, buf.byteSize() - start);
    }
}
