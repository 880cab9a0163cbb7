package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.IPV6;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.MsgHdr;
import io.jring.net.NetTestSupport.OpenFds;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SENDMSG and RECVMSG (liburing test/send_recvmsg.c and socket-rw.c; kernel io_uring/net.c
 * io_sendmsg, io_recvmsg): UDP send-to and receive-from over IPv4 and IPv6 with several
 * iovecs, MSG_TRUNC on a short iovec, SCM_RIGHTS over AF_UNIX and MSG_CTRUNC on a short
 * control buffer, the header written back (name length, control length, flags), a bad msghdr
 * (-EFAULT), RECVMSG into a provided buffer, zero-length sends, and the prep checks.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SendRecvmsgTest {

    static Stream<Arguments> kindsAndFamilies() {
        return NetTestSupport.ringKindsAndLoopbacks();
    }

    static MemorySegment ascii(Arena arena, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        MemorySegment seg = arena.allocate(Math.max(1, b.length)).asSlice(0, b.length);
        MemorySegment.copy(b, 0, seg, ValueLayout.JAVA_BYTE, 0, b.length);
        return seg;
    }

    static String text(MemorySegment seg, long len) {
        byte[] b = new byte[(int) len];
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, b, 0, b.length);
        return new String(b, StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("kindsAndFamilies")
    void aDatagramGoesToItsNameAndComesBackWithTheSendersAddress(int setup, InetAddress loopback) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(loopback, 0)));
            int client = fds.add(Fds.bindUdp(new InetSocketAddress(loopback, 0)));
            MsgHdr out = MsgHdr.allocate(arena).iov(ascii(arena, "hello "), ascii(arena, "world"))
                    .name(Fds.localAddress(server));
            MemorySegment a = arena.allocate(4);
            MemorySegment b = arena.allocate(64);
            MsgHdr in = MsgHdr.allocate(arena).iov(a, b).nameBuffer();
            sqe(ring).prepRecvmsg(server, in.segment(), 0).userData(2);
            ring.submit();
            sqe(ring).prepSendmsg(client, out.segment(), 0).userData(1);
            ring.submit();
            Completion first = next(ring);
            Completion second = next(ring);
            Completion sent = first.userData() == 1 ? first : second;
            Completion received = first.userData() == 1 ? second : first;
            assertEquals(cqe(1, 11, 0), sent);
            assertEquals(cqe(2, 11, 0), received);
            assertEquals("hell", text(a, 4));
            assertEquals("o world", text(b, 7));
            assertEquals(Fds.localAddress(client), in.address());
            assertEquals(0, in.flags());
            assertEquals(0, in.controlLength());
        }
    }

    @Test
    void aDatagramLongerThanTheIovecsIsTruncatedWithMsgTrunc() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(IPV4, 0)));
            int client = fds.add(Fds.bindUdp(new InetSocketAddress(IPV4, 0)));
            Fds.connect(client, Fds.localAddress(server));
            sqe(ring).prepSendmsg(client, MsgHdr.allocate(arena).iov(ascii(arena, "0123456789")).segment(), 0)
                    .userData(1);
            assertEquals(cqe(1, 10, 0), submitAndNext(ring));
            MemorySegment small = arena.allocate(4);
            MsgHdr in = MsgHdr.allocate(arena).iov(small);
            sqe(ring).prepRecvmsg(server, in.segment(), 0).userData(2);
            assertEquals(cqe(2, 4, 0), submitAndNext(ring));
            assertEquals(MsgHdr.MSG_TRUNC, in.flags() & MsgHdr.MSG_TRUNC);
            assertEquals("0123", text(small, 4));
        }
    }

    @Test
    void scmRightsPassesADescriptorAndATooSmallControlBufferIsMsgCtrunc() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int[] pair = fds.socketPair();
            int[] pipe = fds.pipe();
            MsgHdr out = MsgHdr.allocate(arena).iov(ascii(arena, "x")).rights(pipe[1]);
            sqe(ring).prepSendmsg(pair[0], out.segment(), 0).userData(1);
            assertEquals(cqe(1, 1, 0), submitAndNext(ring));
            MsgHdr in = MsgHdr.allocate(arena).iov(arena.allocate(8)).controlBuffer(MsgHdr.cmsgSpace(4));
            sqe(ring).prepRecvmsg(pair[1], in.segment(), 0).userData(2);
            assertEquals(1, submitAndNext(ring).res());
            int[] got = in.receivedRights();
            assertEquals(1, got.length);
            fds.add(got[0]);
            Fds.write(got[0], new byte[] {42});
            byte[] one = new byte[1];
            assertEquals(1, Fds.read(pipe[0], one));
            assertEquals(42, one[0]);
            assertEquals(0, in.flags() & MsgHdr.MSG_CTRUNC);

            sqe(ring).prepSendmsg(pair[0], out.segment(), 0).userData(3);
            assertEquals(cqe(3, 1, 0), submitAndNext(ring));
            MsgHdr tiny = MsgHdr.allocate(arena).iov(arena.allocate(8)).controlBuffer(MsgHdr.CMSG_HEADER);
            sqe(ring).prepRecvmsg(pair[1], tiny.segment(), 0).userData(4);
            assertEquals(1, submitAndNext(ring).res());
            assertEquals(MsgHdr.MSG_CTRUNC, tiny.flags() & MsgHdr.MSG_CTRUNC);
            assertEquals(0, tiny.receivedRights().length);
        }
    }

    @Test
    void aBadMsghdrIsEfaultAndPrepChecksAreEinval() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int[] pair = fds.socketPair();
            sqe(ring).prepSendmsg(pair[0], arena.allocate(8), 0).userData(1);
            assertEquals(cqe(1, -Errno.EFAULT, 0), submitAndNext(ring));
            sqe(ring).prepRecvmsg(pair[0], null, 0).userData(2);
            assertEquals(cqe(2, -Errno.EFAULT, 0), submitAndNext(ring));
            MsgHdr h = MsgHdr.allocate(arena).iov(arena.allocate(4));
            sqe(ring).prepSendmsg(pair[0], h.segment(), 0).ioprio(io.jring.Sqe.RECVSEND_BUNDLE).userData(3);
            assertEquals(cqe(3, -Errno.EINVAL, 0), submitAndNext(ring));
            sqe(ring).prepRecvmsgMultishot(pair[0], h.segment(), 0).userData(4);
            assertEquals(cqe(4, -Errno.EINVAL, 0), submitAndNext(ring), "multishot needs BUFFER_SELECT");
            MemorySegment badIov = MsgHdr.allocate(arena).segment();
            badIov.set(ValueLayout.JAVA_LONG, 16, 0x10L);
            badIov.set(ValueLayout.JAVA_LONG, 24, 1L);
            sqe(ring).prepSendmsg(pair[0], badIov, 0).userData(5);
            assertEquals(cqe(5, -Errno.EFAULT, 0), submitAndNext(ring));
        }
    }

    @Test
    void zeroLengthDatagramsAreSentAndReceived() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(IPV6, 0)));
            int client = fds.add(Fds.bindUdp(new InetSocketAddress(IPV6, 0)));
            sqe(ring).prepSendmsg(client, MsgHdr.allocate(arena).name(Fds.localAddress(server)).segment(), 0)
                    .userData(1);
            assertEquals(cqe(1, 0, 0), submitAndNext(ring));
            MsgHdr in = MsgHdr.allocate(arena).iov(arena.allocate(8)).nameBuffer();
            sqe(ring).prepRecvmsg(server, in.segment(), 0).userData(2);
            assertEquals(cqe(2, 0, 0), submitAndNext(ring));
            assertEquals(Fds.localAddress(client), in.address());
        }
    }

    @Test
    void recvmsgIntoAProvidedBufferReportsItsId() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int[] pair = fds.socketPair();
            MemorySegment region = arena.allocate(64);
            sqe(ring).prepProvideBuffers(region, 32, 2, 3, 7).userData(9);
            assertEquals(0, submitAndNext(ring).res());
            Fds.write(pair[0], "abc".getBytes(StandardCharsets.US_ASCII));
            MsgHdr in = MsgHdr.allocate(arena);
            sqe(ring).prepRecvmsg(pair[1], in.segment(), 0).bufferSelect(3).userData(2);
            Completion c = submitAndNext(ring).withoutNonEmptyHint();
            assertEquals(cqe(2, 3, CqeFlags.BUFFER | 7 << CqeFlags.BUFFER_SHIFT), c);
            assertEquals("abc", text(region, 3));
            assertNotNull(in.segment());
            assertTrue(in.nameLength() >= 0);
            assertArrayEquals(new int[0], in.receivedRights());
        }
    }
}
