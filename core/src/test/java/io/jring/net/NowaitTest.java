package io.jring.net;

import static io.jring.net.NetTestSupport.MSG_DONTWAIT;
import static io.jring.net.NetTestSupport.cqe;
import static io.jring.net.NetTestSupport.next;
import static io.jring.net.NetTestSupport.ring;
import static io.jring.net.NetTestSupport.sqe;
import static io.jring.net.NetTestSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.testkit.RingTestSupport;
import io.jring.testkit.RingTestSupport.Completion;
import io.jring.net.NetTestSupport.OpenFds;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Linux's REQ_F_NOWAIT (MSG_DONTWAIT on RECV/SEND, RWF_NOWAIT on READ/WRITE, ACCEPT_DONTWAIT):
 * a request that would block completes with -EAGAIN at once, inline, neither armed on poll nor
 * handed to io-wq (io_uring.c io_queue_async), so a cancel in the same submit finds nothing:
 * -EAGAIN, then -ENOENT. Checked on Linux 6.18, 40 of 40 runs each; a failed WRITE's CQE
 * comes after the cancel's there (rw.c completes it through task work), so that pair is
 * compared in any order.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NowaitTest {
    private static final int RWF_NOWAIT = 0x8;
    private static final int ACCEPT_DONTWAIT = 1 << 1;

    /** Submits {@code prep} as user data 1 with a cancel of it (user data 2) in the same submit. */
    private static List<Completion> withCancel(IoUring ring, Consumer<Sqe> prep) {
        Sqe sqe = sqe(ring);
        prep.accept(sqe);
        sqe.userData(1);
        sqe(ring).prepCancel(1, 0).userData(2);
        assertEquals(2, ring.submit());
        return next(ring, 2);
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void recvAndSendWithDontwaitAreEagainAtOnceSoTheirCancelFindsNothing(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] s = fds.socketPair();
            MemorySegment buf = arena.allocate(64);
            for (int i = 0; i < 20; i++) {
                assertEquals(List.of(cqe(1, -Errno.EAGAIN), cqe(2, -Errno.ENOENT)),
                        withCancel(ring, q -> q.prepRecv(s[0], buf, MSG_DONTWAIT)), "recv, run " + i);
                assertEquals(List.of(cqe(1, -Errno.EAGAIN), cqe(2, -Errno.ENOENT)),
                        withCancel(ring, q -> q.prepRecv(s[0], buf, MSG_DONTWAIT).ioprio(1)), "POLL_FIRST, run " + i);
            }
            MemorySegment chunk = arena.allocate(1 << 20);
            sqe(ring).prepSend(s[0], chunk, MSG_DONTWAIT).userData(3);
            assertTrue(submitAndNext(ring).res() > 0, "fills the socket");
            for (int i = 0; i < 20; i++) {
                assertEquals(List.of(cqe(1, -Errno.EAGAIN), cqe(2, -Errno.ENOENT)),
                        withCancel(ring, q -> q.prepSend(s[0], buf, MSG_DONTWAIT)), "send, run " + i);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void pipeReadAndWriteWithRwfNowaitAreEagainAtOnceSoTheirCancelFindsNothing(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            MemorySegment buf = arena.allocate(64);
            for (int i = 0; i < 20; i++) {
                assertEquals(List.of(cqe(1, -Errno.EAGAIN), cqe(2, -Errno.ENOENT)),
                        withCancel(ring, q -> q.prepRead(p[0], buf, -1).opFlags(RWF_NOWAIT)), "read, run " + i);
            }
            Fds.write(p[1], new byte[65536]);   // a full pipe
            for (int i = 0; i < 20; i++) {
                RingTestSupport.assertAnyOrder(List.of(cqe(1, -Errno.EAGAIN), cqe(2, -Errno.ENOENT)),
                        withCancel(ring, q -> q.prepWrite(p[1], buf, -1).opFlags(RWF_NOWAIT)));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.net.NetTestSupport#ringKinds")
    void acceptWithDontwaitIsEagainAtOnceSoItsCancelFindsNothing(int setup) {
        try (OpenFds fds = new OpenFds(); IoUring ring = ring(setup)) {
            int listener = fds.listen(NetTestSupport.IPV4, 4);
            for (int i = 0; i < 20; i++) {
                assertEquals(List.of(cqe(1, -Errno.EAGAIN), cqe(2, -Errno.ENOENT)),
                        withCancel(ring, q -> q.prepAccept(listener, 0).ioprio(ACCEPT_DONTWAIT)), "run " + i);
            }
        }
    }
}
