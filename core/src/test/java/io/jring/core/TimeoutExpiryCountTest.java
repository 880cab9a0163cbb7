package io.jring.core;

import static io.jring.RingTestSupport.awaitTrue;
import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.SqeFlags;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A TIMEOUT's expiry is counted (Linux's cq_timeouts) when its timer fires, not when its
 * -ETIME is posted, and a fired TIMEOUT leaves the timeout list at once. Only a
 * DEFER_TASKRUN ring shows it: its task work waits for the owner to ask for completions, so
 * a submit can come between the expiry and its CQE. A plain ring runs that task work when
 * the owner enters the ring, before the submit, as Linux's does on return to user space.
 * Checked on Linux 6.18 (tool/anchors/timeout_count.c, cases "window").
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimeoutExpiryCountTest {
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;
    private static final long NEVER = 10_000_000_000L;

    private static IoUring ring(int setup) {
        return IoUring.builder().entries(16).flags(setup).build();
    }

    /**
     * Submits a TIMEOUT of 1 ms (user data 1) and waits, without entering the ring, until its
     * timer fired ({@code othersArmed} timers of NEVER stay armed).
     */
    private static void expireOneWithoutReaping(IoUring ring, int othersArmed) {
        ring.getSqe().prepTimeout(1_000_000, 0, 0).userData(1);
        assertEquals(1, ring.submit());
        Timers timers = ApiAccess.get().contextOf(ring).timeouts.timers;
        awaitTrue(() -> timers.armedCount() == othersArmed, "the timer fired");
    }

    private static void assertNoMore(IoUring ring) {
        assertNull(ring.waitCqe(Duration.ofMillis(30)));
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, DEFER})
    void aCountingTimeoutIssuedBetweenAnExpiryAndItsCqeCountsThatCqe(int setup) {
        try (IoUring ring = ring(setup)) {
            expireOneWithoutReaping(ring, 0);
            ring.getSqe().prepTimeout(NEVER, 1, 0).userData(2);
            assertEquals(1, ring.submit());
            if (setup == DEFER) {
                assertEquals(List.of(new Completion(1, -Errno.ETIME, 0), new Completion(2, 0, 0)), reap(ring, 2));
            } else {
                assertEquals(List.of(new Completion(1, -Errno.ETIME, 0)), reap(ring, 1));
                assertNoMore(ring);
                ring.getSqe().prepTimeoutRemove(2).userData(3);
                ring.submit();
                assertEquals(List.of(new Completion(3, 0, 0), new Completion(2, -Errno.ECANCELED, 0)), reap(ring, 2));
            }
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, DEFER})
    void aTimeoutWhoseTimerFiredIsNoLongerFoundByTimeoutRemove(int setup) {
        try (IoUring ring = ring(setup)) {
            expireOneWithoutReaping(ring, 0);
            ring.getSqe().prepTimeoutRemove(1).userData(2);
            assertEquals(1, ring.submit());
            List<Completion> want = setup == DEFER
                    ? List.of(new Completion(2, -Errno.ENOENT, 0), new Completion(1, -Errno.ETIME, 0))
                    : List.of(new Completion(1, -Errno.ETIME, 0), new Completion(2, -Errno.ENOENT, 0));
            assertEquals(want, reap(ring, 2));
        }
    }

    /** Linux's u32 wrap: the expiry already counted, a flush with nothing posted leaves the count below its last value. */
    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, DEFER})
    void aSkippedCompletionBetweenAnExpiryAndItsCqeCompletesEveryCountingTimeout(int setup) {
        try (IoUring ring = ring(setup)) {
            ring.getSqe().prepTimeout(NEVER, 3, 0).userData(5);
            assertEquals(1, ring.submit());
            expireOneWithoutReaping(ring, 1);
            ring.getSqe().prepNop().userData(3).flags(SqeFlags.CQE_SKIP_SUCCESS);
            assertEquals(1, ring.submit());
            assertEquals(new Completion(1, -Errno.ETIME, 0), reap(ring, 1).get(0));
            if (setup == DEFER) {
                assertEquals(new Completion(5, 0, 0), reap(ring, 1).get(0));
            } else {
                assertNoMore(ring);
                ring.getSqe().prepTimeoutRemove(5).userData(6);
                ring.submit();
                assertEquals(List.of(new Completion(6, 0, 0), new Completion(5, -Errno.ECANCELED, 0)), reap(ring, 2));
            }
        }
    }
}
