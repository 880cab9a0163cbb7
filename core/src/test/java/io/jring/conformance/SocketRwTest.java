package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.byUserData;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.readFully;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.segment;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.conformance.ConformanceSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sockets read and written through the ring (liburing test/socket-rw.c and its fixed-file
 * variants): a READV queued before the WRITEV that feeds it completes, on plain descriptors
 * and on fixed files; SOCKET and ACCEPT into fixed slots (direct descriptors, FILE_INDEX_ALLOC)
 * carry CONNECT, SEND, RECV and SHUTDOWN end to end.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SocketRwTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** socket-rw.c: a 128-byte READV on the server side, then a WRITEV from the client: both 128. */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aReadvQueuedBeforeTheWritevThatFeedsItCompletes(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int listener = fds.add(Fds.listenTcp(new InetSocketAddress(LOOPBACK, 0), 128));
            int client = fds.add(Fds.connectTcp(Fds.localAddress(listener)));
            sqe(ring).prepAccept(listener, 0).userData(1);
            ring.submit();
            int server = fds.add(next(ring).withoutNonEmptyHint().res());
            sqe(ring).prepReadv(server, new MemorySegment[] {arena.allocate(128)}, 0).userData(2);
            sqe(ring).prepWritev(client, new MemorySegment[] {arena.allocate(128)}, 0).userData(3);
            assertEquals(2, ring.submitAndWait(2));
            assertEquals(Map.of(2L, cqe(2, 128), 3L, cqe(3, 128)), byUserData(next(ring, 2)));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void theSameOnRegisteredFiles(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] pair = fds.socketPair();
            ring.registerFiles(pair);
            sqe(ring).prepReadv(0, new MemorySegment[] {arena.allocate(128)}, 0).userData(1)
                    .flags(SqeFlags.FIXED_FILE);
            sqe(ring).prepWritev(1, new MemorySegment[] {arena.allocate(128)}, 0).userData(2)
                    .flags(SqeFlags.FIXED_FILE);
            assertEquals(2, ring.submitAndWait(2));
            assertEquals(Map.of(1L, cqe(1, 128), 2L, cqe(2, 128)), byUserData(next(ring, 2)));
        }
    }

    /** A client made with SOCKET into a free slot connects, sends and shuts down, all on the slot. */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aDirectSocketConnectsSendsAndShutsDown(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int listener = fds.add(Fds.listenTcp(new InetSocketAddress(LOOPBACK, 0), 4));
            ring.registerFiles(new int[] {fds.pipe()[0], -1});
            sqe(ring).prepSocketDirectAlloc(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(1);
            ring.submit();
            assertEquals(cqe(1, 1), next(ring), "the free slot");
            sqe(ring).prepConnect(1, Fds.localAddress(listener)).userData(2).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_LINK);
            sqe(ring).prepSend(1, segment(arena, "direct"), 0).userData(3).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_LINK);
            sqe(ring).prepShutdown(1, Fds.SHUT_WR).userData(4).flags(SqeFlags.FIXED_FILE);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(2, 0), cqe(3, 6), cqe(4, 0)), next(ring, 3));
            sqe(ring).prepAccept(listener, 0).userData(5);
            ring.submit();
            int server = fds.add(next(ring).withoutNonEmptyHint().res());
            assertArrayEquals(ascii("direct"), readFully(server, 6));
            assertEquals(0, Fds.read(server, new byte[8]), "EOF after the shutdown");
        }
    }

    /** A connection accepted into a slot is received from and replied to on the slot. */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anAcceptedSlotRecvsAndSends(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int listener = fds.add(Fds.listenTcp(new InetSocketAddress(LOOPBACK, 0), 4));
            ring.registerFiles(new int[] {-1, -1});
            int client = fds.add(Fds.connectTcp(Fds.localAddress(listener)));
            Fds.write(client, ascii("ping"));
            sqe(ring).prepAcceptDirect(listener, 0, 1).userData(1).flags(SqeFlags.IO_LINK);
            MemorySegment buf = arena.allocate(16);
            sqe(ring).prepRecv(1, buf, 0).userData(2).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_LINK);
            sqe(ring).prepSend(1, segment(arena, "pong"), 0).userData(3).flags(SqeFlags.FIXED_FILE);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, 4), cqe(3, 4)),
                    next(ring, 3).stream().map(c -> c.withoutNonEmptyHint()).toList());
            assertEquals("ping", ConformanceSupport.ascii(buf, 4));
            assertArrayEquals(ascii("pong"), readFully(client, 4));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void directSocketsNeedATableAndARoomySlot(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepSocketDirect(Fds.AF_INET, Fds.SOCK_STREAM, 0, 0).userData(1);
            sqe(ring).prepSocketDirectAlloc(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(2);
            ring.submit();
            assertEquals(List.of(cqe(1, -Errno.ENXIO), cqe(2, -Errno.ENFILE)), next(ring, 2));
            ring.registerFiles(new int[] {-1});
            sqe(ring).prepSocketDirect(Fds.AF_INET, Fds.SOCK_STREAM, 0, 1).userData(3);
            sqe(ring).prepSocketDirect(Fds.AF_INET, Fds.SOCK_STREAM | Fds.SOCK_CLOEXEC, 0, 0).userData(4);
            ring.submit();
            assertEquals(List.of(cqe(3, -Errno.EINVAL), cqe(4, -Errno.EINVAL)), next(ring, 2));
            sqe(ring).prepSocketDirect(Fds.AF_INET, Fds.SOCK_STREAM, 0, Sqe.FILE_INDEX_ALLOC).userData(5);
            sqe(ring).prepSocketDirectAlloc(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(6);
            ring.submit();
            assertEquals(List.of(cqe(5, 0), cqe(6, -Errno.ENFILE)), next(ring, 2));
        }
    }
}
