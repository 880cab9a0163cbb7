package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.assertQuiet;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.readFully;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.net.NetTestSupport.OpenFds;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ACCEPT into the fixed-file table (liburing's io_uring_prep_accept_direct and
 * io_uring_prep_multishot_accept_direct; Linux 6.18's io_accept with a file index, checked
 * with tool/anchors/cancel_order.c): the connection goes into the slot, the CQE says 0 (the
 * slot for FILE_INDEX_ALLOC), whether the accept ran inline, after waiting on poll, or in
 * io-wq. The cases the kernel cross-check can drive (a connection already waiting) are in
 * {@code CancelOrderScenarios}; these are the ones that wait for a client.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AcceptDirectTest {

    /** The fixed slot holds the accepted connection: a SEND on it reaches {@code client}. */
    private static void assertSlotConnectedTo(IoUring ring, Arena arena, int slot, int client, long ud) {
        sqe(ring).prepSend(slot, NetTestSupport.segment(arena, "hi"), 0).flags(SqeFlags.FIXED_FILE).userData(ud);
        ring.submit();
        assertEquals(cqe(ud, 2), next(ring));
        assertArrayEquals(NetTestSupport.ascii("hi"), readFully(client, 2));
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void directAcceptWaitingOnPollInstallsTheConnectionWhenAClientComes(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int listener = fds.listen(IPV4, 4);
            ring.registerFiles(new int[] {-1, -1});
            sqe(ring).prepAccept(listener, 0).fileIndex(2).userData(1);
            ring.submit();
            assertQuiet(ring);
            int client = fds.connect(Fds.localAddress(listener));
            assertEquals(cqe(1, 0), withoutNonEmptyHint(next(ring)));
            assertSlotConnectedTo(ring, arena, 1, client, 2);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void asyncDirectAcceptInstallsFromIoWq(int setup) {
        for (boolean legacyAsync : new boolean[] {false, true}) {
            try (OpenFds fds = new OpenFds(); IoUring ring = NetTestSupport.ring(setup, legacyAsync);
                    Arena arena = Arena.ofConfined()) {
                int listener = fds.listen(IPV4, 4);
                int client = fds.connect(Fds.localAddress(listener));
                ring.registerFiles(new int[] {-1, -1, -1});
                sqe(ring).prepAccept(listener, 0).fileIndex(Sqe.FILE_INDEX_ALLOC).flags(SqeFlags.ASYNC).userData(1);
                ring.submit();
                assertEquals(cqe(1, 0), withoutNonEmptyHint(next(ring)), "legacyAsync " + legacyAsync);
                assertSlotConnectedTo(ring, arena, 0, client, 2);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void asyncMultishotDirectAcceptFillsSlotsUntilTheTableIsFull(int setup) {
        for (boolean legacyAsync : new boolean[] {false, true}) {
            try (OpenFds fds = new OpenFds(); IoUring ring = NetTestSupport.ring(setup, legacyAsync);
                    Arena arena = Arena.ofConfined()) {
                int listener = fds.listen(IPV4, 4);
                InetSocketAddress address = Fds.localAddress(listener);
                int first = fds.connect(address);
                ring.registerFiles(new int[] {-1, -1});
                sqe(ring).prepMultishotAccept(listener, 0).fileIndex(Sqe.FILE_INDEX_ALLOC).flags(SqeFlags.ASYNC)
                        .userData(1);
                ring.submit();
                assertEquals(cqe(1, 0, CqeFlags.MORE), withoutNonEmptyHint(next(ring)), "legacyAsync " + legacyAsync);
                int second = fds.connect(address);
                assertEquals(cqe(1, 1, CqeFlags.MORE), withoutNonEmptyHint(next(ring)));
                fds.connect(address);
                assertEquals(cqe(1, -Errno.ENFILE), withoutNonEmptyHint(next(ring)), "ended, without MORE");
                assertSlotConnectedTo(ring, arena, 0, first, 2);
                assertSlotConnectedTo(ring, arena, 1, second, 3);
                assertQuiet(ring);
            }
        }
    }
}
