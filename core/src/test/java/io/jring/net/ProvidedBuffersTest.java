package io.jring.net;

import static io.jring.net.NetTestSupport.MSG_DONTWAIT;
import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.buffer;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.later;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Legacy provided buffers: IORING_OP_PROVIDE_BUFFERS, IORING_OP_REMOVE_BUFFERS and
 * IOSQE_BUFFER_SELECT on recv and read (liburing test/provide-buffers style cases in
 * test/read-write.c and test/send_recv.c; kernel io_uring/kbuf.c). Checked on Linux 6.18:
 * PROVIDE completes with 0; buffers are taken first-in first-out in the order provided; the
 * CQE of a recv/read that used one has {@code CqeFlags.BUFFER} and the id in
 * {@code flags >>> 16}; a request that waits, fails or (recv) reads EOF gives its buffer back
 * at the head of the group; an empty or unknown group is -ENOBUFS at once; REMOVE returns how
 * many it removed: 0 for a group that exists but is empty, -ENOENT for one never provided.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProvidedBuffersTest {
    private static final int LEN = 16;

    /** The slice of {@code region} that holds buffer {@code bid} (buffers of LEN from {@code firstBid}). */
    private static MemorySegment slice(MemorySegment region, int firstBid, int bid) {
        return region.asSlice((long) (bid - firstBid) * LEN, LEN);
    }

    private static void provide(IoUring ring, MemorySegment region, int count, int group, int firstBid, long ud) {
        sqe(ring).prepProvideBuffers(region, LEN, count, group, firstBid).userData(ud);
        assertEquals(cqe(ud, 0), submitAndNext(ring), "PROVIDE_BUFFERS");
    }

    private static void prepSelectRecv(IoUring ring, int fd, int group, long ud) {
        sqe(ring).prepRecv(fd, null, 0).flags(SqeFlags.BUFFER_SELECT).bufferGroup(group).userData(ud);
    }

    /** How many buffers the group still holds, found by removing them all. */
    private static int removeAll(IoUring ring, int group, long ud) {
        sqe(ring).prepRemoveBuffers(1000, group).userData(ud);
        NetTestSupport.Completion c = submitAndNext(ring);
        assertEquals(ud, c.userData());
        return c.res();
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvsTakeProvidedBuffersInTheOrderProvided(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment region = arena.allocate(4 * LEN);
            provide(ring, region, 4, 7, 10, 1);
            String[] msgs = {"aaaa", "bbbbb", "cc", "dddddd"};
            for (int i = 0; i < msgs.length; i++) {
                Fds.write(s[1], ascii(msgs[i]));
                prepSelectRecv(ring, s[0], 7, 2 + i);
                assertEquals(cqe(2 + i, msgs[i].length(), buffer(10 + i)), submitAndNext(ring));
                assertEquals(msgs[i], NetTestSupport.ascii(slice(region, 10, 10 + i), msgs[i].length()));
            }
            Fds.write(s[1], ascii("e"));
            prepSelectRecv(ring, s[0], 7, 9);
            assertEquals(cqe(9, -Errno.ENOBUFS), submitAndNext(ring), "all four used");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aBufferCapsTheRecvAndLenCapsItFurther(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment region = arena.allocate(3 * LEN);
            provide(ring, region, 3, 1, 0, 1);
            Fds.write(s[1], ascii("0123456789abcdefXYZ"));
            prepSelectRecv(ring, s[0], 1, 2);
            assertEquals(cqe(2, LEN, buffer(0)), withoutNonEmptyHint(submitAndNext(ring)));
            assertEquals("0123456789abcdef", NetTestSupport.ascii(slice(region, 0, 0), LEN));
            sqe(ring).prepRecv(s[0], null, 0).flags(SqeFlags.BUFFER_SELECT).bufferGroup(1).len(2).userData(3);
            assertEquals(cqe(3, 2, buffer(1)), withoutNonEmptyHint(submitAndNext(ring)));
            assertEquals("XY", NetTestSupport.ascii(slice(region, 0, 1), 2));
            prepSelectRecv(ring, s[0], 1, 4);
            assertEquals(cqe(4, 1, buffer(2)), submitAndNext(ring));
            assertEquals("Z", NetTestSupport.ascii(slice(region, 0, 2), 1));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void anEmptyOrUnknownGroupIsEnobufsAtOnceWithOrWithoutData(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int[] s = fds.socketPair();
            prepSelectRecv(ring, s[0], 99, 1);
            assertEquals(cqe(1, -Errno.ENOBUFS), submitAndNext(ring), "no data, never provided");
            Fds.write(s[1], ascii("x"));
            prepSelectRecv(ring, s[0], 99, 2);
            assertEquals(cqe(2, -Errno.ENOBUFS), submitAndNext(ring), "data, never provided");
            assertEquals(1, Fds.read(s[0], new byte[4]), "the failed recvs left the data");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void anExhaustedGroupServesAgainOnceBuffersAreReturned(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment region = arena.allocate(2 * LEN);
            provide(ring, region, 2, 3, 0, 1);
            for (int bid = 0; bid < 2; bid++) {
                Fds.write(s[1], ascii("m" + bid));
                prepSelectRecv(ring, s[0], 3, 10 + bid);
                assertEquals(cqe(10 + bid, 2, buffer(bid)), submitAndNext(ring));
            }
            prepSelectRecv(ring, s[0], 3, 12);
            assertEquals(cqe(12, -Errno.ENOBUFS), submitAndNext(ring), "exhausted, no data");
            Fds.write(s[1], ascii("zz"));
            prepSelectRecv(ring, s[0], 3, 13);
            assertEquals(cqe(13, -Errno.ENOBUFS), submitAndNext(ring), "exhausted, data waiting");

            // The application hands the buffers back, one at a time, 1 first: FIFO again.
            provide(ring, slice(region, 0, 1), 1, 3, 1, 14);
            provide(ring, slice(region, 0, 0), 1, 3, 0, 15);
            prepSelectRecv(ring, s[0], 3, 16);
            assertEquals(cqe(16, 2, buffer(1)), submitAndNext(ring));
            assertEquals("zz", NetTestSupport.ascii(slice(region, 0, 1), 2));
            Fds.write(s[1], ascii("yy"));
            prepSelectRecv(ring, s[0], 3, 17);
            assertEquals(cqe(17, 2, buffer(0)), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aRecvWaitingForDataDoesNotHoldABuffer(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] a = fds.socketPair();
            int[] b = fds.socketPair();
            MemorySegment region = arena.allocate(2 * LEN);
            provide(ring, region, 2, 1, 0, 1);
            prepSelectRecv(ring, a[0], 1, 2);
            ring.submit();
            assertNoCqe(ring);
            // Linux selects a buffer for the attempt and puts it back at the head when it has to
            // wait: another recv with data gets buffer 0.
            Fds.write(b[1], ascii("bb"));
            prepSelectRecv(ring, b[0], 1, 3);
            assertEquals(cqe(3, 2, buffer(0)), submitAndNext(ring));
            try (Later<Void> w = later("writer", () -> Fds.write(a[1], ascii("aa")))) {
                assertEquals(cqe(2, 2, buffer(1)), next(ring));
            }
            assertEquals("aa", NetTestSupport.ascii(slice(region, 0, 1), 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aRecvAtEofOrFailingWithEagainKeepsNoBuffer(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(2 * LEN);
            provide(ring, region, 2, 11, 0, 1);
            int[] quiet = fds.socketPair();
            sqe(ring).prepRecv(quiet[0], null, MSG_DONTWAIT).flags(SqeFlags.BUFFER_SELECT).bufferGroup(11).userData(2);
            assertEquals(cqe(2, -Errno.EAGAIN), submitAndNext(ring), "no BUFFER flag: nothing used");
            int[] eof = fds.socketPair();
            fds.close(eof[1]);
            prepSelectRecv(ring, eof[0], 11, 3);
            assertEquals(cqe(3, 0), submitAndNext(ring), "recv EOF puts the buffer back");
            assertEquals(2, removeAll(ring, 11, 4), "both buffers still in the group");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void removeBuffersReturnsHowManyItRemoved(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(5 * LEN);
            provide(ring, region, 5, 8, 0, 1);
            sqe(ring).prepRemoveBuffers(3, 8).userData(2);
            assertEquals(cqe(2, 3), submitAndNext(ring));
            sqe(ring).prepRemoveBuffers(10, 8).userData(3);
            assertEquals(cqe(3, 2), submitAndNext(ring), "only two were left");
            // Linux 6.x keeps an emptied group: removing from it is 0, not -ENOENT (5.x erased
            // a group when it became empty, and answered -ENOENT).
            sqe(ring).prepRemoveBuffers(1, 8).userData(4);
            assertEquals(cqe(4, 0), submitAndNext(ring));
            sqe(ring).prepRemoveBuffers(1, 12345).userData(5);
            assertEquals(cqe(5, -Errno.ENOENT), submitAndNext(ring), "a group never provided");

            // Removed buffers are no longer selected; a group emptied by recvs also reports 0.
            int[] s = fds.socketPair();
            Fds.write(s[1], ascii("x"));
            prepSelectRecv(ring, s[0], 8, 6);
            assertEquals(cqe(6, -Errno.ENOBUFS), submitAndNext(ring));
            provide(ring, region, 1, 8, 40, 7);
            prepSelectRecv(ring, s[0], 8, 8);
            assertEquals(cqe(8, 1, buffer(40)), submitAndNext(ring));
            assertEquals(0, removeAll(ring, 8, 9));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void readWithBufferSelectOnAPipe(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment region = arena.allocate(3 * LEN);
            provide(ring, region, 3, 10, 100, 1);
            Fds.write(p[1], ascii("pipe!"));
            sqe(ring).prepRead(p[0], null, -1).flags(SqeFlags.BUFFER_SELECT).bufferGroup(10).userData(31);
            assertEquals(cqe(31, 5, buffer(100)), submitAndNext(ring));
            assertEquals("pipe!", NetTestSupport.ascii(slice(region, 100, 100), 5));

            sqe(ring).prepRead(p[0], null, -1).flags(SqeFlags.BUFFER_SELECT).bufferGroup(10).userData(32);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(p[1], ascii("later")))) {
                assertEquals(cqe(32, 5, buffer(101)), next(ring));
            }
            assertEquals("later", NetTestSupport.ascii(slice(region, 100, 101), 5));

            // Unlike recv, a read at EOF does use up its buffer (Linux's rw path completes
            // with the buffer whatever the result).
            fds.close(p[1]);
            sqe(ring).prepRead(p[0], null, -1).flags(SqeFlags.BUFFER_SELECT).bufferGroup(10).userData(33);
            assertEquals(cqe(33, 0, buffer(102)), submitAndNext(ring));
            assertEquals(0, removeAll(ring, 10, 34));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void groupsAreIndependent(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment one = arena.allocate(2 * LEN);
            MemorySegment two = arena.allocate(2 * LEN);
            provide(ring, one, 2, 1, 0, 1);
            provide(ring, two, 2, 2, 0, 2);
            Fds.write(s[1], ascii("to-two"));
            prepSelectRecv(ring, s[0], 2, 3);
            assertEquals(cqe(3, 6, buffer(0)), submitAndNext(ring));
            assertEquals("to-two", NetTestSupport.ascii(two, 6));
            assertEquals(2, removeAll(ring, 1, 4));
            assertEquals(1, removeAll(ring, 2, 5));
        }
    }

    @Test
    void invalidProvideAndRemoveArgumentsAreEinval() {
        try (IoUring ring = ring(0); Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(2 * LEN);
            sqe(ring).prepProvideBuffers(region, 0, 2, 1, 0).userData(1);
            assertEquals(cqe(1, -Errno.EINVAL), submitAndNext(ring), "buffer length 0");
            sqe(ring).prepProvideBuffers(region, LEN, 2, 1, 65535).userData(2);
            assertEquals(cqe(2, -Errno.EINVAL), submitAndNext(ring), "ids past 65535");
            sqe(ring).prepRemoveBuffers(0, 1).userData(3);
            assertEquals(cqe(3, -Errno.EINVAL), submitAndNext(ring), "remove 0");
            // Linux answers a count of 0 with -E2BIG today and -EINVAL in older 6.x: not pinned here.
        }
    }
}
