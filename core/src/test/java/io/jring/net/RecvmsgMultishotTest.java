package io.jring.net;

import static io.jring.net.NetTestSupport.IPV6;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.SendRecvmsgTest.ascii;
import static io.jring.net.SendRecvmsgTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jring.BufRing;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.MsgHdr;
import io.jring.RecvmsgOut;
import io.jring.net.NetTestSupport.OpenFds;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multishot RECVMSG (liburing test/recv-multishot.c, its recvmsg half; kernel io_uring/net.c
 * io_recvmsg_multishot): each datagram lands in a buffer of the ring as io_uring_recvmsg_out,
 * the name room, the control room and the payload, parsed with {@link RecvmsgOut}; SCM_RIGHTS
 * in the control room; the ring running dry mid-multishot ends it with -ENOBUFS and the rest
 * stays queued for the next one.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecvmsgMultishotTest {
    private static final int G = 3;
    private static final int LEN = 256;

    static Stream<Arguments> kindsAndFamilies() {
        return NetTestSupport.ringKindsAndLoopbacks();
    }

    private static MemorySegment fill(BufRing br, Arena arena, int count) {
        MemorySegment region = arena.allocate((long) count * LEN);
        for (int i = 0; i < count; i++) {
            br.add(region.asSlice((long) i * LEN, LEN), i, i);
        }
        br.advance(count);
        return region;
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("kindsAndFamilies")
    void eachDatagramComesWithItsSendersAddressAndPayload(int setup, InetAddress loopback) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, 0)) {
            MemorySegment region = fill(br, arena, 8);
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(loopback, 0)));
            int[] clients = new int[3];
            for (int i = 0; i < 3; i++) {
                clients[i] = fds.add(Fds.bindUdp(new InetSocketAddress(loopback, 0)));
                Fds.connect(clients[i], Fds.localAddress(server));
            }
            MsgHdr h = MsgHdr.allocate(arena).nameBuffer();
            sqe(ring).prepRecvmsgMultishot(server, h.segment(), 0).bufferSelect(G).userData(1);
            ring.submit();
            for (int i = 0; i < 3; i++) {
                Fds.write(clients[i], ("message " + i).getBytes());
                Completion c = next(ring);
                assertEquals(1, c.userData());
                assertEquals(CqeFlags.MORE | CqeFlags.BUFFER, c.flags() & 0xffff);
                int bid = c.flags() >>> CqeFlags.BUFFER_SHIFT;
                RecvmsgOut out = RecvmsgOut.validate(region.asSlice((long) bid * LEN, LEN), c.res(), h.segment());
                assertNotNull(out);
                assertEquals(Fds.localAddress(clients[i]), out.address());
                assertEquals(9, out.payloadLength());
                assertEquals("message " + i, text(out.payload(), out.payload().byteSize()));
                assertEquals(0, out.flags());
                assertEquals(0, out.controlLength());
            }
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            Completion a = next(ring);
            Completion b = next(ring);
            Completion ended = a.userData() == 1 ? a : b;
            assertEquals(cqe(1, -Errno.ECANCELED, 0), ended);
        }
    }

    @Test
    void scmRightsArriveInTheControlRoomAndAShortBufferIsNoValidMessage() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 4, G, 0)) {
            MemorySegment region = fill(br, arena, 4);
            int[] pair = fds.socketPair();
            int[] pipe = fds.pipe();
            MsgHdr h = MsgHdr.allocate(arena).controlBuffer(MsgHdr.cmsgSpace(4));
            sqe(ring).prepRecvmsgMultishot(pair[1], h.segment(), 0).bufferSelect(G).userData(1);
            ring.submit();
            sqe(ring).prepSendmsg(pair[0], MsgHdr.allocate(arena).iov(ascii(arena, "fd")).rights(pipe[1]).segment(),
                    0).userData(2);
            ring.submit();
            Completion recv = null;
            for (int i = 0; i < 2; i++) {
                Completion c = next(ring);
                if (c.userData() == 1) {
                    recv = c;
                } else {
                    assertEquals(cqe(2, 2, 0), c);
                }
            }
            assertNotNull(recv);
            int bid = recv.flags() >>> CqeFlags.BUFFER_SHIFT;
            MemorySegment buf = region.asSlice((long) bid * LEN, LEN);
            RecvmsgOut out = RecvmsgOut.validate(buf, recv.res(), h.segment());
            assertNotNull(out);
            assertEquals("fd", text(out.payload(), 2));
            int[] got = MsgHdr.rightsIn(out.control());
            assertEquals(1, got.length);
            fds.add(got[0]);
            assertNull(RecvmsgOut.validate(buf, 8, h.segment()), "8 bytes cannot hold header and control room");
            sqe(ring).prepCancel(1, 0).userData(3);
            ring.submit();
            next(ring, 2);
        }
    }

    @Test
    void theRingRunningDryEndsItAndTheRestWaitsForTheNextMultishot() {
        try (IoUring ring = ring(0); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 4, G, 0)) {
            fill(br, arena, 2);
            int server = fds.add(Fds.bindUdp(new InetSocketAddress(IPV6, 0)));
            int client = fds.add(Fds.bindUdp(new InetSocketAddress(IPV6, 0)));
            Fds.connect(client, Fds.localAddress(server));
            for (int i = 0; i < 3; i++) {
                Fds.write(client, new byte[] {(byte) i});
            }
            MsgHdr h = MsgHdr.allocate(arena);
            sqe(ring).prepRecvmsgMultishot(server, h.segment(), 0).bufferSelect(G).userData(1);
            ring.submit();
            assertEquals(cqe(1, 17, CqeFlags.MORE | CqeFlags.BUFFER), next(ring));
            assertEquals(cqe(1, 17, CqeFlags.MORE | CqeFlags.BUFFER | 1 << CqeFlags.BUFFER_SHIFT), next(ring));
            assertEquals(cqe(1, -Errno.ENOBUFS, 0), next(ring));
            MemorySegment one = arena.allocate(4);
            sqe(ring).prepRecvmsg(server, MsgHdr.allocate(arena).iov(one).segment(), 0).userData(2);
            assertEquals(cqe(2, 1, 0), submitAndNext(ring));
            assertEquals(2, one.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
        }
    }
}
