package io.jring.conformance;

import static io.jring.conformance.ConformanceSupport.BAD_FD;
import static io.jring.conformance.ConformanceSupport.BAD_OPCODE;
import static io.jring.conformance.ConformanceSupport.NEVER;
import static io.jring.conformance.ConformanceSupport.assertQuiet;
import static io.jring.conformance.ConformanceSupport.cqe;
import static io.jring.conformance.ConformanceSupport.next;
import static io.jring.conformance.ConformanceSupport.ring;
import static io.jring.conformance.ConformanceSupport.sqe;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.testkit.RingTestSupport.Completion;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A LINK_TIMEOUT whose request ends without it (Linux's io_disarm_next): it completes with
 * -ECANCELED, through task work (after CQEs the same submit posts later), and its own
 * CQE_SKIP_SUCCESS decides whether that CQE is posted, whether its request succeeded,
 * failed at issue or failed at prep. The members after it follow the failed member's
 * CQE_SKIP_SUCCESS, and so does a LINK_TIMEOUT further down a failed chain.
 */
@org.junit.jupiter.api.Timeout(value = 10, unit = TimeUnit.SECONDS)
class LinkTimeoutInFailedChainTest {
    private static final int SKIP = SqeFlags.CQE_SKIP_SUCCESS;
    private static final int LINK = SqeFlags.IO_LINK;

    private enum Member { SUCCEEDS, FAILS_AT_ISSUE, FAILS_AT_PREP }

    private static Sqe prepMember(IoUring ring, Arena arena, Member m) {
        return switch (m) {
            case SUCCEEDS -> sqe(ring).prepNop();
            case FAILS_AT_ISSUE -> sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0);
            case FAILS_AT_PREP -> sqe(ring).prepNop().opcode(BAD_OPCODE);
        };
    }

    private static int resultOf(Member m) {
        return switch (m) {
            case SUCCEEDS -> 0;
            case FAILS_AT_ISSUE -> -Errno.EBADF;
            case FAILS_AT_PREP -> -Errno.EINVAL;
        };
    }

    /** Member (ud 1), its LINK_TIMEOUT (ud 2), an unlinked NOP (ud 9): every combination of their skips. */
    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aLinkTimeoutsOwnSkipDecidesWhetherItsCancellationPosts(int setup) {
        for (Member m : Member.values()) {
            for (int bits = 0; bits < 4; bits++) {
                boolean memberSkips = (bits & 1) != 0;
                boolean timeoutSkips = (bits & 2) != 0;
                try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
                    prepMember(ring, arena, m).userData(1).flags(LINK | (memberSkips ? SKIP : 0));
                    sqe(ring).prepLinkTimeout(NEVER, 0).userData(2).flags(timeoutSkips ? SKIP : 0);
                    sqe(ring).prepNop().userData(9);
                    assertEquals(3, ring.submit());
                    List<Completion> want = new ArrayList<>();
                    if (resultOf(m) != 0 || !memberSkips) {
                        want.add(cqe(1, resultOf(m)));
                    }
                    want.add(cqe(9, 0));
                    if (!timeoutSkips) {
                        want.add(cqe(2, -Errno.ECANCELED));
                    }
                    String what = m + (memberSkips ? " with skip" : "") + ", timeout" + (timeoutSkips ? " with skip" : "");
                    assertEquals(want, next(ring, want.size()), what);
                    assertQuiet(ring);
                }
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void theMembersAfterTheTimeoutFollowTheFailedMembersSkip(int setup) {
        for (Member m : new Member[] {Member.FAILS_AT_ISSUE, Member.FAILS_AT_PREP}) {
            try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
                prepMember(ring, arena, m).userData(1).flags(LINK | SKIP);
                sqe(ring).prepLinkTimeout(NEVER, 0).userData(2).flags(LINK);
                sqe(ring).prepNop().userData(3);
                sqe(ring).prepNop().userData(9);
                ring.submit();
                assertEquals(List.of(cqe(1, resultOf(m)), cqe(9, 0), cqe(2, -Errno.ECANCELED)), next(ring, 3), m.name());
                assertQuiet(ring);
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @MethodSource("io.jring.conformance.ConformanceSupport#ringKinds")
    void aTimeoutFurtherDownAFailedChainFollowsTheFailedMembersSkip(int setup) {
        try (IoUring ring = ring(setup); Arena arena = Arena.ofConfined()) {
            sqe(ring).prepRead(BAD_FD, arena.allocate(8), 0).userData(1).flags(LINK);
            sqe(ring).prepNop().userData(2).flags(LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(3).flags(SKIP);
            sqe(ring).prepNop().userData(9);
            ring.submit();
            assertEquals(List.of(cqe(1, -Errno.EBADF), cqe(9, 0), cqe(2, -Errno.ECANCELED), cqe(3, -Errno.ECANCELED)),
                    next(ring, 4));
        }
        try (IoUring ring = ring(setup)) {
            sqe(ring).prepNop().userData(1).flags(LINK | SKIP);
            sqe(ring).prepNop().opcode(BAD_OPCODE).userData(2).flags(LINK);
            sqe(ring).prepLinkTimeout(NEVER, 0).userData(3);
            sqe(ring).prepNop().userData(9);
            ring.submit();
            assertEquals(List.of(cqe(1, -Errno.ECANCELED), cqe(9, 0)), next(ring, 2));
            assertQuiet(ring);
        }
    }
}
