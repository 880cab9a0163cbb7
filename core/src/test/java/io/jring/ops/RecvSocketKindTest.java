package io.jring.ops;

import static io.jring.testkit.RingTestSupport.cqe;
import static io.jring.testkit.RingTestSupport.ring;
import static io.jring.testkit.RingTestSupport.sqe;
import static io.jring.testkit.RingTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.testkit.RingTestSupport;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.sys.SockAddrs;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the socket's kind changes for a RECV ({@link SendRecvOp}, {@link SockNonEmpty},
 * {@code io.jring.sys.SocketKinds}; kernel io_uring/net.c io_net_retry and msg_inq): datagram
 * and seqpacket sockets never set SOCK_NONEMPTY; MSG_WAITALL on a datagram socket is one
 * datagram and fails its link, on a seqpacket socket it gathers records. Checked on 6.18.
 * Also: a number jring closes and reuses for another kind of socket is looked up afresh.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecvSocketKindTest {
    private static final int SOCK_SEQPACKET = 5;

    /** An AF_UNIX socket pair of {@code type} (Fds only makes stream pairs). */
    private static int[] pair(RingTestSupport.Descriptors fds, int type) {
        SysCallContext sc = SysCallContext.current();
        MemorySegment out = sc.scratch();
        assertEquals(0, SocketCalls.socketPair(sc, SockAddrs.AF_UNIX, type | SocketCalls.SOCK_CLOEXEC, 0, out));
        return fds.add(new int[] {out.get(ValueLayout.JAVA_INT, 0), out.get(ValueLayout.JAVA_INT, 4)});
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void datagramAndSeqpacketRecvsNeverSetSockNonEmpty(int setup) {
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors(); IoUring ring = ring(setup);
                Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(64);
            for (int type : new int[] {SocketCalls.SOCK_DGRAM, SOCK_SEQPACKET}) {
                int[] p = pair(fds, type);
                Fds.write(p[1], new byte[10]);
                Fds.write(p[1], new byte[10]);
                sqe(ring).prepRecv(p[0], buf, 0).userData(1);
                assertEquals(cqe(1, 10), submitAndNext(ring), "one record of two, type " + type);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void waitallRecvOnADatagramSocketIsOneDatagramAndFailsItsLink(int setup) {
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors(); IoUring ring = ring(setup);
                Arena arena = Arena.ofConfined()) {
            int[] p = pair(fds, SocketCalls.SOCK_DGRAM);
            Fds.write(p[1], new byte[10]);
            Fds.write(p[1], new byte[10]);
            sqe(ring).prepRecv(p[0], arena.allocate(64), SocketCalls.MSG_WAITALL).userData(1)
                    .flags(io.jring.SqeFlags.IO_LINK);
            sqe(ring).prepNop().userData(2);
            ring.submit();
            assertEquals(List.of(cqe(1, 10), cqe(2, -Errno.ECANCELED)), RingTestSupport.next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void waitallRecvOnASeqpacketSocketGathersRecordsUntilFull(int setup) {
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors(); IoUring ring = ring(setup);
                Arena arena = Arena.ofConfined()) {
            int[] p = pair(fds, SOCK_SEQPACKET);
            Fds.write(p[1], new byte[10]);
            Fds.write(p[1], new byte[10]);
            sqe(ring).prepRecv(p[0], arena.allocate(20), SocketCalls.MSG_WAITALL).userData(1);
            assertEquals(cqe(1, 20), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void aNumberClosedByJringAndReusedForADatagramSocketIsLookedUpAgain(int setup) {
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors(); IoUring ring = ring(setup);
                Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(64);
            int[] stream = fds.socketPair();
            Fds.write(stream[1], new byte[20]);
            sqe(ring).prepRecv(stream[0], buf.asSlice(0, 10), 0).userData(1);
            assertEquals(cqe(1, 10, CqeFlags.SOCK_NONEMPTY), submitAndNext(ring), "a stream socket");
            fds.close(stream[0]);
            fds.close(stream[1]);
            int[] dgram = pair(fds, SocketCalls.SOCK_DGRAM);
            assertEquals(stream[0], Math.min(dgram[0], dgram[1]), "the lowest free number is reused");
            int reader = stream[0];
            int writer = reader == dgram[0] ? dgram[1] : dgram[0];
            Fds.write(writer, new byte[10]);
            Fds.write(writer, new byte[10]);
            sqe(ring).prepRecv(reader, buf, 0).userData(2);
            Completion c = submitAndNext(ring);
            assertEquals(cqe(2, 10), c, "a datagram socket now: no SOCK_NONEMPTY");
        }
    }
}
