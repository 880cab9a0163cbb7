package io.jring.net;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.testkit.RingTestSupport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Shared helpers of the network tests (not a test class): {@link RingTestSupport} plus
 * loopback addresses, socket descriptors and the SOCK_NONEMPTY rule. Black box: only the
 * public {@code io.jring} API and {@link Fds}.
 *
 * <p>Every expectation in this package was checked against Linux io_uring itself (kernel
 * 6.18, liburing 2.3) with small C probes, and against the kernel's io_uring/net.c, poll.c
 * and kbuf.c; where Linux versions differ the test says so.
 */
class NetTestSupport extends RingTestSupport {
    private NetTestSupport() {}

    /** How long "nothing more happens" is watched for (absence checks only, never synchronisation). */
    static final Duration QUIET = Duration.ofMillis(50);

    /** Linux {@code MSG_*} values (recv/send flags); io.jring has no public constants for them yet. */
    static final int MSG_DONTWAIT = 0x40;
    static final int MSG_WAITALL = 0x100;

    static final InetAddress IPV4 = InetAddress.ofLiteral("127.0.0.1");
    static final InetAddress IPV6 = InetAddress.ofLiteral("::1");

    /** Ring kinds x loopback families: (setup flags, address). */
    static Stream<Arguments> ringKindsAndLoopbacks() {
        return Stream.of(Arguments.of(0, IPV4), Arguments.of(DEFER, IPV4),
                Arguments.of(0, IPV6), Arguments.of(DEFER, IPV6));
    }

    static IoUring ring(int setup, boolean legacyAsync) {
        return IoUring.builder().entries(64).flags(setup).legacyAsync(legacyAsync).build();
    }

    /**
     * For recv and accept CQEs. {@link io.jring.CqeFlags#SOCK_NONEMPTY} is a hint whose presence
     * differs between Linux versions and protocols (TCP recv has set it for a long time, AF_UNIX
     * recv and accept only in recent 6.x kernels; TCP even sets it on the EOF recv: all seen on
     * 6.18), so these tests never require it: they compare CQEs without it. (A recv that leaves
     * the socket empty, before EOF, is compared exactly: Linux never sets the hint there.)
     */
    static Completion withoutNonEmptyHint(Completion c) {
        return c.withoutNonEmptyHint();
    }

    /** No CQE arrives within {@link #QUIET}: for "this must not complete" checks only. */
    static void assertQuiet(IoUring ring) {
        assertQuietFor(ring, QUIET);
    }

    /** Descriptors a test opened, closed at the end; plus TCP listeners and connections. */
    static final class OpenFds extends Descriptors {
        /** A loopback TCP listener on a free port. */
        int listen(InetAddress loopback, int backlog) {
            return add(Fds.listenTcp(new InetSocketAddress(loopback, 0), backlog));
        }

        int connect(InetSocketAddress address) {
            return add(Fds.connectTcp(address));
        }
    }

    /** A port that was free a moment ago: bound, then released (connects to it are refused). */
    static InetSocketAddress closedPort(InetAddress loopback) {
        int fd = Fds.listenTcp(new InetSocketAddress(loopback, 0), 1);
        InetSocketAddress address = Fds.localAddress(fd);
        Fds.close(fd);
        return address;
    }
}
