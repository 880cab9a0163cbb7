package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.BAD_FD;
import static io.jring.conformance.ConformanceSupport.BAD_OPCODE;
import static io.jring.conformance.ConformanceSupport.assertNoCqe;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static io.jring.conformance.ConformanceSupport.submitAndNext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IORING_OP_NOP and the submission rules every opcode shares (liburing test/nop.c): a NOP
 * completes with 0 and its user data; a batch completes in submission order; a request that
 * fails before it is issued (bad opcode, unknown SQE flag) completes with -EINVAL and ends
 * the submit, leaving later SQEs queued for the next one.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class NopTest {

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void nopCompletesWithZeroAndItsUserData(int setup) {
        try (IoUring ring = ring(setup)) {
            for (long ud : new long[] {0, 1, -1L, 0xDEAD_BEEF_CAFEL, Long.MIN_VALUE}) {
                sqe(ring).prepNop().userData(ud);
                assertEquals(cqe(ud, 0), submitAndNext(ring));
            }
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aBatchOfNopsCompletesInSubmissionOrder(int setup) {
        try (IoUring ring = ring(setup)) {
            List<Completion> want = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                sqe(ring).prepNop().userData(100 + i);
                want.add(cqe(100 + i, 0));
            }
            assertEquals(32, ring.submit());
            assertEquals(want, next(ring, 32));
            assertNoCqe(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void asyncDrainAndFixedFileFlagsDoNotChangeANopsResult(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.ASYNC);
            assertEquals(cqe(1, 0), submitAndNext(ring));
            sqe(ring).prepNop().userData(2).flags(SqeFlags.IO_DRAIN);
            assertEquals(cqe(2, 0), submitAndNext(ring), "a drain on an idle ring runs at once");
            sqe(ring).prepNop().userData(3).fd(BAD_FD);
            assertEquals(cqe(3, 0), submitAndNext(ring), "a NOP has no file: its fd field is not looked at");
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aSkippedSuccessPostsNothing(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(SqeFlags.CQE_SKIP_SUCCESS);
            sqe(ring).prepNop().userData(2);
            assertEquals(2, ring.submit());
            assertEquals(cqe(2, 0), next(ring));
            assertQuiet(ring);
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anInvalidOpcodeFailsWithEinvalAndEndsTheSubmit(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1);
            sqe(ring).prepNop().opcode(BAD_OPCODE).userData(2);
            sqe(ring).prepNop().userData(3);
            assertEquals(2, ring.submit(), "the failing SQE is consumed, the one after it is not");
            assertEquals(List.of(cqe(1, 0), cqe(2, -Errno.EINVAL)), next(ring, 2));
            assertEquals(1, ring.sqReady(), "the third SQE waits for the next submit");
            assertNoCqe(ring);
            assertEquals(1, ring.submit());
            assertEquals(cqe(3, 0), next(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void anUnknownSqeFlagIsEinval(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(0x80);
            assertEquals(cqe(1, -Errno.EINVAL), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aSubmissionFailurePostsEvenWithCqeSkipSuccess(int setup) {
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().opcode(BAD_OPCODE).userData(1).flags(SqeFlags.CQE_SKIP_SUCCESS);
            assertEquals(cqe(1, -Errno.EINVAL), submitAndNext(ring));
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void sqeSlotsRunOutAtTheSqSizeAndComeBackAfterSubmit(int setup) {
        try (IoUring ring = IoUring.builder().entries(4).flags(setup).build()) {
            for (int i = 0; i < 4; i++) {
                Sqe sqe = ring.getSqe();
                assertNotNull(sqe, "slot " + i);
                sqe.prepNop().userData(i);
            }
            assertNull(ring.getSqe(), "the SQ has 4 entries");
            assertEquals(0, ring.sqSpaceLeft());
            assertEquals(4, ring.submit());
            assertEquals(4, ring.sqSpaceLeft());
            assertEquals(List.of(cqe(0, 0), cqe(1, 0), cqe(2, 0), cqe(3, 0)), next(ring, 4));
        }
    }
}
