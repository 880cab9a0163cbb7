package io.jring.ops;

import static io.jring.testkit.RingTestSupport.cqe;
import static io.jring.testkit.RingTestSupport.next;
import static io.jring.testkit.RingTestSupport.ring;
import static io.jring.testkit.RingTestSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.testkit.RingTestSupport;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where a failed WRITE's CQE lands among the CQEs of its submit ({@link RwOp}
 * failsThroughTaskWork; kernel io_uring/rw.c: io_write hands a negative write_iter result to
 * kiocb_done, which completes it through task work). Checked on Linux 6.18: an EPIPE, EFAULT
 * or RWF_NOWAIT -EAGAIN of a write comes after the NOPs submitted behind it; an EBADF (the
 * file is not open for writing, found before the file is asked) comes in order.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WriteFailureOrderTest {
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.testkit.RingTestSupport#ringKinds")
    void aWritesFailureFromTheFileCompletesAfterTheSubmitsInlineCqes(int setup) {
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors(); IoUring ring = ring(setup);
                Arena arena = Arena.ofConfined()) {
            int[] p = fds.pipe();
            fds.close(p[0]);
            MemorySegment buf = arena.allocate(8);
            sqe(ring).prepWrite(p[1], buf, -1).userData(1);
            sqe(ring).prepNop().userData(2);
            sqe(ring).prepWrite(fds.pipe()[0], buf, -1).userData(3);
            sqe(ring).prepNop().userData(4);
            assertEquals(4, ring.submit());
            assertEquals(List.of(cqe(2, 0), cqe(3, -Errno.EBADF), cqe(4, 0), cqe(1, -Errno.EPIPE)), next(ring, 4));
        }
    }
}
