package io.jring.tool.udp;

import io.jring.BufRing;
import io.jring.CqeFlags;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.MsgHdr;
import io.jring.RecvmsgOut;
import io.jring.Setup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;

/**
 * jring's UDP echo server: one multishot RECVMSG into a buffer ring (each datagram arrives
 * with its sender's address in the buffer, RecvmsgOut), and a SENDMSG per datagram straight
 * from that buffer to that address; a buffer goes back to the ring when its send completes.
 * One SINGLE_ISSUER | DEFER_TASKRUN ring, owned by the server thread, which builds it.
 */
final class JringUdpEchoServer extends UdpEchoServer {
    private static final int BUFFERS = 512;
    private static final int BUF_SIZE = 2048;
    private static final int GROUP = 1;
    private static final long RECV = 1L << 40;
    private static final int NAME_ROOM = 28;   // sockaddr_in6: IPv4 and IPv6 peers
    private static final long PAYLOAD = RecvmsgOut.SIZE + NAME_ROOM;

    private final int fd;
    /** Multishot RECVMSGs that ended (re-armed) and failed sends, with the last error; server thread writes, controller reads. */
    volatile long rearms;
    volatile long sendErrors;
    volatile int lastError;
    private final InetSocketAddress address;

    JringUdpEchoServer(InetSocketAddress bind) {
        fd = Fds.bindUdp(bind);
        address = Fds.localAddress(fd);
    }

    @Override
    InetSocketAddress address() {
        return address;
    }

    @Override
    void serve() {
        try (Arena arena = Arena.ofConfined();
                IoUring ring = IoUring.builder().entries(1024).cqEntries(4096)
                        .flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN).build();
                BufRing br = BufRing.setup(ring, BUFFERS, GROUP, 0)) {
            MemorySegment region = arena.allocate((long) BUFFERS * BUF_SIZE, 64);
            // Per buffer: a msghdr (iovec over the payload, name over the sender's address in the buffer).
            MemorySegment hdrs = arena.allocate((long) BUFFERS * (MsgHdr.SIZE + 16), 8);
            for (int i = 0; i < BUFFERS; i++) {
                br.add(region.asSlice((long) i * BUF_SIZE, BUF_SIZE), i, i);
                long base = region.address() + (long) i * BUF_SIZE;
                MemorySegment h = hdrs.asSlice((long) i * (MsgHdr.SIZE + 16), MsgHdr.SIZE + 16);
                h.set(ValueLayout.JAVA_LONG, 0, base + RecvmsgOut.SIZE);    // msg_name
                h.set(ValueLayout.JAVA_LONG, 16, h.address() + MsgHdr.SIZE); // msg_iov
                h.set(ValueLayout.JAVA_LONG, 24, 1L);                        // msg_iovlen
                h.set(ValueLayout.JAVA_LONG, MsgHdr.SIZE, base + PAYLOAD);  // iov_base
            }
            br.advance(BUFFERS);
            MemorySegment recvHdr = MsgHdr.allocate(arena).name(null, NAME_ROOM).segment();
            ring.getSqe().prepRecvmsgMultishot(fd, recvHdr, 0).bufferSelect(GROUP).userData(RECV);
            boolean[] rearm = new boolean[1];
            while (!stop) {
                ring.submitAndWait(1);
                ring.forEachCqe((ud, res, flags) -> {
                    if (ud != RECV) {
                        if (res < 0) {
                            sendErrors++;
                            lastError = res;
                        }
                        int bid = (int) ud;
                        br.add(region.asSlice((long) bid * BUF_SIZE, BUF_SIZE), bid, 0);
                        br.advance(1);
                        return;
                    }
                    if ((flags & CqeFlags.MORE) == 0) {
                        rearm[0] = true;
                        rearms++;
                        if (res < 0) {
                            lastError = res;
                        }
                    }
                    if ((flags & CqeFlags.BUFFER) == 0) {
                        return;
                    }
                    int bid = CqeFlags.bufferId(flags);
                    MemorySegment buf = region.asSlice((long) bid * BUF_SIZE, BUF_SIZE);
                    MemorySegment h = hdrs.asSlice((long) bid * (MsgHdr.SIZE + 16), MsgHdr.SIZE + 16);
                    h.set(ValueLayout.JAVA_INT, 8, Math.min(buf.get(ValueLayout.JAVA_INT, 0), NAME_ROOM));
                    h.set(ValueLayout.JAVA_LONG, MsgHdr.SIZE + 8, res - PAYLOAD);   // iov_len: the payload stored
                    ring.getSqe().prepSendmsg(fd, h, 0).userData(bid);
                });
                if (rearm[0]) {
                    rearm[0] = false;
                    ring.getSqe().prepRecvmsgMultishot(fd, recvHdr, 0).bufferSelect(GROUP).userData(RECV);
                }
            }
        }
    }

    @Override
    String diagnostics() {
        return rearms + " re-arms, " + sendErrors + " failed sends" + (lastError != 0 ? ", last error " + lastError : "");
    }

    /** An empty datagram to the server: the loop's wait returns and it sees {@link #stop}. */
    @Override
    void wake() {
        int s = Fds.bindUdp(new InetSocketAddress(address.getAddress(), 0));
        try {
            Fds.connect(s, address);
            Fds.write(s, new byte[0]);
        } finally {
            Fds.close(s);
        }
    }

    @Override
    void release() {
        Fds.close(fd);
    }
}
