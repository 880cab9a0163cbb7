package io.jring.net;

import static io.jring.net.NetTestSupport.DEFER;
import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.assertQuiet;
import static io.jring.net.NetTestSupport.buffer;
import static io.jring.net.NetTestSupport.byUserData;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.later;
import static io.jring.net.NetTestSupport.laterCall;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.segment;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SqeFlags#ASYNC} on pollable files (seed 003; kernel io_uring/io_uring.c
 * io_wq_submit_work): the request goes to io-wq at once. Today's Linux ("async hybrid"): the
 * worker tries without blocking and, on EAGAIN, arms poll and is free again.
 * {@code IoUring.Builder.legacyAsync(true)} keeps the old way (the worker blocks in the call).
 * Either way the application sees the same CQEs as without ASYNC; only the workers differ,
 * which shows when the unbound worker limit is smaller than the number of waiting requests.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AsyncHybridTest {

    static Stream<Arguments> ringKindsAndModes() {
        return Stream.of(Arguments.of(0, false), Arguments.of(DEFER, false),
                Arguments.of(0, true), Arguments.of(DEFER, true));
    }

    @ParameterizedTest(name = "setup 0x{0} legacyAsync={1}")
    @MethodSource("ringKindsAndModes")
    void asyncRecvOnASocketThatGetsDataLater(int setup, boolean legacy) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup, legacy); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(64);
            sqe(ring).prepRecv(s[0], buf, 0).flags(SqeFlags.ASYNC).userData(1);
            assertEquals(1, ring.submit());
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(s[1], ascii("hello")))) {
                assertEquals(cqe(1, 5), withoutNonEmptyHint(next(ring)));
            }
            assertEquals("hello", NetTestSupport.ascii(buf, 5));
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0} legacyAsync={1}")
    @MethodSource("ringKindsAndModes")
    void asyncRecvWithBufferSelect(int setup, boolean legacy) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup, legacy); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment region = arena.allocate(2 * 16);
            sqe(ring).prepProvideBuffers(region, 16, 2, 3, 0).userData(1);
            assertEquals(cqe(1, 0), submitAndNext(ring));
            sqe(ring).prepRecv(s[0], null, 0).flags(SqeFlags.ASYNC | SqeFlags.BUFFER_SELECT).bufferGroup(3).userData(2);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(s[1], ascii("sel")))) {
                assertEquals(cqe(2, 3, buffer(0)), next(ring));
            }
            assertEquals("sel", NetTestSupport.ascii(region, 3));
        }
    }

    @ParameterizedTest(name = "setup 0x{0} legacyAsync={1}")
    @MethodSource("ringKindsAndModes")
    void asyncRecvAtEofAndAsyncSend(int setup, boolean legacy) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup, legacy); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            sqe(ring).prepSend(s[0], segment(arena, "abc"), 0).flags(SqeFlags.ASYNC).userData(1);
            assertEquals(cqe(1, 3), submitAndNext(ring));
            byte[] got = new byte[8];
            assertEquals(3, Fds.read(s[1], got));

            MemorySegment buf = arena.allocate(8);
            sqe(ring).prepRecv(s[1], buf, 0).flags(SqeFlags.ASYNC).userData(2);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Void> c = later("closer", () -> fds.close(s[0]))) {
                assertEquals(cqe(2, 0), withoutNonEmptyHint(next(ring)));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0} legacyAsync={1}")
    @MethodSource("ringKindsAndModes")
    void asyncAcceptWaitsForAClient(int setup, boolean legacy) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup, legacy)) {
            int listener = fds.listen(IPV4, 4);
            InetSocketAddress address = Fds.localAddress(listener);
            sqe(ring).prepAccept(listener, 0).flags(SqeFlags.ASYNC).userData(1);
            ring.submit();
            assertNoCqe(ring);
            try (Later<Integer> c = laterCall("client", () -> Fds.connectTcp(address))) {
                Completion accepted = withoutNonEmptyHint(next(ring));
                fds.add(c.join());
                assertEquals(1, accepted.userData());
                assertTrue(accepted.res() >= 0, "ACCEPT: " + accepted);
                assertEquals(0, accepted.flags());
                fds.add(accepted.res());
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void hybridAsyncRecvsDoNotHoldAnUnboundWorkerWhileTheyWait(int setup) {
        int n = 4;
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup, false); Arena arena = Arena.ofConfined()) {
            ring.registerIoWqMaxWorkers(0, 1);
            int[][] pairs = new int[n][];
            MemorySegment[] bufs = new MemorySegment[n];
            for (int i = 0; i < n; i++) {
                pairs[i] = fds.socketPair();
                bufs[i] = arena.allocate(16);
                sqe(ring).prepRecv(pairs[i][0], bufs[i], 0).flags(SqeFlags.ASYNC).userData(100 + i);
            }
            assertEquals(n, ring.submit());
            assertNoCqe(ring);
            // One worker for all four: each tried once, armed poll and let go of the worker,
            // so data for the last one completes it although the first three still wait.
            try (Later<Void> w = later("writer", () -> Fds.write(pairs[n - 1][1], ascii("last")))) {
                assertEquals(cqe(100 + n - 1, 4), withoutNonEmptyHint(next(ring)));
            }
            assertNoCqe(ring);
            for (int i = 0; i < n - 1; i++) {
                Fds.write(pairs[i][1], ascii("m" + i));
            }
            Map<Long, Completion> rest = byUserData(next(ring, n - 1));
            for (int i = 0; i < n - 1; i++) {
                assertEquals(cqe(100 + i, 2), withoutNonEmptyHint(rest.get(100L + i)));
                assertEquals("m" + i, NetTestSupport.ascii(bufs[i], 2));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void legacyAsyncRecvsWaitForTheirWorker(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup, true); Arena arena = Arena.ofConfined()) {
            ring.registerIoWqMaxWorkers(0, 1);
            int[] a = fds.socketPair();
            int[] b = fds.socketPair();
            MemorySegment bufA = arena.allocate(16);
            MemorySegment bufB = arena.allocate(16);
            sqe(ring).prepRecv(a[0], bufA, 0).flags(SqeFlags.ASYNC).userData(1);
            sqe(ring).prepRecv(b[0], bufB, 0).flags(SqeFlags.ASYNC).userData(2);
            assertEquals(2, ring.submit());
            assertNoCqe(ring);
            // The only unbound worker blocks in A's recv: B's data alone completes nothing.
            Fds.write(b[1], ascii("bb"));
            assertQuiet(ring);
            try (Later<Void> w = later("writer", () -> Fds.write(a[1], ascii("aaa")))) {
                // The same CQEs as in hybrid mode, just later.
                Map<Long, Completion> done = byUserData(next(ring, 2));
                assertEquals(cqe(1, 3), withoutNonEmptyHint(done.get(1L)));
                assertEquals(cqe(2, 2), withoutNonEmptyHint(done.get(2L)));
            }
            assertEquals("aaa", NetTestSupport.ascii(bufA, 3));
            assertEquals("bb", NetTestSupport.ascii(bufB, 2));
        }
    }
}
