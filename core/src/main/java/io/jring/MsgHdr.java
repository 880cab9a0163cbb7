package io.jring;

import io.jring.sys.MsgCalls;
import io.jring.sys.SockAddrs;
import io.jring.sys.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A {@code struct msghdr} in native memory for SENDMSG, RECVMSG and SENDMSG_ZC
 * ({@link Sqe#prepSendmsg}, {@link Sqe#prepRecvmsg}), with its iovecs, name (a datagram's
 * address, IPv4 or IPv6) and control ({@code SCM_RIGHTS} descriptors) allocated from the
 * caller's arena. The layout is Linux's on 64-bit: the kernel (and jring) read it as is.
 * Not thread-safe: one thread builds it, and a receive writes {@code msg_namelen},
 * {@code msg_controllen} and {@code msg_flags} back when its CQE is posted.
 */
public final class MsgHdr {
    /** {@code sizeof(struct msghdr)}. */
    public static final int SIZE = MsgCalls.MSGHDR_SIZE;
    /** {@code MSG_PEEK}. */
    public static final int MSG_PEEK = 0x2;
    /** {@code MSG_CTRUNC} (in {@link #flags()}): the control buffer was too small. */
    public static final int MSG_CTRUNC = MsgCalls.MSG_CTRUNC;
    /** {@code MSG_TRUNC} (in {@link #flags()}): the datagram was longer than the iovecs. */
    public static final int MSG_TRUNC = MsgCalls.MSG_TRUNC;
    /** {@code MSG_DONTWAIT}. */
    public static final int MSG_DONTWAIT = 0x40;
    /** {@code MSG_WAITALL}. */
    public static final int MSG_WAITALL = 0x100;
    /** {@code MSG_CMSG_CLOEXEC}: descriptors received with SCM_RIGHTS are close-on-exec. */
    public static final int MSG_CMSG_CLOEXEC = MsgCalls.MSG_CMSG_CLOEXEC;
    /** {@code SOL_SOCKET}, the level of an SCM_RIGHTS control message. */
    public static final int SOL_SOCKET = 1;
    /** {@code SCM_RIGHTS}: a control message carrying descriptors. */
    public static final int SCM_RIGHTS = 1;
    /** {@code sizeof(struct cmsghdr)}: len (8), level, type. */
    public static final int CMSG_HEADER = 16;

    private final Arena arena;
    private final MemorySegment hdr;

    private MsgHdr(Arena arena) {
        this.arena = arena;
        this.hdr = arena.allocate(SIZE, 8);
    }

    /**
     * A zeroed msghdr (no iovecs, name or control).
     *
     * @param arena where it and the parts set later are allocated; must outlive the requests using it
     * @return the new header
     */
    public static MsgHdr allocate(Arena arena) {
        return new MsgHdr(Objects.requireNonNull(arena, "arena"));
    }

    /** {@return the 56-byte header, to pass to the prep methods} */
    public MemorySegment segment() {
        return hdr;
    }

    /**
     * Points {@code msg_iov} at a new iovec array for {@code bufs}.
     *
     * @param bufs native segments (the data to send, or the room to receive into)
     * @return this header
     */
    public MsgHdr iov(MemorySegment... bufs) {
        MemorySegment iov = arena.allocate(Math.max(1, bufs.length) * Structs.Iovec.SIZE, 8);
        for (int i = 0; i < bufs.length; i++) {
            Structs.Iovec.set(iov, i, bufs[i].address(), bufs[i].byteSize());
        }
        hdr.set(JAVA_LONG, MsgCalls.IOV, bufs.length == 0 ? 0 : iov.address());
        hdr.set(JAVA_LONG, MsgCalls.IOVLEN, bufs.length);
        return this;
    }

    /**
     * Sets {@code msg_name} to {@code address} (a datagram's destination).
     *
     * @param address a resolved IPv4 or IPv6 address
     * @return this header
     * @throws IoUringException if the address is unresolved
     */
    public MsgHdr name(InetSocketAddress address) {
        MemorySegment sa = arena.allocate(SockAddrs.STORAGE_SIZE, 8);
        int len = SockAddrs.encode(address, sa);
        if (len < 0) {
            throw new IoUringException(-len, "cannot encode address " + address);
        }
        return name(sa, len);
    }

    /**
     * A {@code sockaddr_in} or {@code sockaddr_in6} for {@code address}, sized to it (for
     * {@link Sqe#sendSetAddr}, {@link Sqe#prepBind}, {@link #name(MemorySegment, int)}).
     *
     * @param arena where to allocate it
     * @param address a resolved IPv4 or IPv6 address
     * @return the encoded address; its size is its length
     * @throws IoUringException if the address is unresolved
     */
    public static MemorySegment sockaddr(Arena arena, InetSocketAddress address) {
        MemorySegment sa = arena.allocate(SockAddrs.STORAGE_SIZE, 8);
        int len = SockAddrs.encode(address, sa);
        if (len < 0) {
            throw new IoUringException(-len, "cannot encode address " + address);
        }
        return sa.asSlice(0, len);
    }

    /**
     * Sets {@code msg_name} and {@code msg_namelen} as given (a raw sockaddr; for a receive, the
     * room for the sender's address).
     *
     * @param sockaddr native memory for the address, or null for none
     * @param len its length
     * @return this header
     */
    public MsgHdr name(MemorySegment sockaddr, int len) {
        hdr.set(JAVA_LONG, MsgCalls.NAME, sockaddr == null ? 0 : sockaddr.address());
        hdr.set(JAVA_INT, MsgCalls.NAMELEN, len);
        return this;
    }

    /**
     * Room for a sender's address ({@code sockaddr_storage}, 128 bytes), for a receive.
     *
     * @return this header
     */
    public MsgHdr nameBuffer() {
        return name(arena.allocate(SockAddrs.STORAGE_SIZE, 8), SockAddrs.STORAGE_SIZE);
    }

    /** {@return {@code msg_namelen}: after a receive, the sender's address length} */
    public int nameLength() {
        return hdr.get(JAVA_INT, MsgCalls.NAMELEN);
    }

    /** {@return the IPv4 or IPv6 address in {@code msg_name}, or null if there is none or another family} */
    public InetSocketAddress address() {
        long name = hdr.get(JAVA_LONG, MsgCalls.NAME);
        int len = nameLength();
        if (name == 0 || len <= 0) {
            return null;
        }
        return SockAddrs.decode(MemorySegment.ofAddress(name).reinterpret(Math.min(len, SockAddrs.STORAGE_SIZE)), len);
    }

    /**
     * Sets {@code msg_control} to {@code buf} and {@code msg_controllen} to its size.
     *
     * @param buf native memory for control messages, or null for none
     * @return this header
     */
    public MsgHdr control(MemorySegment buf) {
        hdr.set(JAVA_LONG, MsgCalls.CONTROL, buf == null ? 0 : buf.address());
        hdr.set(JAVA_LONG, MsgCalls.CONTROLLEN, buf == null ? 0 : buf.byteSize());
        return this;
    }

    /**
     * Room for a receive's control messages.
     *
     * @param bytes its size (e.g. {@link #cmsgSpace}{@code (4 * n)} for n descriptors)
     * @return this header
     */
    public MsgHdr controlBuffer(int bytes) {
        return control(arena.allocate(Math.max(bytes, 1), 8).asSlice(0, bytes));
    }

    /**
     * One SCM_RIGHTS control message carrying {@code fds} (sent over an AF_UNIX socket, they
     * arrive as new descriptors of the receiver).
     *
     * @param fds the descriptors to pass
     * @return this header
     */
    public MsgHdr rights(int... fds) {
        MemorySegment c = arena.allocate(cmsgSpace(4 * fds.length), 8);
        c.set(JAVA_LONG, 0, CMSG_HEADER + 4L * fds.length);
        c.set(JAVA_INT, 8, SOL_SOCKET);
        c.set(JAVA_INT, 12, SCM_RIGHTS);
        for (int i = 0; i < fds.length; i++) {
            c.set(JAVA_INT, CMSG_HEADER + 4L * i, fds[i]);
        }
        return control(c);
    }

    /** {@return {@code msg_controllen}: after a receive, the bytes of control messages received} */
    public long controlLength() {
        return hdr.get(JAVA_LONG, MsgCalls.CONTROLLEN);
    }

    /** {@return {@code msg_flags} written by a receive ({@link #MSG_TRUNC}, {@link #MSG_CTRUNC})} */
    public int flags() {
        return hdr.get(JAVA_INT, MsgCalls.FLAGS);
    }

    /** {@return the descriptors of the SCM_RIGHTS messages in the control buffer, as received} */
    public int[] receivedRights() {
        long control = hdr.get(JAVA_LONG, MsgCalls.CONTROL);
        long len = controlLength();
        if (control == 0 || len <= 0) {
            return new int[0];
        }
        return rightsIn(MemorySegment.ofAddress(control).reinterpret(len));
    }

    /**
     * The descriptors of the SCM_RIGHTS messages in {@code control} (a receive's control
     * bytes, e.g. {@link RecvmsgOut#control}).
     *
     * @param control control messages, {@code CMSG_ALIGN}ed as the kernel writes them
     * @return the descriptors, in order
     */
    public static int[] rightsIn(MemorySegment control) {
        int[] out = new int[0];
        long at = 0;
        long size = control.byteSize();
        while (at + CMSG_HEADER <= size) {
            long len = control.get(JAVA_LONG, at);
            if (len < CMSG_HEADER || at + len > size) {
                break;
            }
            if (control.get(JAVA_INT, at + 8) == SOL_SOCKET && control.get(JAVA_INT, at + 12) == SCM_RIGHTS) {
                int n = (int) ((len - CMSG_HEADER) / 4);
                int[] more = java.util.Arrays.copyOf(out, out.length + n);
                for (int i = 0; i < n; i++) {
                    more[out.length + i] = control.get(JAVA_INT, at + CMSG_HEADER + 4L * i);
                }
                out = more;
            }
            at += (len + 7) & ~7L;
        }
        return out;
    }

    /**
     * {@code CMSG_SPACE(dataLen)}: the bytes one control message with {@code dataLen} bytes of data takes.
     *
     * @param dataLen the message's data bytes
     * @return the header plus the data, rounded up to 8
     */
    public static int cmsgSpace(int dataLen) {
        return CMSG_HEADER + ((dataLen + 7) & ~7);
    }
}
