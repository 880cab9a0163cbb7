package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.assertAnyOrder;
import static io.jring.conformance.ConformanceSupport.assertNoCqe;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A CQ overflowing (liburing test/cq-overflow.c, with IORING_FEAT_NODROP as every Linux since
 * 5.5 has it): completions that find the CQ full wait in an overflow list and are delivered,
 * in order, as the application makes room; nothing is lost or duplicated; submitting while
 * overflowed works; completions arriving later queue behind the overflowed ones.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CqOverflowTest {

    private static IoUring tinyRing(int setup) {
        IoUring ring = IoUring.builder().entries(4).cqEntries(4).flags(setup).build();
        assertEquals(4, ring.cqEntries());
        return ring;
    }

    private static void submitNops(IoUring ring, long firstUd, int n) {
        for (int i = 0; i < n; i++) {
            sqe(ring).prepNop().userData(firstUd + i);
        }
        assertEquals(n, ring.submit(), "a submit with the CQ overflowed works");
        assertTrue(ring.cqReady() <= ring.cqEntries(), "cqReady never exceeds the CQ size");
    }

    private static List<Completion> nops(long from, long to) {
        List<Completion> out = new ArrayList<>();
        for (long ud = from; ud < to; ud++) {
            out.add(cqe(ud, 0));
        }
        return out;
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void nopsOverflowingTheCqAreAllDeliveredInOrder(int setup) {
        try (IoUring ring = tinyRing(setup)) {
            for (int ud = 0; ud < 64; ud += 4) {
                submitNops(ring, ud, 4);
            }
            assertEquals(4, ring.cqReady(), "the CQ is full, the rest wait in the overflow list");
            assertEquals(nops(0, 64), next(ring, 64));
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void laterCompletionsQueueBehindTheOverflowedOnes(int setup) {
        try (IoUring ring = tinyRing(setup)) {
            submitNops(ring, 0, 4);
            submitNops(ring, 4, 4);
            List<Completion> got = new ArrayList<>(next(ring, 2));
            submitNops(ring, 8, 2);
            got.addAll(next(ring, 8));
            assertEquals(nops(0, 10), got);
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void forEachCqeDrainsTheOverflowListInOrder(int setup) {
        try (IoUring ring = tinyRing(setup)) {
            for (int ud = 0; ud < 16; ud += 4) {
                submitNops(ring, ud, 4);
            }
            List<Completion> got = new ArrayList<>();
            for (int calls = 0; got.size() < 16 && calls < 100; calls++) {
                ring.forEachCqe((ud, res, flags) -> got.add(new Completion(ud, res, flags)));
            }
            assertEquals(nops(0, 16), got);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void pollCompletionsOverflowingTheCqAreAllDelivered(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = tinyRing(setup)) {
            int n = 12;
            int[][] pipes = new int[n][];
            List<Completion> want = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                pipes[i] = fds.pipe();
                sqe(ring).prepPollAdd(pipes[i][0], Poll.IN).userData(i);
                if (ring.sqSpaceLeft() == 0) {
                    ring.submit();
                }
                want.add(cqe(i, Poll.IN));
            }
            ring.submit();
            assertNoCqe(ring);
            for (int[] p : pipes) {
                Fds.write(p[1], ascii("x"));
            }
            assertAnyOrder(want, next(ring, n));
            assertNoCqe(ring);
        }
    }
}
