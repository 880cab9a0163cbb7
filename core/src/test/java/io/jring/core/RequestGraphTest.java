package io.jring.core;

import io.jring.Cancel;
import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.Setup;
import io.jring.SqeFlags;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Links, drain, timeouts and cancel through the ring: the engine's own checks (the conformance suite has the rest). */
@Timeout(20)
class RequestGraphTest {
    private static final long MS = 1_000_000L;

    private static IoUring ring(int flags) {
        return IoUring.builder().entries(32).flags(flags).build();
    }

    /** Takes n CQEs as "userData:res" strings, in order. */
    private static List<String> take(IoUring ring, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Cqe c = ring.waitCqe();
            out.add(c.userData() + ":" + (c.res() < 0 ? Errno.name(-c.res()) : String.valueOf(c.res())));
            ring.cqeSeen(c);
        }
        assertNull(ring.peekCqe(), "no more CQEs");
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void aFailedLinkCancelsTheRestAndAHardlinkGoesOn(int flags) {
        try (IoUring ring = ring(flags)) {
            ring.getSqe().prepNop().userData(1).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepTimeoutRemove(999).userData(2).flags(SqeFlags.IO_LINK);   // -ENOENT
            ring.getSqe().prepNop().userData(3).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepNop().userData(4);
            ring.submitAndWait(4);
            assertEquals(List.of("1:0", "2:ENOENT", "3:ECANCELED", "4:ECANCELED"), take(ring, 4));
            ring.getSqe().prepTimeoutRemove(999).userData(5).flags(SqeFlags.IO_HARDLINK);
            ring.getSqe().prepNop().userData(6);
            ring.submitAndWait(2);
            assertEquals(List.of("5:ENOENT", "6:0"), take(ring, 2));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER})
    void anInvalidMemberFailsItsWholeChainWhileSubmissionGoesOn(int flags) {
        try (IoUring ring = ring(flags)) {
            ring.getSqe().prepNop().userData(1).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepNop().userData(2).flags(SqeFlags.IO_LINK).opcode(200);   // bad opcode
            ring.getSqe().prepNop().userData(3);
            ring.getSqe().prepNop().userData(4);
            // Linux keeps assembling a chain whose member failed, so the batch goes on; the
            // head posts at once, the rest from task work after NOP 4 (io_fail_links; 6.18).
            assertEquals(4, ring.submitAndWait(4));
            assertEquals(List.of("1:ECANCELED", "4:0", "2:EINVAL", "3:ECANCELED"), take(ring, 4));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void drainWaitsForEverythingBefore(int flags) {
        int[] p = Fds.pipe();
        try (IoUring ring = ring(flags); Arena arena = Arena.ofConfined()) {
            ring.getSqe().prepRead(p[0], arena.allocate(8), 0).userData(1);
            ring.getSqe().prepNop().userData(2).flags(SqeFlags.IO_DRAIN);
            ring.getSqe().prepNop().userData(3);
            ring.submit();
            assertNull(ring.peekCqe(), "the drain and what follows wait for the read");
            Fds.write(p[1], new byte[8]);
            assertEquals(List.of("1:8", "2:0", "3:0"), take(ring, 3));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void timeoutsExpireCountAndGetRemoved(int flags) {
        try (IoUring ring = ring(flags)) {
            ring.getSqe().prepTimeout(20 * MS, 0, 0).userData(1);
            ring.submitAndWait(1);
            assertEquals(List.of("1:ETIME"), take(ring, 1));

            ring.getSqe().prepTimeout(10_000 * MS, 2, 0).userData(2);
            ring.getSqe().prepNop().userData(3);
            ring.getSqe().prepNop().userData(4);
            ring.submitAndWait(3);
            assertEquals(List.of("3:0", "4:0", "2:0"), take(ring, 3));

            ring.getSqe().prepTimeout(10_000 * MS, 0, 0).userData(5);
            ring.submit();
            ring.getSqe().prepTimeoutRemove(5).userData(6);
            ring.submitAndWait(2);
            List<String> got = take(ring, 2);
            assertTrue(got.containsAll(List.of("5:ECANCELED", "6:0")), got.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void aLinkTimeoutCancelsAStuckRequestOrIsCancelledByAQuickOne(int flags) {
        int[] p = Fds.pipe();
        try (IoUring ring = ring(flags); Arena arena = Arena.ofConfined()) {
            ring.getSqe().prepRead(p[0], arena.allocate(8), 0).userData(1).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepLinkTimeout(20 * MS, 0).userData(2);
            ring.submitAndWait(2);
            List<String> got = take(ring, 2);
            assertTrue(got.containsAll(List.of("1:ECANCELED", "2:ETIME")), got.toString());

            ring.getSqe().prepNop().userData(3).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepLinkTimeout(10_000 * MS, 0).userData(4).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepNop().userData(5);
            ring.submitAndWait(3);
            assertEquals(List.of("3:0", "4:ECANCELED", "5:0"), take(ring, 3));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void cancelFindsPollsAndTimeoutsByUserDataFdOrAny(int flags) {
        int[] p = Fds.pipe();
        try (IoUring ring = ring(flags)) {
            ring.getSqe().prepPollAdd(p[0], Poll.IN).userData(1);
            ring.getSqe().prepTimeout(10_000 * MS, 0, 0).userData(2);
            ring.getSqe().prepPollAdd(p[0], Poll.IN).userData(3);
            ring.submit();
            ring.getSqe().prepCancel(1, 0).userData(10);
            ring.submitAndWait(2);
            List<String> got = take(ring, 2);
            assertTrue(got.containsAll(List.of("1:ECANCELED", "10:0")), got.toString());

            ring.getSqe().prepCancel(12345, 0).userData(11);
            ring.submitAndWait(1);
            assertEquals(List.of("11:ENOENT"), take(ring, 1));

            ring.getSqe().prepCancel(0, Cancel.ANY).userData(12);
            ring.submitAndWait(3);
            got = take(ring, 3);
            assertTrue(got.containsAll(List.of("2:ECANCELED", "3:ECANCELED", "12:2")), got.toString());
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void closeWithTimeoutsDrainAndLinksInFlightFinishesEverything(int flags) {
        int[] p = Fds.pipe();
        Arena arena = Arena.ofShared();
        try {
            IoUring ring = ring(flags);
            ring.getSqe().prepTimeout(10_000 * MS, 0, 0).userData(1);
            ring.getSqe().prepRead(p[0], arena.allocate(8), 0).userData(2).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepLinkTimeout(10_000 * MS, 0).userData(3).flags(SqeFlags.IO_LINK);
            ring.getSqe().prepNop().userData(4);
            ring.getSqe().prepNop().userData(5).flags(SqeFlags.IO_DRAIN);
            ring.submit();
            ring.close();
            assertFalse(Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().startsWith("jring-timer-") && t.isAlive()
                            && t.getName().endsWith("r" + ApiAccess.get().contextOf(ring).id())),
                    "close() stops the timer thread");
        } finally {
            arena.close();
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }
}
