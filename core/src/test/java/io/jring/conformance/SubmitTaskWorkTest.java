package io.jring.conformance;

import static io.jring.testkit.RingTestSupport.cqe;
import static io.jring.testkit.RingTestSupport.next;
import static io.jring.testkit.RingTestSupport.ring;
import static io.jring.testkit.RingTestSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.Setup;
import io.jring.testkit.RingTestSupport;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a submit has posted when it returns. Linux runs a task's task work on its way back to
 * user space, so on a plain ring io_uring_enter returns with the completions its submit
 * queued as task work already in the CQ (a write's EPIPE, a cancelled poll's -ECANCELED);
 * a DEFER_TASKRUN ring keeps them for the next wait. Checked on Linux 6.18 with
 * tool/anchors/cancel_order.c ("ready=" right after io_uring_submit).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SubmitTaskWorkTest {
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    /** A WRITE to a pipe without a reader (EPIPE through task work), a NOP; then a poll and its cancel. */
    private static void submitBoth(IoUring ring, RingTestSupport.Descriptors fds, Arena arena, int[] readyAfter) {
        int[] p = fds.pipe();
        fds.close(p[0]);
        sqe(ring).prepWrite(p[1], arena.allocate(1), -1).userData(1);
        sqe(ring).prepNop().userData(2);
        assertEquals(2, ring.submit());
        readyAfter[0] = ring.cqReady();
        assertEquals(List.of(cqe(2, 0), cqe(1, -Errno.EPIPE)), next(ring, 2));
        sqe(ring).prepPollAdd(fds.socketPair()[0], Poll.IN).userData(3);
        sqe(ring).prepCancel(3, 0).userData(4);
        assertEquals(2, ring.submit());
        readyAfter[1] = ring.cqReady();
        assertEquals(List.of(cqe(4, 0), cqe(3, -Errno.ECANCELED)), next(ring, 2));
    }

    @Test
    void plainRingSubmitReturnsWithTheCompletionsItQueuedAsTaskWorkPosted() {
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors(); IoUring ring = ring(0);
                Arena arena = Arena.ofConfined()) {
            int[] ready = new int[2];
            submitBoth(ring, fds, arena, ready);
            assertEquals(2, ready[0], "the write's EPIPE is posted when submit returns");
            assertEquals(2, ready[1], "the cancelled poll's -ECANCELED is posted when submit returns");
        }
    }

    @Test
    void deferTaskrunSubmitLeavesItsLocalWorkForTheWait() {
        try (RingTestSupport.Descriptors fds = new RingTestSupport.Descriptors(); IoUring ring = ring(DEFER);
                Arena arena = Arena.ofConfined()) {
            int[] ready = new int[2];
            submitBoth(ring, fds, arena, ready);
            assertEquals(1, ready[0], "only the NOP, as Linux");
            assertEquals(1, ready[1], "only the cancel's CQE, as Linux");
        }
    }
}
