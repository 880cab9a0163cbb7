package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.SendRecvmsgTest.ascii;
import static io.jring.net.SendRecvmsgTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.MsgHdr;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SEND_ZC and SENDMSG_ZC (liburing test/send-zerocopy.c; kernel io_uring/net.c io_send_zc and
 * notif.c): the result CQE with MORE, then the notification with NOTIF and the same user data;
 * REPORT_USAGE's copied bit; registered buffers (FIXED_BUF) and a range outside them; the data
 * arriving whole over TCP and UDP; a link after a zero-copy send runs after its result.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SendZerocopyTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, NetTestSupport.DEFER})
    void tcpDataArrivesAndTheNotificationFollowsTheResult(int setup) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int listener = fds.listen(IPV4, 4);
            int client = fds.connect(Fds.localAddress(listener));
            sqe(ring).prepAccept(listener, 0).userData(9);
            ring.submit();
            int server = fds.add(next(ring).res());
            MemorySegment data = ascii(arena, "zero copy, or so");
            sqe(ring).prepSendZc(client, data, 0, Sqe.SEND_ZC_REPORT_USAGE).userData(1);
            ring.submit();
            assertEquals(cqe(1, 16, CqeFlags.MORE), next(ring));
            assertEquals(cqe(1, CqeFlags.NOTIF_USAGE_ZC_COPIED, CqeFlags.NOTIF), next(ring));
            byte[] got = new byte[16];
            int n = 0;
            while (n < 16) {
                byte[] part = new byte[16 - n];
                int r = Fds.read(server, part);
                System.arraycopy(part, 0, got, n, r);
                n += r;
            }
            assertEquals("zero copy, or so", new String(got));
        }
    }

    @Test
    void fixedBuffersAreSentAndARangeOutsideThemIsEfault() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(IPV4, 0)));
            int client = fds.add(Fds.bindUdp(new InetSocketAddress(IPV4, 0)));
            Fds.connect(client, Fds.localAddress(server));
            MemorySegment reg = ascii(arena, "registered!");
            ring.registerBuffers(new MemorySegment[] {reg});
            sqe(ring).prepSendZcFixed(client, reg.asSlice(0, 10), 0, 0, 0).userData(1);
            ring.submit();
            assertEquals(cqe(1, 10, CqeFlags.MORE), next(ring));
            assertEquals(cqe(1, 0, CqeFlags.NOTIF), next(ring));
            byte[] got = new byte[16];
            assertEquals(10, Fds.read(server, got));
            assertEquals("registered", new String(got, 0, 10));
            sqe(ring).prepSendZcFixed(client, ascii(arena, "elsewhere"), 0, 0, 0).userData(2);
            ring.submit();
            assertEquals(cqe(2, -Errno.EFAULT, CqeFlags.MORE), next(ring));
            assertEquals(cqe(2, 0, CqeFlags.NOTIF), next(ring));
        }
    }

    @Test
    void sendmsgZcToANameAndALinkAfterIt() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(IPV4, 0)));
            int client = fds.add(Fds.bindUdp(new InetSocketAddress(IPV4, 0)));
            MsgHdr out = MsgHdr.allocate(arena).iov(ascii(arena, "to "), ascii(arena, "you"))
                    .name(Fds.localAddress(server));
            sqe(ring).prepSendmsgZc(client, out.segment(), 0).flags(SqeFlags.IO_LINK).userData(1);
            MemorySegment buf = arena.allocate(16);
            MsgHdr in = MsgHdr.allocate(arena).iov(buf).nameBuffer();
            sqe(ring).prepRecvmsg(server, in.segment(), 0).userData(2);
            ring.submit();
            assertEquals(cqe(1, 6, CqeFlags.MORE), next(ring));
            java.util.List<io.jring.testkit.RingTestSupport.Completion> rest = next(ring, 2);
            assertEquals(java.util.Set.of(cqe(1, 0, CqeFlags.NOTIF), cqe(2, 6, 0)), java.util.Set.copyOf(rest));
            assertEquals("to you", text(buf, 6));
            assertEquals(Fds.localAddress(client), in.address());
        }
    }

    @Test
    void sendZcToADestinationFromAnUnconnectedUdpSocket() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(NetTestSupport.IPV6, 0)));
            int client = fds.add(Fds.bindUdp(new InetSocketAddress(NetTestSupport.IPV6, 0)));
            MemorySegment to = MsgHdr.sockaddr(arena, Fds.localAddress(server));
            sqe(ring).prepSendZc(client, ascii(arena, "hi there"), 0, 0).sendSetAddr(to, (int) to.byteSize())
                    .userData(1);
            ring.submit();
            assertEquals(cqe(1, 8, CqeFlags.MORE), next(ring));
            assertEquals(cqe(1, 0, CqeFlags.NOTIF), next(ring));
            byte[] got = new byte[16];
            assertEquals(8, Fds.read(server, got));
            assertEquals("hi there", new String(got, 0, 8));
        }
    }
}
