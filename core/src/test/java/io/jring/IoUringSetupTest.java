package io.jring;

import static io.jring.RingTestSupport.errnoOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ring setup: mirrors {@link IoUring.Builder} and {@link IoUring#open} (the size and flag
 * checks of Linux's io_uring_setup).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class IoUringSetupTest {

    @ParameterizedTest(name = "entries {0} -> sq {1}")
    @CsvSource({"1, 1", "2, 2", "3, 4", "5, 8", "64, 64", "100, 128", "4097, 8192", "32768, 32768"})
    void entriesAreRoundedUpToAPowerOfTwo(int entries, int sq) {
        try (IoUring ring = IoUring.builder().entries(entries).build()) {
            assertEquals(sq, ring.sqEntries());
        }
    }

    @ParameterizedTest(name = "entries {0} -> cq {1}")
    @CsvSource({"1, 2", "3, 8", "64, 128", "100, 256", "32768, 65536"})
    void cqEntriesDefaultToTwiceTheRoundedSqSize(int entries, int cq) {
        try (IoUring ring = IoUring.builder().entries(entries).build()) {
            assertEquals(cq, ring.cqEntries());
        }
    }

    @ParameterizedTest(name = "entries {0}, cqEntries {1} -> cq {2}")
    @CsvSource({"4, 4, 4", "4, 5, 8", "8, 5, 8", "16, 9, 16", "16, 1000, 1024", "2, 65536, 65536", "5, 7, 8", "4, 3, 4"})
    void explicitCqEntriesAreRoundedUpToAPowerOfTwo(int entries, int cqEntries, int cq) {
        try (IoUring ring = IoUring.builder().entries(entries).cqEntries(cqEntries).build()) {
            assertEquals(cq, ring.cqEntries());
        }
    }

    @ParameterizedTest(name = "entries {0}, cqEntries {1}")
    @CsvSource({"4, 2", "16, 8", "8, 1", "8, 4"})
    void cqSmallerThanSqIsEinval(int entries, int cqEntries) {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(entries).cqEntries(cqEntries).build()));
    }

    @ParameterizedTest(name = "entries {0}")
    @ValueSource(ints = {0, -1, -64, Integer.MIN_VALUE, 32769, 65536, Integer.MAX_VALUE})
    void invalidEntriesAreEinval(int entries) {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(entries).build()));
    }

    @ParameterizedTest(name = "waitSpin {0} ns")
    @ValueSource(longs = {-1L, Long.MIN_VALUE, 1_000_000_001L, Long.MAX_VALUE})
    void aWaitSpinBelowZeroOrAboveOneSecondIsEinval(long nanos) {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().waitSpin(java.time.Duration.ofNanos(nanos))));
    }

    @ParameterizedTest(name = "waitSpin {0} ns")
    @ValueSource(longs = {0L, 1L, 50_000L, 1_000_000_000L})
    void aWaitSpinFromZeroToOneSecondBuildsARing(long nanos) {
        try (IoUring ring = IoUring.builder().waitSpin(java.time.Duration.ofNanos(nanos)).build()) {
            ring.getSqe().prepNop().userData(7);
            assertEquals(1, ring.submitAndWait(1));
            assertEquals(7L, ring.waitCqe().userData());
        }
    }

    @ParameterizedTest(name = "entries {0}")
    @ValueSource(ints = {0, -1, 32769})
    void invalidEntriesOfOpenAreEinval(int entries) {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.open(entries)));
    }

    @ParameterizedTest(name = "cqEntries {0}")
    @ValueSource(ints = {0, -1, -1024, 65537, Integer.MAX_VALUE})
    void invalidCqEntriesAreEinval(int cqEntries) {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(8).cqEntries(cqEntries).build()));
    }

    @Test
    void clampClampsTooLargeSizesToTheMaximum() {
        try (IoUring ring = IoUring.builder().entries(100_000).flags(Setup.CLAMP).build()) {
            assertEquals(IoUring.MAX_ENTRIES, ring.sqEntries());
            assertEquals(2 * IoUring.MAX_ENTRIES, ring.cqEntries());
        }
        try (IoUring ring = IoUring.builder().entries(8).cqEntries(1 << 20).flags(Setup.CLAMP).build()) {
            assertEquals(8, ring.sqEntries());
            assertEquals(IoUring.MAX_CQ_ENTRIES, ring.cqEntries());
        }
    }

    @Test
    void clampDoesNotAcceptZeroOrNegativeEntries() {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(0).flags(Setup.CLAMP).build()));
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(-5).flags(Setup.CLAMP).build()));
    }

    @Test
    void openUsesDefaults() {
        try (IoUring ring = IoUring.open(6)) {
            assertEquals(8, ring.sqEntries());
            assertEquals(16, ring.cqEntries());
            assertEquals(8, ring.sqSpaceLeft());
            assertEquals(0, ring.sqReady());
            assertEquals(0, ring.cqReady());
        }
    }

    @Test
    void deferTaskrunWithoutSingleIssuerIsEinval() {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(8).flags(Setup.DEFER_TASKRUN).build()));
        try (IoUring ring = IoUring.builder().entries(8)
                .flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN).build()) {
            assertEquals(8, ring.sqEntries());
        }
    }

    @ParameterizedTest(name = "flags 0x{0}")
    @ValueSource(ints = {1 << 30, 1 << 31, 1 << 20, (1 << 30) | Setup.SINGLE_ISSUER})
    void unknownSetupFlagsAreEinval(int flags) {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(8).flags(flags).build()));
    }

    @Test
    void everyKnownSetupFlagCombinationBuilds() {
        int[] combos = {0, Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN, Setup.SUBMIT_ALL,
            Setup.CLAMP, Setup.SUBMIT_ALL | Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN | Setup.CLAMP};
        for (int flags : combos) {
            try (IoUring ring = IoUring.builder().entries(4).flags(flags).build()) {
                assertEquals(4, ring.sqEntries(), "flags 0x" + Integer.toHexString(flags));
            }
        }
    }

    @Test
    void attachWqWithoutATargetRingIsEinval() {
        assertEquals(Errno.EINVAL, errnoOf(() -> IoUring.builder().entries(8).flags(Setup.ATTACH_WQ).build()));
    }

    @Test
    void attachWqToAClosedRingIsEbadfd() {
        IoUring closed = IoUring.open(4);
        closed.close();
        assertEquals(Errno.EBADFD, errnoOf(() -> IoUring.builder().entries(8)
                .flags(Setup.ATTACH_WQ).attachWq(closed).build()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"LOCKED", "PRIORITY", "LLIST", "MPSC"})
    void everyTaskWorkKindBuilds(TaskWorkKind kind) {
        try (IoUring ring = IoUring.builder().entries(4).taskWorkList(kind).build()) {
            assertEquals(4, ring.sqEntries());
        }
    }
}
