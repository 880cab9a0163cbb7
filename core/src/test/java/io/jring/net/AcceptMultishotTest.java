package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.IPV6;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.assertQuiet;
import static io.jring.net.NetTestSupport.byUserData;
import static io.jring.net.NetTestSupport.concurrently;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.readFully;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.testkit.RingTestSupport.Later;
import io.jring.net.NetTestSupport.OpenFds;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multishot IORING_OP_ACCEPT (IORING_ACCEPT_MULTISHOT; liburing test/accept.c multishot
 * cases; kernel io_uring/net.c io_accept): one CQE per connection, each with
 * {@link CqeFlags#MORE}, first for every connection already queued on the listener, then for
 * each new client. Shutting the listener down ends it: the listener is no longer listening, so
 * the retried accept fails with -EINVAL and that last CQE has no MORE.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AcceptMultishotTest {
    private static final int PRE_CONNECTED = 4;
    private static final int LATER_CLIENTS = 28;
    private static final int CLIENT_THREADS = 4;

    static Stream<Arguments> ringKindsAndLoopbacks() {
        return NetTestSupport.ringKindsAndLoopbacks();
    }

    /** Connects {@code n} clients from a few threads at once; each sends its 4-byte id. */
    private static List<Later<List<Integer>>> connectClients(InetSocketAddress address, int firstId, int n) {
        List<Later<List<Integer>>> threads = new ArrayList<>();
        for (int t = 0; t < CLIENT_THREADS; t++) {
            int thread = t;
            threads.add(concurrently("clients-" + t, () -> {
                List<Integer> mine = new ArrayList<>();
                for (int id = firstId + thread; id < firstId + n; id += CLIENT_THREADS) {
                    int fd = Fds.connectTcp(address);
                    mine.add(fd);
                    Fds.write(fd, ByteBuffer.allocate(4).putInt(id).array());
                }
                return mine;
            }));
        }
        return threads;
    }

    private static int idFrom(int server) {
        return ByteBuffer.wrap(readFully(server, 4)).getInt();
    }

    @ParameterizedTest(name = "setup 0x{0} {1}")
    @MethodSource("ringKindsAndLoopbacks")
    void multishotAcceptPostsOneCqeWithMorePerClient(int setup, InetAddress loopback) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.listen(loopback, 128);
            InetSocketAddress address = Fds.localAddress(listener);
            Set<Integer> ids = new HashSet<>();

            // Clients already queued before the accept is armed are all accepted at once.
            for (Later<List<Integer>> t : connectClients(address, 0, PRE_CONNECTED)) {
                fds.add(t.join().stream().mapToInt(Integer::intValue).toArray());
            }
            sqe(ring).prepMultishotAccept(listener, 0).userData(20);
            assertEquals(1, ring.submit());
            for (int i = 0; i < PRE_CONNECTED; i++) {
                Completion a = withoutNonEmptyHint(next(ring));
                assertEquals(20, a.userData());
                assertTrue(a.res() >= 0, "ACCEPT: " + a);
                assertEquals(CqeFlags.MORE, a.flags(), "ACCEPT: " + a);
                assertTrue(ids.add(idFrom(fds.add(a.res()))));
            }
            assertNoCqe(ring);

            // Then one CQE per client connecting while it is armed.
            List<Later<List<Integer>>> clients = connectClients(address, PRE_CONNECTED, LATER_CLIENTS);
            try {
                for (int i = 0; i < LATER_CLIENTS; i++) {
                    Completion a = withoutNonEmptyHint(next(ring));
                    assertEquals(20, a.userData());
                    assertTrue(a.res() >= 0, "ACCEPT: " + a);
                    assertEquals(CqeFlags.MORE, a.flags(), "ACCEPT: " + a);
                    assertTrue(ids.add(idFrom(fds.add(a.res()))), "a connection accepted twice");
                }
            } finally {
                for (Later<List<Integer>> t : clients) {
                    fds.add(t.join().stream().mapToInt(Integer::intValue).toArray());
                }
            }
            assertEquals(PRE_CONNECTED + LATER_CLIENTS, ids.size());
            assertNoCqe(ring);

            sqe(ring).prepShutdown(listener, Fds.SHUT_RDWR).userData(21);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(21, 0), done.get(21L));
            assertEquals(cqe(20, -Errno.EINVAL), done.get(20L), "ended, without MORE");
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void shutdownOfAnIdleListenerEndsMultishotAccept(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.listen(IPV6, 4);
            sqe(ring).prepMultishotAccept(listener, 0).userData(1);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepShutdown(listener, Fds.SHUT_RDWR).userData(2);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(2, 0), done.get(2L));
            assertEquals(cqe(1, -Errno.EINVAL), done.get(1L));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void multishotAndSingleAcceptsShareTheQueue(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.listen(IPV4, 16);
            InetSocketAddress address = Fds.localAddress(listener);
            fds.connect(address);
            sqe(ring).prepAccept(listener, 0).userData(1);
            Completion single = withoutNonEmptyHint(submitAndNext(ring));
            assertTrue(single.res() >= 0, "ACCEPT: " + single);
            assertEquals(0, single.flags(), "a single-shot accept has no MORE");
            fds.add(single.res());

            sqe(ring).prepMultishotAccept(listener, 0).userData(2);
            ring.submit();
            assertNoCqe(ring);
            fds.connect(address);
            Completion multi = withoutNonEmptyHint(next(ring));
            assertEquals(2, multi.userData());
            assertTrue(multi.res() >= 0, "ACCEPT: " + multi);
            assertEquals(CqeFlags.MORE, multi.flags());
            fds.add(multi.res());
            assertNoCqe(ring);

            sqe(ring).prepShutdown(listener, Fds.SHUT_RDWR).userData(3);
            ring.submit();
            Map<Long, Completion> done = byUserData(next(ring, 2));
            assertEquals(cqe(3, 0), done.get(3L));
            assertEquals(cqe(2, -Errno.EINVAL), done.get(2L));
        }
    }
}
