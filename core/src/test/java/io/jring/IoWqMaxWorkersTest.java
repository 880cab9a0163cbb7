package io.jring;

import static io.jring.RingTestSupport.errnoOf;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.iowq.IoWq;
import io.jring.sys.ResourceLimits;
import io.jring.sys.SysCallContext;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link IoUring#registerIoWqMaxWorkers} (IORING_REGISTER_IOWQ_MAX_WORKERS, liburing's
 * io_uring_register_iowq_max_workers): returns the previous pair, 0 keeps a value,
 * negative values are EINVAL, values are capped at RLIMIT_NPROC.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class IoWqMaxWorkersTest {

    @Test
    void returnsThePreviousPairStartingFromLinuxDefaults() {
        try (IoUring ring = IoUring.open(8)) {
            int[] defaults = {IoWq.defaultMaxBounded(8), IoWq.defaultMaxUnbound()};
            assertArrayEquals(defaults, ring.registerIoWqMaxWorkers(0, 0), "0, 0 only reads");
            assertArrayEquals(defaults, ring.registerIoWqMaxWorkers(2, 3));
            assertArrayEquals(new int[] {2, 3}, ring.registerIoWqMaxWorkers(5, 7));
            assertArrayEquals(new int[] {5, 7}, ring.registerIoWqMaxWorkers(0, 0));
        }
    }

    @Test
    void zeroKeepsEachValueSeparately() {
        try (IoUring ring = IoUring.open(8)) {
            ring.registerIoWqMaxWorkers(4, 6);
            assertArrayEquals(new int[] {4, 6}, ring.registerIoWqMaxWorkers(0, 9));
            assertArrayEquals(new int[] {4, 9}, ring.registerIoWqMaxWorkers(1, 0));
            assertArrayEquals(new int[] {1, 9}, ring.registerIoWqMaxWorkers(0, 0));
        }
    }

    @Test
    void negativeValuesAreEinvalAndChangeNothing() {
        try (IoUring ring = IoUring.open(8)) {
            ring.registerIoWqMaxWorkers(3, 4);
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerIoWqMaxWorkers(-1, 0)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerIoWqMaxWorkers(0, -1)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerIoWqMaxWorkers(2, -5)));
            assertEquals(Errno.EINVAL, errnoOf(() -> ring.registerIoWqMaxWorkers(Integer.MIN_VALUE, 1)));
            assertArrayEquals(new int[] {3, 4}, ring.registerIoWqMaxWorkers(0, 0));
        }
    }

    /**
     * Linux's io_wq_max_workers caps each value at the soft RLIMIT_NPROC (liburing probe on
     * 6.18 with a limit of 96364: set 100000, then "0, 0" returns 96364). The limit is read
     * the way jring reads it, through getrlimit.
     */
    @Test
    void valuesAboveRlimitNprocAreCappedAtIt() {
        long nproc = ResourceLimits.softLimit(SysCallContext.current(), ResourceLimits.RLIMIT_NPROC);
        int cap = (int) Math.min(nproc, Integer.MAX_VALUE);
        try (IoUring ring = IoUring.open(8)) {
            ring.registerIoWqMaxWorkers(Integer.MAX_VALUE, Integer.MAX_VALUE);
            assertArrayEquals(new int[] {cap, cap}, ring.registerIoWqMaxWorkers(0, 7));
            assertArrayEquals(new int[] {cap, 7}, ring.registerIoWqMaxWorkers(3, 0));
            assertArrayEquals(new int[] {3, 7}, ring.registerIoWqMaxWorkers(0, 0), "values below the limit are kept");
        }
    }

    @Test
    void asyncWorkStillCompletesWithOneWorker() {
        try (IoUring ring = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER).build()) {
            ring.registerIoWqMaxWorkers(1, 1);
            prepNops(ring, 0, 64, SqeFlags.ASYNC);
            assertEquals(64, ring.submitAndWait(64));
            // One worker runs the queue in order, and task work keeps that order.
            for (int i = 0; i < 64; i++) {
                assertEquals(new RingTestSupport.Completion(i, 0, 0), reap(ring, 1).get(0));
            }
        }
    }
}
