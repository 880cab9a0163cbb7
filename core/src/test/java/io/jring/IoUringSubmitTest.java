package io.jring;

import static io.jring.RingTestSupport.drain;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.jring.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The submission side of {@link IoUring} and {@link Sqe}: SQ space, SQE reset, submit
 * counts, and validation of bad SQEs into {@code -EINVAL} CQEs (Linux's io_submit_sqes
 * and io_init_req; liburing's test/nop.c).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class IoUringSubmitTest {

    private static final int[] SETUPS = {0, Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN};

    @Test
    void getSqeReturnsNullWhenSqIsFull() {
        try (IoUring ring = IoUring.open(4)) {
            for (int i = 0; i < 4; i++) {
                assertEquals(i, ring.sqReady());
                assertEquals(4 - i, ring.sqSpaceLeft());
                assertNotNull(ring.getSqe(), "slot " + i);
            }
            assertNull(ring.getSqe());
            assertNull(ring.getSqe(), "still full");
            assertEquals(4, ring.sqReady());
            assertEquals(0, ring.sqSpaceLeft());
        }
    }

    @Test
    void submitFreesSqSpaceAndReturnsTheConsumedCount() {
        try (IoUring ring = IoUring.open(4)) {
            prepNops(ring, 0, 4, 0);
            assertEquals(4, ring.submit());
            assertEquals(0, ring.sqReady());
            assertEquals(4, ring.sqSpaceLeft());
            prepNops(ring, 4, 3, 0);
            assertEquals(3, ring.sqReady());
            assertEquals(1, ring.sqSpaceLeft());
            assertEquals(3, ring.submit());
            assertEquals(0, ring.submit(), "nothing prepared");
            assertEquals(7, drain(ring).size());
        }
    }

    @Test
    void submitAndWaitReturnsTheConsumedCount() {
        try (IoUring ring = IoUring.open(8)) {
            prepNops(ring, 0, 5, 0);
            assertEquals(5, ring.submitAndWait(2));
            assertEquals(5, ring.cqReady());
            assertEquals(0, ring.submitAndWait(1), "nothing prepared; CQEs already ready");
            assertEquals(0, ring.submitAndWait(0));
            assertEquals(5, drain(ring).size());
        }
    }

    @Test
    void getSqeReturnsAResetSlotEvenWhenTheSlotIsReused() {
        try (IoUring ring = IoUring.open(1); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(16);
            Sqe first = ring.getSqe();
            fillEveryField(first, buf);
            first.opcode(Opcode.NOP).opFlags(0).flags(0); // a valid NOP; the other fields are ignored
            assertEquals(1, ring.submit());
            Sqe again = ring.getSqe();
            assertSame(first, again, "a 1-entry SQ reuses its only slot");
            assertEmpty(again, 0);
            assertEquals(0, again.userData());
            assertEquals(0, again.ioprio());
            assertEquals(0, again.off());
            assertEquals(0, again.addr2());
            assertEquals(0, again.addr3());
            again.prepNop().userData(2);
            ring.submit();
            assertEquals(List.of(99L, 2L), drain(ring).stream().map(Completion::userData).toList());
        }
    }

    @Test
    void prepResetsEveryField() {
        try (IoUring ring = IoUring.open(2); Arena arena = Arena.ofConfined()) {
            Sqe sqe = ring.getSqe();
            fillEveryField(sqe, arena.allocate(16));
            assertSame(sqe, sqe.prepNop());
            assertEmpty(sqe, Opcode.NOP);
            assertEquals(0, sqe.userData());
            assertEquals(0, sqe.ioprio());
            assertEquals(0, sqe.off());
            assertEquals(0, sqe.addr2());
            assertEquals(0, sqe.addr3());
            assertSame(sqe, sqe.userData(5).flags(SqeFlags.ASYNC).ioprio(3), "chaining");
            assertEquals(5, sqe.userData());
            assertEquals(SqeFlags.ASYNC, sqe.flags());
            assertEquals(3, sqe.ioprio());
        }
    }

    private static void fillEveryField(Sqe sqe, MemorySegment buf) {
        sqe.opcode(Opcode.READ).fd(7).off(1234).addr(buf).len(16).opFlags(3).bufIndex(2).fileIndex(5)
                .addr2(77).addr3(88).arg("x").bufferGroup(9);
        sqe.userData(99).flags(SqeFlags.IO_LINK).ioprio(4);
    }

    private static void assertEmpty(Sqe sqe, int opcode) {
        assertEquals(opcode, sqe.opcode());
        assertEquals(0, sqe.flags());
        assertEquals(0, sqe.fd());
        assertNull(sqe.addr());
        assertEquals(0, sqe.len());
        assertEquals(0, sqe.opFlags());
        assertEquals(0, sqe.bufIndex());
        assertEquals(0, sqe.bufGroup());
        assertEquals(0, sqe.fileIndex());
        assertNull(sqe.arg());
    }

    // ---- invalid SQEs: a -EINVAL CQE with the right user data, never an exception

    private static void assertEinvalCqe(Consumer<Sqe> prep) {
        assertErrorCqe(prep, Errno.EINVAL);
    }

    private static void assertErrorCqe(Consumer<Sqe> prep, int errno) {
        for (int setup : SETUPS) {
            for (int async : new int[] {0, SqeFlags.ASYNC}) {
                try (IoUring ring = IoUring.builder().entries(4).flags(setup).build()) {
                    Sqe sqe = ring.getSqe();
                    prep.accept(sqe);
                    sqe.userData(0xC0FFEEL).flags(sqe.flags() | async);
                    assertEquals(1, assertDoesNotThrow(ring::submit));
                    List<Completion> got = reap(ring, 1);
                    String where = "setup 0x" + Integer.toHexString(setup) + " async " + async;
                    assertEquals(0xC0FFEEL, got.get(0).userData(), where);
                    assertEquals(-errno, got.get(0).res(), where);
                    assertNull(ring.peekCqe(), where);
                }
            }
        }
    }

    @ParameterizedTest(name = "opcode {0}")
    @ValueSource(ints = {200, Opcode.LAST, 255, -1, Integer.MAX_VALUE})
    void unknownOpcodeCompletesWithEinval(int opcode) {
        assertEinvalCqe(sqe -> sqe.opcode(opcode));
    }

    @Test
    void linuxOpcodeThatJringDoesNotSupportCompletesWithEinval() {
        int uringCmd = 46; // IORING_OP_URING_CMD: passthrough to a driver, nothing jring can do
        assertEquals("URING_CMD", Opcode.name(uringCmd));
        assertEinvalCqe(sqe -> sqe.opcode(uringCmd));
    }

    @ParameterizedTest(name = "flags 0x{0}")
    @ValueSource(ints = {1 << 7, 1 << 8, 1 << 31, (1 << 7) | SqeFlags.ASYNC})
    void unknownSqeFlagBitsCompleteWithEinval(int flags) {
        assertEinvalCqe(sqe -> sqe.prepNop().flags(flags));
    }

    @Test
    void bufferSelectOnNopCompletesWithEopnotsupp() {
        // Linux's io_init_req: BUFFER_SELECT on an op that cannot select is -EOPNOTSUPP.
        assertErrorCqe(sqe -> sqe.prepNop().flags(SqeFlags.BUFFER_SELECT).bufferGroup(1), Errno.EOPNOTSUPP);
    }

    @Test
    void nopWithUnknownOpFlagsCompletesWithEinval() {
        assertEinvalCqe(sqe -> sqe.prepNop().opFlags(64));   // 1..16 are Linux 6.18's NOP flags (NopFlagsTest)
    }

    // ---- stop at the first failure unless SUBMIT_ALL

    private static void prepMixed(IoUring ring) {
        ring.getSqe().prepNop().userData(1);
        ring.getSqe().opcode(200).userData(2);
        ring.getSqe().prepNop().userData(3);
        ring.getSqe().prepNop().userData(4).flags(1 << 7);
        ring.getSqe().prepNop().userData(5);
    }

    @Test
    void withoutSubmitAllSubmissionStopsAfterTheFirstFailingSqe() {
        for (int setup : SETUPS) {
            try (IoUring ring = IoUring.builder().entries(8).flags(setup).build()) {
                prepMixed(ring);
                assertEquals(2, ring.submit(), "the good SQE and the failing one are consumed");
                assertEquals(3, ring.sqReady(), "the rest stay queued");
                assertEquals(5, ring.sqSpaceLeft());
                assertEquals(List.of(new Completion(1, 0, 0), new Completion(2, -Errno.EINVAL, 0)), reap(ring, 2));
                assertNull(ring.peekCqe());

                assertEquals(2, ring.submit(), "next submit resumes and stops at the next failure");
                assertEquals(1, ring.sqReady());
                assertEquals(List.of(new Completion(3, 0, 0), new Completion(4, -Errno.EINVAL, 0)), reap(ring, 2));

                assertEquals(1, ring.submit());
                assertEquals(0, ring.sqReady());
                assertEquals(List.of(new Completion(5, 0, 0)), reap(ring, 1));
                assertNull(ring.peekCqe());
            }
        }
    }

    @Test
    void failingFirstSqeIsConsumedAloneWithoutSubmitAll() {
        try (IoUring ring = IoUring.open(4)) {
            ring.getSqe().prepNop().userData(1).opFlags(64);
            ring.getSqe().prepNop().userData(2);
            assertEquals(1, ring.submit());
            assertEquals(1, ring.sqReady());
            assertEquals(List.of(new Completion(1, -Errno.EINVAL, 0)), reap(ring, 1));
            assertEquals(1, ring.submitAndWait(1));
            assertEquals(List.of(new Completion(2, 0, 0)), reap(ring, 1));
        }
    }

    @Test
    void withSubmitAllEverySqeIsConsumed() {
        for (int setup : SETUPS) {
            try (IoUring ring = IoUring.builder().entries(8).flags(setup | Setup.SUBMIT_ALL).build()) {
                prepMixed(ring);
                assertEquals(5, ring.submit());
                assertEquals(0, ring.sqReady());
                assertEquals(8, ring.sqSpaceLeft());
                assertEquals(List.of(new Completion(1, 0, 0), new Completion(2, -Errno.EINVAL, 0),
                        new Completion(3, 0, 0), new Completion(4, -Errno.EINVAL, 0), new Completion(5, 0, 0)),
                        reap(ring, 5));
                assertNull(ring.peekCqe());
            }
        }
    }
}
