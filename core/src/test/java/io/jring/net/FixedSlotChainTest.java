package io.jring.net;

import static io.jring.net.NetTestSupport.IPV4;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.readFully;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.withoutNonEmptyHint;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A FIXED_FILE request linked after the SOCKET that fills its slot (liburing's
 * bind-listen.c: socket_direct, then connect and send on the slot, one chain): Linux looks a
 * fixed file up when it issues the request, so the slot holds the new socket by then. CONNECT
 * and ACCEPT read their socket's flags and kind, which jring did at prep, when the slot was
 * still empty (-EBADF); now at their first attempt.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FixedSlotChainTest {
    private static final int AF_INET = 2;
    private static final int SOCK_STREAM = 1;

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void connectOnASlotALinkedSocketFilledConnectsAndSends(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int listener = fds.listen(IPV4, 4);
            InetSocketAddress address = Fds.localAddress(listener);
            ring.registerFiles(new int[] {-1});
            sqe(ring).prepSocket(AF_INET, SOCK_STREAM, 0).fileIndex(1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepConnect(0, address).userData(2).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_LINK);
            sqe(ring).prepSend(0, NetTestSupport.segment(arena, "chain"), 0).userData(3).flags(SqeFlags.FIXED_FILE);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, 0), cqe(3, 5)), next(ring, 3));
            sqe(ring).prepAccept(listener, 0).userData(4);
            ring.submit();
            int server = fds.add(withoutNonEmptyHint(next(ring)).res());
            assertArrayEquals(NetTestSupport.ascii("chain"), readFully(server, 5));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void acceptOnASlotALinkedSocketFilledIsTheSocketsError(int setup) {
        try (IoUring ring = ring(setup)) {
            ring.registerFiles(new int[] {-1});
            sqe(ring).prepSocket(AF_INET, SOCK_STREAM, 0).fileIndex(1).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepAccept(0, 0).userData(2).flags(SqeFlags.FIXED_FILE);
            assertEquals(2, ring.submit());
            // Linux 6.18: accept on a socket that does not listen is -EINVAL (not -EBADF)
            assertEquals(List.of(cqe(1, 0), cqe(2, -Errno.EINVAL)),
                    next(ring, 2).stream().map(NetTestSupport::withoutNonEmptyHint).toList());
        }
    }
}
