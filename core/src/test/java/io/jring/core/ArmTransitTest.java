package io.jring.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cancel;
import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.SqeFlags;
import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ArmTransit}: an ASYNC RECV a worker found not ready waits in its task's work to be
 * armed (on a DEFER_TASKRUN ring, in the local list until the owner waits). Linux's worker
 * arms the poll itself, so ASYNC_CANCEL finds such a request at once: 0, then the request's
 * -ECANCELED; ALL counts it once. ASYNC_CANCEL runs no task work before it looks, so this is
 * the only way it finds the request.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ArmTransitTest {
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    /** Bounded wait until the worker has queued the request's ARM task work on the local list. */
    private static void awaitArmQueued(RingContext ctx) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (ctx.local.isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the worker never handed the RECV back");
            Thread.onSpinWait();
        }
    }

    private static Cqe take(IoUring ring) {
        Cqe c = ring.waitCqe(java.time.Duration.ofSeconds(5));
        assertNotNull(c, "no CQE within 5 s");
        return c;
    }

    @ParameterizedTest(name = "cancel flags 0x{0}")
    @ValueSource(ints = {0, Cancel.ALL})
    void cancelFindsAnAsyncRecvOnItsWayToArmPoll(int cancelFlags) {
        int[] sp = Fds.socketPair();
        try (IoUring ring = IoUring.builder().entries(8).flags(DEFER).build(); Arena arena = Arena.ofConfined()) {
            RingContext ctx = ApiAccess.get().contextOf(ring);
            ring.getSqe().prepRecv(sp[0], arena.allocate(8), 0).flags(SqeFlags.ASYNC).userData(1);
            ring.submit();
            awaitArmQueued(ctx);
            ring.getSqe().prepCancel(1, cancelFlags).userData(2);
            ring.submit();
            Cqe c = take(ring);
            assertEquals(2, c.userData());
            assertEquals(cancelFlags == 0 ? 0 : 1, c.res(), "the cancel found it (once)");
            ring.cqeSeen(c);
            c = take(ring);
            assertEquals(1, c.userData());
            assertEquals(-Errno.ECANCELED, c.res());
            ring.cqeSeen(c);
            assertNull(ring.waitCqe(java.time.Duration.ofMillis(20)));
        } finally {
            Fds.close(sp[0]);
            Fds.close(sp[1]);
        }
    }
}
