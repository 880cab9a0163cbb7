package io.jring.core;

import static io.jring.RingTestSupport.errnoOf;
import static io.jring.RingTestSupport.liveWorkers;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.SqeFlags;
import io.jring.iowq.IoWq;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * IORING_SETUP_ATTACH_WQ (mirrors RingContext's io-wq handle, Linux's io_uring_setup with
 * {@code wq_fd}): rings built with {@code attachWq(other)} share the other
 * ring's io-wq pool through their own handle, and the pool lives until the last ring closes.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AttachWqTest {

    private static IoWq wqOf(IoUring ring) {
        return ApiAccess.get().contextOf(ring).ioWq();
    }

    @Test
    void attachedRingSharesTheIoWqPool() {
        try (IoUring a = IoUring.open(8);
                IoUring b = IoUring.builder().entries(4).flags(Setup.ATTACH_WQ).attachWq(a).build();
                IoUring c = IoUring.open(8)) {
            assertNotSame(wqOf(a), wqOf(b), "each ring holds its own handle");
            assertEquals(wqOf(a).name(), wqOf(b).name(), "to the same pool");
            assertNotEquals(wqOf(a).name(), wqOf(c).name(), "a ring without ATTACH_WQ has its own pool");
        }
    }

    @Test
    void attachedRingsShareWorkerLimits() {
        try (IoUring a = IoUring.open(8);
                IoUring b = IoUring.builder().entries(4).flags(Setup.ATTACH_WQ | Setup.SINGLE_ISSUER)
                        .attachWq(a).build()) {
            a.registerIoWqMaxWorkers(3, 5);
            assertArrayEquals(new int[] {3, 5}, b.registerIoWqMaxWorkers(2, 0));
            assertArrayEquals(new int[] {2, 5}, a.registerIoWqMaxWorkers(0, 0));
        }
    }

    @Test
    void attachWqWithoutATargetIsEinval() {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(4).flags(Setup.ATTACH_WQ).build()));
    }

    @Test
    void attachedRingKeepsWorkingAfterTheOriginalClosesAndTheLastCloseJoinsTheWorkers() {
        IoUring a = IoUring.open(8);
        IoUring b = IoUring.builder().entries(8).flags(Setup.ATTACH_WQ).attachWq(a).build();
        String pool = wqOf(a).name();
        prepNops(a, 1, 4, SqeFlags.ASYNC);
        a.submitAndWait(4);
        assertEquals(4, reap(a, 4).size());
        a.close();

        prepNops(b, 10, 8, SqeFlags.ASYNC);
        assertEquals(8, b.submitAndWait(8));
        List<Long> uds = reap(b, 8).stream().map(Completion::userData).sorted().toList();
        assertEquals(List.of(10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L), uds);
        assertFalse(liveWorkers(pool).isEmpty(), "the shared pool still has its workers");
        b.close();
        assertEquals(List.of(), liveWorkers(pool), "the last close joins the shared workers");
    }

    @Test
    void closingAnAttachedRingCancelsOnlyItsOwnWork() {
        try (IoUring a = IoUring.open(64)) {
            a.registerIoWqMaxWorkers(1, 1);
            IoUring b = IoUring.builder().entries(64).flags(Setup.ATTACH_WQ).attachWq(a).build();
            prepNops(a, 0, 64, SqeFlags.ASYNC);
            prepNops(b, 100, 64, SqeFlags.ASYNC);
            a.submit();
            b.submit();
            b.close();
            // a's work was not cancelled by b's close: every a NOP succeeds.
            List<Completion> got = reap(a, 64);
            for (int i = 0; i < 64; i++) {
                assertEquals(new Completion(i, 0, 0), got.get(i));
            }
        }
    }
}
