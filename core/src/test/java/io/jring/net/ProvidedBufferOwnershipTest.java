package io.jring.net;

import static io.jring.net.NetTestSupport.MSG_WAITALL;
import static io.jring.net.NetTestSupport.ascii;
import static io.jring.net.NetTestSupport.assertNoCqe;
import static io.jring.net.NetTestSupport.buffer;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Who owns a provided buffer while its request waits, and after it was cancelled: the
 * application and the ring must agree (kernel io_uring/kbuf.c, rw.c __io_read, net.c io_recv,
 * io_uring.c io_req_defer_failed; each case run on Linux 6.18 first). A READ takes its buffer
 * at its first attempt and keeps it while it waits on a pipe; when it is cancelled then, the
 * CQE is -ECANCELED with {@code BUFFER} and the buffer is used up. A RECV gives its buffer
 * back before it waits, unless data is in it already (MSG_WAITALL). A request cancelled
 * before it ran, or failing for want of a file, took none.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProvidedBufferOwnershipTest {
    private static final int LEN = 16;
    private static final int GROUP = 3;
    private static final int RWF_NOWAIT = 0x8;

    private static MemorySegment provide(IoUring ring, Arena arena, int count) {
        MemorySegment region = arena.allocate((long) count * LEN);
        sqe(ring).prepProvideBuffers(region, LEN, count, GROUP, 0).userData(80);
        assertEquals(cqe(80, 0), submitAndNext(ring), "PROVIDE_BUFFERS");
        return region;
    }

    /** How many buffers the group still holds, found by removing them all. */
    private static int left(IoUring ring) {
        sqe(ring).prepRemoveBuffers(1000, GROUP).userData(81);
        return submitAndNext(ring).res();
    }

    private static Sqe prepReadSelect(IoUring ring, int fd, long ud) {
        return sqe(ring).prepRead(fd, null, -1).flags(SqeFlags.BUFFER_SELECT).bufferGroup(GROUP).userData(ud);
    }

    private static void prepRecvSelect(IoUring ring, int fd, int msgFlags, long ud) {
        sqe(ring).prepRecv(fd, null, msgFlags).flags(SqeFlags.BUFFER_SELECT).bufferGroup(GROUP).userData(ud);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aReadWaitingOnAPipeKeepsTheBufferItTook(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            int[] s = fds.socketPair();
            MemorySegment region = provide(ring, arena, 2);
            prepReadSelect(ring, p[0], 1);
            ring.submit();
            assertNoCqe(ring);
            Fds.write(s[1], ascii("bb"));
            prepRecvSelect(ring, s[0], 0, 2);
            assertEquals(cqe(2, 2, buffer(1)), submitAndNext(ring), "buffer 0 is the waiting read's");
            Fds.write(p[1], ascii("aa"));
            assertEquals(cqe(1, 2, buffer(0)), next(ring));
            assertEquals("aa", NetTestSupport.ascii(region, 2));
            assertEquals("bb", NetTestSupport.ascii(region.asSlice(LEN), 2));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aCancelledReadReportsTheBufferItTookWhichIsUsedUp(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            provide(ring, arena, 4);
            prepReadSelect(ring, p[0], 1);
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            assertEquals(List.of(cqe(2, 0), cqe(1, -Errno.ECANCELED, buffer(0))), next(ring, 2), "same submit");

            prepReadSelect(ring, p[0], 3);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepCancel(3, 0).userData(4);
            ring.submit();
            assertEquals(List.of(cqe(4, 0), cqe(3, -Errno.ECANCELED, buffer(1))), next(ring, 2), "later");

            prepReadSelect(ring, p[0], 5).flags(SqeFlags.BUFFER_SELECT | SqeFlags.IO_LINK);
            sqe(ring).prepLinkTimeout(20_000_000L, 0).userData(6);
            ring.submit();
            assertEquals(List.of(cqe(6, -Errno.ETIME), cqe(5, -Errno.ECANCELED, buffer(2))), next(ring, 2),
                    "its link timeout");
            assertEquals(1, left(ring), "three used up");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void anAsyncReadCancelledWhileQueuedInIoWqTookNoBuffer(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = NetTestSupport.ring(setup, true);
                Arena arena = Arena.ofConfined()) {
            ring.registerIoWqMaxWorkers(1, 1);
            int[] busy = fds.pipe();
            int[] p = fds.pipe();
            provide(ring, arena, 2);
            // The one unbound worker blocks in the first read (legacy ASYNC waits in poll(2)),
            // so the second stays queued in io-wq until the cancel takes it out.
            sqe(ring).prepRead(busy[0], arena.allocate(8), -1).flags(SqeFlags.ASYNC).userData(1);
            ring.submit();
            prepReadSelect(ring, p[0], 2).flags(SqeFlags.ASYNC | SqeFlags.BUFFER_SELECT);
            ring.submit();
            sqe(ring).prepCancel(2, 0).userData(3);
            ring.submit();
            assertEquals(List.of(cqe(3, 0), cqe(2, -Errno.ECANCELED)), next(ring, 2));
            assertEquals(2, left(ring), "the queued read never held a buffer");
            Fds.write(busy[1], ascii("go"));
            assertEquals(cqe(1, 2), next(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aWaitallRecvKeepsItsBufferAndItsBytesWhileItWaitsForTheRest(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            int[] p = fds.pipe();
            MemorySegment region = provide(ring, arena, 2);
            Fds.write(s[1], ascii("0123456789"));
            prepRecvSelect(ring, s[0], MSG_WAITALL, 1);
            ring.submit();
            assertNoCqe(ring);
            prepReadSelect(ring, p[0], 2);
            ring.submit();
            Fds.write(p[1], ascii("pipe!"));
            assertEquals(cqe(2, 5, buffer(1)), next(ring), "buffer 0 is the recv's");
            Fds.write(s[1], ascii("abcdef"));
            assertEquals(cqe(1, LEN, buffer(0)), next(ring));
            assertEquals("0123456789abcdef", NetTestSupport.ascii(region, LEN));
            assertEquals("pipe!", NetTestSupport.ascii(region.asSlice(LEN), 5));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aCancelledWaitallRecvReportsItsBytesAndItsBuffer(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment region = provide(ring, arena, 2);
            Fds.write(s[1], ascii("0123456789"));
            prepRecvSelect(ring, s[0], MSG_WAITALL, 1);
            ring.submit();
            assertNoCqe(ring);
            sqe(ring).prepCancel(1, 0).userData(2);
            ring.submit();
            assertEquals(List.of(cqe(2, 0), cqe(1, 10, buffer(0))), next(ring, 2));
            assertEquals("0123456789", NetTestSupport.ascii(region, 10));
            assertEquals(1, left(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void aReadThatFailsAfterTakingABufferUsesItUpButOneWithoutAFileTakesNone(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            provide(ring, arena, 4);
            prepReadSelect(ring, p[1], 1);
            assertEquals(cqe(1, -Errno.EBADF, buffer(0)), submitAndNext(ring), "the write end: a file, not readable");
            sqe(ring).prepRead(p[0], null, -1).flags(SqeFlags.BUFFER_SELECT).bufferGroup(GROUP).opFlags(RWF_NOWAIT)
                    .userData(2);
            assertEquals(cqe(2, -Errno.EAGAIN, buffer(1)), submitAndNext(ring), "RWF_NOWAIT on an empty pipe");
            int[] closed = fds.pipe();
            fds.close(closed[0]);
            prepReadSelect(ring, closed[0], 3);
            assertEquals(cqe(3, -Errno.EBADF), submitAndNext(ring), "a number no file has");
            ring.registerFiles(new int[] {-1});
            prepReadSelect(ring, 0, 4).flags(SqeFlags.BUFFER_SELECT | SqeFlags.FIXED_FILE);
            assertEquals(cqe(4, -Errno.EBADF), submitAndNext(ring), "an empty fixed slot");
            assertEquals(2, left(ring), "two used up");
        }
    }
}
