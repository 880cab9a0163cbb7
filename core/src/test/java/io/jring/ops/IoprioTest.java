package io.jring.ops;

import static io.jring.ops.FileOps.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Descriptors;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code sqe->ioprio}, each case against Linux 6.18 with liburing on this machine (a probe
 * setting ioprio on every opcode jring supports): ops without an ioprio refuse any non-zero
 * value with -EINVAL before prep; reads and writes check it as ioprio_check_cap (class NONE
 * only with level 0, classes above IDLE invalid, hint bits free); ACCEPT, SEND and RECV read
 * it as flags (see {@link AcceptOp}, {@link SendRecvOp}).
 */
@Timeout(20)
class IoprioTest {

    @TempDir
    Path dir;

    static Stream<Arguments> opsWithoutIoprio() {
        return Stream.of("nop", "fsync", "poll add", "poll remove", "timeout", "timeout remove", "cancel",
                "connect", "openat", "close", "provide buffers", "remove buffers", "shutdown", "msg ring", "socket")
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("opsWithoutIoprio")
    void opsWithoutAnIoprioRefuseOne(String op) throws Exception {
        try (Descriptors fds = new Descriptors(); IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            int[] sp = fds.socketPair();
            int fd = fds.add(Fds.open(file(), OpenFlags.RDWR, 0));
            Sqe s = ring.getSqe();
            switch (op) {
                case "nop" -> s.prepNop();
                case "fsync" -> s.prepFsync(fd, 0);
                case "poll add" -> s.prepPollAdd(sp[0], 1);
                case "poll remove" -> s.prepPollRemove(1234);
                case "timeout" -> s.prepTimeout(1_000_000, 0, 0);
                case "timeout remove" -> s.prepTimeoutRemove(1234);
                case "cancel" -> s.prepCancel(1234, 0);
                case "connect" -> s.prepConnect(sp[0], new InetSocketAddress("127.0.0.1", 9));
                case "openat" -> s.prepOpenat(Fds.AT_FDCWD, file().toString(), OpenFlags.RDONLY, 0);
                case "close" -> s.prepClose(sp[1]);
                case "provide buffers" -> s.prepProvideBuffers(arena.allocate(256), 64, 4, 7, 0);
                case "remove buffers" -> s.prepRemoveBuffers(4, 7);
                case "shutdown" -> s.prepShutdown(sp[0], Fds.SHUT_WR);
                case "msg ring" -> s.prepMsgRing(ring, 5, 77, 0);
                case "socket" -> s.prepSocket(Fds.AF_INET, Fds.SOCK_STREAM, 0);
                default -> throw new AssertionError(op);
            }
            s.ioprio(5).userData(1);
            ring.getSqe().prepNop().userData(2);
            assertEquals(1, ring.submit(), "it fails before issue: submission stops");
            assertEquals(Map.of(1L, -Errno.EINVAL), results(ring, 1));
        }
    }

    /** ioprio, and the result of an 8-byte read or write with it (8 = valid). */
    static Stream<Arguments> readWritePriorities() {
        int[][] cases = {
            {0x0007, -Errno.EINVAL},   // class NONE with a level
            {0x0005, -Errno.EINVAL},
            {0x0001, -Errno.EINVAL},
            {0x0008, 8},               // class NONE, level 0, a hint
            {0x1ff8, 8},
            {0x4003, 8},               // BE 3
            {0x4009, 8},               // BE 1 + hint
            {0x6000, 8},               // IDLE
            {0x6005, 8},
            {0x8000, -Errno.EINVAL},   // class 4
            {0xe000, -Errno.EINVAL},   // class 7
            {0x10000, -Errno.EINVAL},  // beyond Linux's 16 bits
        };
        Stream.Builder<Arguments> all = Stream.builder();
        for (String op : new String[] {"read", "write", "readv", "writev", "read fixed", "write fixed"}) {
            for (int[] c : cases) {
                all.add(Arguments.of(op, c[0], c[1]));
            }
        }
        return all.build();
    }

    @ParameterizedTest(name = "{0} ioprio 0x{1}")
    @MethodSource("readWritePriorities")
    void readsAndWritesCheckTheIoPriority(String op, int ioprio, int expected) throws Exception {
        try (Descriptors fds = new Descriptors(); IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            int fd = fds.add(Fds.open(file(), OpenFlags.RDWR, 0));
            MemorySegment buf = arena.allocate(8);
            ring.registerBuffers(new MemorySegment[] {buf});
            Sqe s = ring.getSqe();
            switch (op) {
                case "read" -> s.prepRead(fd, buf, 0);
                case "write" -> s.prepWrite(fd, buf, 100);
                case "readv" -> s.prepReadv(fd, new MemorySegment[] {buf}, 0);
                case "writev" -> s.prepWritev(fd, new MemorySegment[] {buf}, 100);
                case "read fixed" -> s.prepReadFixed(fd, buf, 0, 0);
                case "write fixed" -> s.prepWriteFixed(fd, buf, 100, 0);
                default -> throw new AssertionError(op);
            }
            s.ioprio(ioprio).userData(1);
            ring.submit();
            assertEquals(Map.of(1L, expected), results(ring, 1));
        }
    }

    @Test
    void realTimeClassIsAcceptedWithCapSysNice() {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs CAP_SYS_NICE (root)");
        assertEquals(0, IoPrio.check(0x2000));
        assertEquals(0, IoPrio.check(0x3ff8));
    }

    @Test
    void acceptTakesMultishotDontwaitAndPollFirstInIoprio() throws Exception {
        try (Descriptors fds = new Descriptors(); IoUring ring = IoUring.open(8)) {
            int l = fds.add(Fds.listenTcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8));
            InetSocketAddress at = Fds.localAddress(l);
            for (int bad : new int[] {8, 0x10, 0x4003}) {
                assertEquals(-Errno.EINVAL, once(ring, s -> s.prepAccept(l, 0).ioprio(bad)), "ioprio " + bad);
            }
            // DONTWAIT with nothing waiting: -EAGAIN, inline and from io-wq.
            assertEquals(-Errno.EAGAIN, once(ring, s -> s.prepAccept(l, 0).ioprio(AcceptOp.DONTWAIT)));
            assertEquals(-Errno.EAGAIN, once(ring, s -> s.prepAccept(l, 0).ioprio(AcceptOp.DONTWAIT).flags(SqeFlags.ASYNC)));
            // POLL_FIRST waits for the connection.
            ring.getSqe().prepAccept(l, 0).ioprio(AcceptOp.POLL_FIRST).userData(1);
            ring.submit();
            fds.add(Fds.connectTcp(at));
            Cqe c = ring.waitCqe(Duration.ofSeconds(5));
            assertTrue(c != null && c.res() >= 0, "accepted");
            fds.add(c.res());
            ring.cqeSeen(c);
            // DONTWAIT with a connection waiting accepts it, also from io-wq...
            fds.add(Fds.connectTcp(at));
            fds.add(assertFd(once(ring, s -> s.prepAccept(l, 0).ioprio(AcceptOp.DONTWAIT).flags(SqeFlags.ASYNC))));
            // ...but with POLL_FIRST too, Linux makes no attempt: -EAGAIN.
            fds.add(Fds.connectTcp(at));
            assertEquals(-Errno.EAGAIN, once(ring, s -> s.prepAccept(l, 0).ioprio(AcceptOp.DONTWAIT | AcceptOp.POLL_FIRST)));
            // Multishot + DONTWAIT: the waiting one with MORE, then -EAGAIN ends it.
            ring.getSqe().prepAccept(l, 0).ioprio(Sqe.ACCEPT_MULTISHOT | AcceptOp.DONTWAIT).userData(2);
            ring.submit();
            Cqe first = ring.waitCqe(Duration.ofSeconds(5));
            assertTrue(first.res() >= 0 && (first.flags() & CqeFlags.MORE) != 0, "first " + first.res());
            fds.add(first.res());
            ring.cqeSeen(first);
            assertEquals(-Errno.EAGAIN, next(ring));
        }
    }

    @Test
    void sendAndRecvTakePollFirst() {
        try (Descriptors fds = new Descriptors(); IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            int[] sp = fds.socketPair();
            MemorySegment buf = arena.allocate(16);
            int dontwait = 0x40;
            Fds.write(sp[1], "xyz".getBytes());
            // POLL_FIRST with MSG_DONTWAIT makes no attempt: -EAGAIN though data waits.
            assertEquals(-Errno.EAGAIN, once(ring, s -> s.prepRecv(sp[0], buf, dontwait).ioprio(SendRecvOp.POLL_FIRST)));
            assertEquals(-Errno.EAGAIN, once(ring, s -> s.prepSend(sp[0], buf.asSlice(0, 3), dontwait).ioprio(SendRecvOp.POLL_FIRST)));
            assertEquals(3, once(ring, s -> s.prepRecv(sp[0], buf, 0).ioprio(SendRecvOp.POLL_FIRST)));
            assertEquals(3, once(ring, s -> s.prepSend(sp[0], buf.asSlice(0, 3), 0).ioprio(SendRecvOp.POLL_FIRST)));
            assertEquals(3, once(ring, s -> s.prepRecv(sp[1], buf, 0).ioprio(SendRecvOp.POLL_FIRST).flags(SqeFlags.ASYNC)));
            // RECV's BUNDLE without provided buffers is a plain recv in Linux 6.18.
            Fds.write(sp[1], "ab".getBytes());
            assertEquals(2, once(ring, s -> s.prepRecv(sp[0], buf, 0).ioprio(SendRecvOp.BUNDLE | SendRecvOp.POLL_FIRST)));
            // RECV_MULTISHOT needs BUFFER_SELECT; unknown bits are refused.
            for (int bad : new int[] {SendRecvOp.RECV_MULTISHOT, 4, 8, 0x20, 0x4003}) {
                assertEquals(-Errno.EINVAL, once(ring, s -> s.prepRecv(sp[0], buf, 0).ioprio(bad)), "recv ioprio " + bad);
            }
            for (int bad : new int[] {SendRecvOp.RECV_MULTISHOT, 4, 8, 0x4003}) {
                assertEquals(-Errno.EINVAL, once(ring, s -> s.prepSend(sp[0], buf, 0).ioprio(bad)), "send ioprio " + bad);
            }
        }
    }

    private static int once(IoUring ring, Consumer<Sqe> prep) {
        Sqe s = ring.getSqe();
        prep.accept(s);
        s.userData(9);
        ring.submit();
        return next(ring);
    }

    private static int next(IoUring ring) {
        Cqe c = ring.waitCqe(Duration.ofSeconds(5));
        assertTrue(c != null, "a CQE");
        int res = c.res();
        ring.cqeSeen(c);
        return res;
    }


    private static int assertFd(int res) {
        assertTrue(res >= 0, "an fd, got " + res);
        return res;
    }

    private Path file() throws Exception {
        Path f = dir.resolve("data");
        if (!Files.exists(f)) {
            Files.writeString(f, "0123456789abcdef");
        }
        return f;
    }
}
