package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.ascii;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.readFully;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.segment;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.conformance.ConformanceSupport.OpenFds;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * IORING_OP_BIND and IORING_OP_LISTEN (liburing test/bind-listen.c, Linux 6.18's io_bind and
 * io_listen): a server and its client set up only through the ring on fixed files (socket
 * direct, bind, listen, connect, send, accept direct, recv), the bad-bind and bad-listen
 * cases, and that BIND copies its address when submitted.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BindListenTest {
    private static final int AF_UNIX = 1;
    private static final int SRV = 0;
    private static final int CLI = 1;
    private static final int CONN = 2;
    private static final String MAGIC = "Hello World!";
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** An abstract AF_UNIX address no other test uses. */
    private static MemorySegment abstractAddress(Arena arena, String name) {
        byte[] path = ("\0jring-bind-listen-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + "-" + name)
                .getBytes(StandardCharsets.US_ASCII);
        MemorySegment sa = arena.allocate(2 + path.length);
        sa.set(JAVA_BYTE, 0, (byte) AF_UNIX);
        MemorySegment.copy(path, 0, sa, JAVA_BYTE, 2, path.length);
        return sa;
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aGoodServerIsMadeOfFixedFilesOnly(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            ring.registerFiles(new int[] {-1, -1, -1});
            MemorySegment address = abstractAddress(arena, "good");
            int len = (int) address.byteSize();
            sqe(ring).prepSocketDirect(AF_UNIX, Fds.SOCK_STREAM, 0, SRV).userData(1).flags(SqeFlags.IO_LINK);
            sqe(ring).prepBind(SRV, address, len).userData(2).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_LINK);
            sqe(ring).prepListen(SRV, 1).userData(3).flags(SqeFlags.FIXED_FILE);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(1, 0), cqe(2, 0), cqe(3, 0)), next(ring, 3));

            sqe(ring).prepSocketDirect(AF_UNIX, Fds.SOCK_STREAM, 0, CLI).userData(4).flags(SqeFlags.IO_LINK);
            sqe(ring).prepConnect(CLI, address, len).userData(5).flags(SqeFlags.FIXED_FILE | SqeFlags.IO_LINK);
            sqe(ring).prepSend(CLI, segment(arena, MAGIC), 0).userData(6).flags(SqeFlags.FIXED_FILE);
            assertEquals(3, ring.submit());
            assertEquals(List.of(cqe(4, 0), cqe(5, 0), cqe(6, MAGIC.length())), next(ring, 3));

            sqe(ring).prepAcceptDirect(SRV, 0, CONN).userData(7).flags(SqeFlags.FIXED_FILE);
            ring.submit();
            assertEquals(cqe(7, 0), next(ring).withoutNonEmptyHint());
            MemorySegment buf = arena.allocate(1024);
            sqe(ring).prepRecv(CONN, buf, 0).userData(8).flags(SqeFlags.FIXED_FILE);
            ring.submit();
            Completion recv = next(ring).withoutNonEmptyHint();
            assertEquals(cqe(8, MAGIC.length()), recv);
            assertEquals(MAGIC, ConformanceSupport.ascii(buf, recv.res()));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aTcpServerBindsToAnEphemeralPortListensAndAccepts(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepSocket(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(1);
            ring.submit();
            int server = fds.add(next(ring).res());
            sqe(ring).prepBind(server, new InetSocketAddress(LOOPBACK, 0)).userData(2).flags(SqeFlags.IO_LINK);
            sqe(ring).prepListen(server, 4).userData(3);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(2, 0), cqe(3, 0)), next(ring, 2));
            InetSocketAddress bound = Fds.localAddress(server);
            assertNotEquals(0, bound.getPort());
            int client = fds.add(Fds.connectTcp(bound));
            sqe(ring).prepAccept(server, 0).userData(4);
            ring.submit();
            int conn = fds.add(next(ring).withoutNonEmptyHint().res());
            Fds.write(client, ascii(MAGIC));
            assertArrayEquals(ascii(MAGIC), readFully(conn, MAGIC.length()));
        }
    }

    @Test
    void badBind() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepSocket(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(1);
            ring.submit();
            int sock = fds.add(next(ring).res());
            MemorySegment sa = arena.allocate(16);
            io.jring.sys.SockAddrs.encode(new InetSocketAddress(LOOPBACK, 0), sa);

            sqe(ring).prepBind(sock, sa, 0).userData(2);   // size 0
            ring.submit();
            assertEquals(cqe(2, -Errno.EINVAL), next(ring));

            int[] pipe = fds.pipe();
            sqe(ring).prepBind(pipe[0], sa, 16).userData(3);   // not a socket
            ring.submit();
            assertEquals(cqe(3, -Errno.ENOTSOCK), next(ring));

            sqe(ring).prepBind(sock, sa, 16).opFlags(1).userData(4);   // a "weird value"
            ring.submit();
            assertEquals(cqe(4, -Errno.EINVAL), next(ring));
        }
    }

    @Test
    void badListen() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            int[] pipe = fds.pipe();
            sqe(ring).prepListen(pipe[0], 1).userData(1);
            ring.submit();
            assertEquals(cqe(1, -Errno.ENOTSOCK), next(ring));

            int sock = fds.add(Fds.listenTcp(new InetSocketAddress(LOOPBACK, 0), 1));
            sqe(ring).prepListen(sock, 1).addr2(0xffffff).userData(2);
            ring.submit();
            assertEquals(cqe(2, -Errno.EINVAL), next(ring));
        }
    }

    @Test
    void bindToAnAddressInUseIsEaddrinuse() {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(0)) {
            int taken = fds.add(Fds.listenTcp(new InetSocketAddress(LOOPBACK, 0), 1));
            sqe(ring).prepSocket(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(1);
            ring.submit();
            int sock = fds.add(next(ring).res());
            sqe(ring).prepBind(sock, Fds.localAddress(taken)).userData(2);
            ring.submit();
            assertEquals(cqe(2, -Errno.EADDRINUSE), next(ring));
        }
    }

    /**
     * Linux 6.18's io_bind_prep sends a BIND that creates a file (an AF_UNIX path, not an
     * abstract name) to io-wq, so a NOP submitted after it completes first.
     */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aBindToAFilesystemPathRunsInIoWq(int setup, @TempDir Path dir) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepSocket(AF_UNIX, Fds.SOCK_STREAM, 0).userData(1);
            ring.submit();
            int sock = fds.add(next(ring).res());
            Path path = dir.resolve("bound.sock");
            byte[] name = (path + "\0").getBytes(StandardCharsets.US_ASCII);
            MemorySegment sa = arena.allocate(2 + name.length);
            sa.set(JAVA_BYTE, 0, (byte) AF_UNIX);
            MemorySegment.copy(name, 0, sa, JAVA_BYTE, 2, name.length);
            sqe(ring).prepBind(sock, sa, (int) sa.byteSize()).userData(2);
            sqe(ring).prepNop().userData(3);
            assertEquals(2, ring.submit());
            assertEquals(List.of(cqe(3, 0), cqe(2, 0)), next(ring, 2));
            assertTrue(java.nio.file.Files.exists(path), "bind(2) made the socket file");
        }
    }

    /** Linux copies the address in io_bind_prep: memory changed after submit does not matter. */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void bindCopiesItsAddressWhenSubmitted(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepSocket(Fds.AF_INET, Fds.SOCK_STREAM, 0).userData(1);
            ring.submit();
            int sock = fds.add(next(ring).res());
            MemorySegment sa = arena.allocate(16);
            io.jring.sys.SockAddrs.encode(new InetSocketAddress(LOOPBACK, 0), sa);
            sqe(ring).prepTimeout(20 * ConformanceSupport.MS, 0, 0).userData(2)
                    .flags(SqeFlags.IO_HARDLINK);   // issued only after the timer: well after submit
            sqe(ring).prepBind(sock, sa, 16).userData(3);
            assertEquals(2, ring.submit());
            sa.fill((byte) 0x7f);   // no longer an AF_INET address at all
            assertEquals(List.of(cqe(2, -Errno.ETIME), cqe(3, 0)), next(ring, 2));
            assertEquals(LOOPBACK, Fds.localAddress(sock).getAddress());
        }
    }
}
