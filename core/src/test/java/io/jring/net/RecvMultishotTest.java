package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.buffer;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.BufRing;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.net.NetTestSupport.OpenFds;
import io.jring.testkit.RingTestSupport.Completion;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multishot RECV (liburing test/recv-multishot.c; kernel io_uring/net.c io_recv with
 * IORING_RECV_MULTISHOT): one SQE, a CQE with {@link CqeFlags#MORE} per arrival, each in a
 * buffer of its ring; the multishot ends, with a last CQE without MORE, at EOF (0), when the
 * ring is empty as data arrives (-ENOBUFS: what arrived stays in the socket), on a cancel
 * (-ECANCELED), or at its byte limit. Every byte arrives once and in order.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecvMultishotTest {
    private static final int G = 5;
    private static final int LEN = 64;
    private static final int ENTRIES = 8;

    static Stream<Arguments> kindsAndSockets() {
        return Stream.of(Arguments.of(0, false), Arguments.of(NetTestSupport.DEFER, false),
                Arguments.of(0, true), Arguments.of(NetTestSupport.DEFER, true));
    }

    /** A connected pair, [receiver, sender]: AF_UNIX stream, or TCP over loopback (accepted through the ring). */
    private static int[] connected(OpenFds fds, IoUring ring, boolean tcp) {
        if (!tcp) {
            return fds.socketPair();
        }
        int listener = fds.listen(IPV4, 4);
        int client = fds.connect(Fds.localAddress(listener));
        sqe(ring).prepAccept(listener, 0).userData(99);
        Completion accepted = NetTestSupport.withoutNonEmptyHint(submitAndNext(ring));
        assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
        return new int[] {fds.add(accepted.res()), client};
    }

    private static MemorySegment fill(BufRing br, Arena arena, int count) {
        MemorySegment region = arena.allocate((long) count * LEN);
        for (int i = 0; i < count; i++) {
            br.add(region.asSlice((long) i * LEN, LEN), i, i);
        }
        br.advance(count);
        return region;
    }

    private static void multishot(IoUring ring, int fd, long ud) {
        sqe(ring).prepRecvMultishot(fd, null, 0).bufferSelect(G).userData(ud);
    }

    /** recv-multishot.c's main loop: many messages through one SQE, buffers recycled as CQEs are handled. */
    @ParameterizedTest(name = "setup 0x{0} tcp {1}")
    @MethodSource("kindsAndSockets")
    void oneMultishotRecvDeliversEveryByteInOrderUntilEof(int setup, boolean tcp) {
        int messages = 200;
        // 1.3 KB in all: 32 buffers of 64 hold it even if it all comes at once (a ring that
        // runs dry ends the multishot, the next test), and the loop puts each back as it goes.
        int entries = 32;
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, entries, G, 0)) {
            int[] pair = connected(fds, ring, tcp);
            MemorySegment region = fill(br, arena, entries);
            multishot(ring, pair[0], 1);
            ring.submit();
            StringBuilder sent = new StringBuilder();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try (var writer = NetTestSupport.concurrently("writer", () -> {
                for (int i = 0; i < messages; i++) {
                    String m = "<" + i + ">";
                    synchronized (sent) {
                        sent.append(m);
                    }
                    Fds.write(pair[1], ascii(m));
                }
                fds.close(pair[1]);   // EOF
                return null;
            })) {
                for (;;) {
                    Completion c = next(ring);
                    assertEquals(1, c.userData());
                    if ((c.flags() & CqeFlags.MORE) == 0) {
                        assertEquals(0, c.res(), "the last CQE is the EOF: " + c);
                        break;
                    }
                    assertTrue(c.res() > 0 && (c.flags() & CqeFlags.BUFFER) != 0, c.toString());
                    int bid = CqeFlags.bufferId(c.flags());
                    MemorySegment buf = region.asSlice((long) bid * LEN, LEN);
                    got.writeBytes(buf.asSlice(0, c.res()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                    br.add(buf, bid, 0);
                    br.advance(1);
                }
            }
            assertEquals(sent.toString(), got.toString(java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @ParameterizedTest(name = "setup 0x{0} tcp {1}")
    @MethodSource("kindsAndSockets")
    void aRingThatRunsOutEndsTheMultishotWithEnobufsAndTheDataStaysInTheSocket(int setup, boolean tcp) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, ENTRIES, G, 0)) {
            int[] pair = connected(fds, ring, tcp);
            MemorySegment region = fill(br, arena, 1);
            multishot(ring, pair[0], 1);
            ring.submit();
            Fds.write(pair[1], ascii("first"));
            assertEquals(cqe(1, 5, buffer(0) | CqeFlags.MORE), NetTestSupport.withoutNonEmptyHint(next(ring)));
            Fds.write(pair[1], ascii("second"));
            assertEquals(cqe(1, -Errno.ENOBUFS), next(ring), "no buffer left as data arrives: the multishot ends");
            NetTestSupport.assertQuiet(ring);
            br.add(region, 0, 0);
            br.advance(1);
            multishot(ring, pair[0], 2);
            Completion c = NetTestSupport.withoutNonEmptyHint(submitAndNext(ring));
            assertEquals(cqe(2, 6, buffer(0) | CqeFlags.MORE), c, "a new multishot finds the bytes that waited");
            assertEquals("second", ascii(region, 6));
            sqe(ring).prepCancel(2, 0).userData(3);
            ring.submit();
            NetTestSupport.assertAnyOrder(java.util.List.of(cqe(3, 0), cqe(2, -Errno.ECANCELED)), NetTestSupport.next(ring, 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void aCancelEndsAnArmedMultishotWithEcanceledWithoutMore(int setup) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, ENTRIES, G, 0)) {
            int[] pair = fds.socketPair();
            fill(br, arena, ENTRIES);
            multishot(ring, pair[0], 1);
            ring.submit();
            NetTestSupport.assertQuiet(ring);
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            NetTestSupport.assertAnyOrder(java.util.List.of(cqe(2, 0), cqe(1, -Errno.ECANCELED)), NetTestSupport.next(ring, 2));
            assertEquals(0, ring.bufRingHead(G), "an armed multishot holds no buffer");
        }
    }

    @Test
    void aMultishotRecvNeedsBufferSelectAndRefusesWaitall() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int[] pair = fds.socketPair();
            sqe(ring).prepRecvMultishot(pair[0], arena.allocate(LEN), 0).userData(1);
            assertEquals(cqe(1, -Errno.EINVAL), submitAndNext(ring));
            sqe(ring).prepRecvMultishot(pair[0], null, NetTestSupport.MSG_WAITALL).bufferSelect(G).userData(2);
            assertEquals(cqe(2, -Errno.EINVAL), submitAndNext(ring));
        }
    }

    @Test
    void theByteLimitInFileIndexEndsTheMultishot() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, ENTRIES, G, 0)) {
            int[] pair = fds.socketPair();
            fill(br, arena, ENTRIES);
            sqe(ring).prepRecvMultishot(pair[0], null, 0).bufferSelect(G).fileIndex(8).userData(1);
            ring.submit();
            Fds.write(pair[1], ascii("abcde"));
            assertEquals(cqe(1, 5, buffer(0) | CqeFlags.MORE), next(ring));
            Fds.write(pair[1], ascii("fghij"));
            assertEquals(cqe(1, 5, buffer(1)), next(ring), "8 bytes reached: the last CQE");
        }
    }

    @Test
    void aMultishotWithAsyncWaitsArmedAndPostsFromItsTask() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, ENTRIES, G, 0)) {
            int[] pair = fds.socketPair();
            fill(br, arena, ENTRIES);
            sqe(ring).prepRecvMultishot(pair[0], null, 0).bufferSelect(G).flags(SqeFlags.ASYNC | SqeFlags.BUFFER_SELECT)
                    .userData(1);
            ring.submit();
            for (int i = 0; i < 3; i++) {
                Fds.write(pair[1], ascii("m" + i));
                assertEquals(cqe(1, 2, buffer(i) | CqeFlags.MORE), next(ring));
            }
            fds.close(pair[1]);
            assertEquals(cqe(1, 0), next(ring));
        }
    }

    @Test
    void closingTheRingEndsAnArmedMultishot() {
        OpenFds fds = new OpenFds();
        try (fds; Arena arena = Arena.ofConfined()) {
            int[] pair = fds.socketPair();
            IoUring ring = IoUring.open(8);
            BufRing br = BufRing.setup(ring, ENTRIES, G, BufRing.MMAP);
            fill(br, arena, ENTRIES);
            multishot(ring, pair[0], 1);
            ring.submit();
            Fds.write(pair[1], ascii("x"));
            next(ring);
            assertTimeoutPreemptively(Duration.ofSeconds(5), ring::close);
            br.close();   // the ring is gone: nothing to unregister
        }
    }

    @Test
    void pollFirstWaitsForDataBeforeTheFirstReceive() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, ENTRIES, G, 0)) {
            int[] pair = fds.socketPair();
            fill(br, arena, ENTRIES);
            sqe(ring).prepRecvMultishot(pair[0], null, 0).ioprio(Sqe.RECV_MULTISHOT | Sqe.RECVSEND_POLL_FIRST)
                    .bufferSelect(G).userData(1);
            ring.submit();
            NetTestSupport.assertQuiet(ring);
            Fds.write(pair[1], ascii("hey"));
            assertEquals(cqe(1, 3, buffer(0) | CqeFlags.MORE), next(ring));
        }
    }
}
