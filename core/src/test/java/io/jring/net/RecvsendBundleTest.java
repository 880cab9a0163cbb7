package io.jring.net;

import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.buffer;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.readFully;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.BufRing;
import io.jring.CqeFlags;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bundles (liburing test/recvsend_bundle.c; kernel io_uring/net.c IORING_RECVSEND_BUNDLE): one
 * SEND or RECV uses several buffers of its ring in a row, its CQE's result all their bytes,
 * its buffer id the first one's; the buffers used are the next ones in ring order. A SEND
 * bundle goes out whole and in ring order; a RECV bundle fills its buffers in order, going on
 * into further buffers while the socket holds more (as Linux's IORING_RECV_RETRY).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecvsendBundleTest {
    private static final int G = 2;
    private static final int LEN = 16;

    static java.util.stream.Stream<Integer> ringKinds() {
        return NetTestSupport.ringKinds();
    }

    private static MemorySegment fill(BufRing br, Arena arena, int count, int firstBid) {
        MemorySegment region = arena.allocate((long) count * LEN);
        for (int i = 0; i < count; i++) {
            br.add(region.asSlice((long) i * LEN, LEN), firstBid + i, i);
        }
        br.advance(count);
        return region;
    }

    private static String text(MemorySegment seg, long len) {
        return new String(seg.asSlice(0, len).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("ringKinds")
    void sendBundleSendsItsBuffersWholeAndInRingOrder(int setup) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, 0)) {
            int[] pair = fds.socketPair();
            MemorySegment region = fill(br, arena, 5, 20);
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                String s = ("buffer-" + i + "-" + "abcdefgh").substring(0, LEN);
                MemorySegment.copy(ascii(s), 0, region, ValueLayout.JAVA_BYTE, (long) i * LEN, LEN);
                expected.append(s);
            }
            sqe(ring).prepSendBundle(pair[0], 0, 0).bufferSelect(G).userData(1);
            assertEquals(cqe(1, 5 * LEN, buffer(20)), submitAndNext(ring));
            assertEquals(expected.toString(), new String(readFully(pair[1], 5 * LEN), StandardCharsets.US_ASCII));
            assertEquals(5, ring.bufRingHead(G));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("ringKinds")
    void recvBundleFillsBuffersInRingOrderIntoOneCqe(int setup) {
        try (IoUring ring = ring(setup); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, 0)) {
            int[] pair = fds.socketPair();
            MemorySegment region = fill(br, arena, 8, 0);
            String data = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP";   // 52 bytes: 3 buffers and 4
            Fds.write(pair[1], ascii(data));
            sqe(ring).prepRecv(pair[0], null, 0).ioprio(Sqe.RECVSEND_BUNDLE).bufferSelect(G).userData(1);
            // The first buffer, then (it was full, 36 more wait) those 36 bytes take: two whole
            // buffers; the third would be only partly filled and is left out of the mapping.
            assertEquals(cqe(1, 48, buffer(0) | CqeFlags.SOCK_NONEMPTY), submitAndNext(ring));
            assertEquals(data.substring(0, 48), text(region, 48));
            assertEquals(3, ring.bufRingHead(G));
            sqe(ring).prepRecv(pair[0], null, 0).ioprio(Sqe.RECVSEND_BUNDLE).bufferSelect(G).userData(2);
            assertEquals(cqe(2, 4, buffer(3)), submitAndNext(ring));
            assertEquals(data.substring(48), text(region.asSlice(3L * LEN), 4));
        }
    }

    @Test
    void recvBundleWithAMultishotPostsABundlePerArrival() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined();
                BufRing br = BufRing.setup(ring, 8, G, 0)) {
            int[] pair = fds.socketPair();
            MemorySegment region = fill(br, arena, 8, 0);
            sqe(ring).prepRecvMultishot(pair[0], null, 0).ioprio(Sqe.RECV_MULTISHOT | Sqe.RECVSEND_BUNDLE)
                    .bufferSelect(G).userData(1);
            ring.submit();
            Fds.write(pair[1], ascii("x".repeat(LEN)));
            assertEquals(cqe(1, LEN, buffer(0) | CqeFlags.MORE), next(ring));
            Fds.write(pair[1], ascii("y".repeat(LEN + 4)));
            assertEquals(cqe(1, LEN + 4, buffer(1) | CqeFlags.MORE), next(ring));
            assertEquals("y".repeat(LEN + 4), text(region.asSlice(LEN), LEN + 4));
            assertEquals(3, ring.bufRingHead(G));
        }
    }

    @Test
    void sendBundleWithoutBufferSelectSendsItsDataThenZeroBytes() {
        try (IoUring ring = IoUring.open(8); OpenFds fds = new OpenFds(); Arena arena = Arena.ofConfined()) {
            int[] pair = fds.socketPair();
            sqe(ring).prepSend(pair[0], NetTestSupport.segment(arena, "abc"), 0).ioprio(Sqe.RECVSEND_BUNDLE)
                    .userData(1);
            ring.submit();
            assertEquals(java.util.List.of(cqe(1, 3, CqeFlags.MORE), cqe(1, 0)), NetTestSupport.next(ring, 2));
            assertEquals("abc", new String(readFully(pair[1], 3), StandardCharsets.US_ASCII));
        }
    }
}
