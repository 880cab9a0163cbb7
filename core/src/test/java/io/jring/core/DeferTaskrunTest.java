package io.jring.core;

import static io.jring.RingTestSupport.drain;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.reap;
import static io.jring.RingTestSupport.waitCqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.IoUring;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.SqeFlags;
import io.jring.TaskWorkKind;
import io.jring.tw.TaskContext;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * IORING_SETUP_DEFER_TASKRUN (mirrors {@link LocalWorkList}; liburing's test/defer-taskrun.c):
 * io-wq completions wait in the ring's own list until the owner asks for completions, and a
 * waiter for N completions is woken at most once (lazy wake by countdown).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DeferTaskrunTest {

    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    /** Ways for the owner to ask for completions. */
    enum Ask {
        PEEK(r -> r.peekCqe()),
        WAIT(r -> r.waitCqe()),
        WAIT_TIMEOUT(r -> r.waitCqe(Duration.ofSeconds(10))),
        SUBMIT_AND_WAIT(r -> {
            r.submitAndWait(1);
            return r.peekCqe();
        }),
        FOR_EACH(r -> {
            assertEquals(1, r.forEachCqe((ud, res, fl) -> assertEquals(1, ud)));
            return null;
        });

        final Function<IoUring, Cqe> call;

        Ask(Function<IoUring, Cqe> call) {
            this.call = call;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Ask.class)
    void asyncNopCompletesOnlyWhenTheOwnerAsksForCompletions(Ask ask) {
        // probe shares the ring's io-wq, whose single worker runs the ring's NOP before the
        // probe's: once the probe's CQE is in, the ring's NOP sits in the ring's local list.
        try (IoUring ring = IoUring.builder().entries(4).flags(DEFER).build();
                IoUring probe = IoUring.builder().entries(4).flags(Setup.ATTACH_WQ).attachWq(ring).build()) {
            ring.registerIoWqMaxWorkers(1, 1);
            prepNops(ring, 1, 1, SqeFlags.ASYNC);
            assertEquals(1, ring.submit());
            prepNops(probe, 2, 1, SqeFlags.ASYNC);
            assertEquals(1, probe.submit());
            Cqe probed = waitCqe(probe);
            assertEquals(2, probed.userData());
            probe.cqeSeen(probed);

            assertFalse(TaskContext.current().hasPendingWork(), "deferred work is not the thread's task work");
            assertEquals(0, ring.cqReady(), "not run before the owner asks");
            assertEquals(0, ring.submit(), "a plain submit does not ask for completions");
            assertEquals(0, ring.cqReady());
            assertNull(probe.peekCqe(), "entering another ring does not run it either");
            assertEquals(0, ring.cqReady());

            Cqe c = ask.call.apply(ring);
            if (ask != Ask.FOR_EACH) {
                assertNotNull(c);
                assertEquals(1, c.userData());
                assertEquals(0, c.res());
                ring.cqeSeen(c);
            }
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void submitAndWaitReturnsWithAtLeastNCqes(TaskWorkKind kind) {
        try (IoUring ring = IoUring.builder().entries(16).flags(DEFER).taskWorkList(kind).build()) {
            for (int round = 0; round < 100; round++) {
                int n = 1 + round % 16;
                prepNops(ring, round * 16L, n, SqeFlags.ASYNC);
                assertEquals(n, ring.submitAndWait(n));
                assertTrue(ring.cqReady() >= n, "round " + round + ": " + ring.cqReady() + " < " + n);
                List<Completion> got = drain(ring);
                assertEquals(n, got.size());
                BitSet seen = new BitSet();
                for (Completion c : got) {
                    assertEquals(0, c.res());
                    seen.set((int) (c.userData() - round * 16L));
                }
                assertEquals(n, seen.cardinality());
                assertEquals(n, seen.nextClearBit(0));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void deferTaskrunWaiterIsWokenAtMostOnceForNCompletions(TaskWorkKind kind) {
        int iterations = 200;
        int n = 8;
        TaskContext me = TaskContext.current();
        try (IoUring ring = IoUring.builder().entries(n).flags(DEFER).taskWorkList(kind).build()) {
            // One worker completes the NOPs one after the other while the owner sleeps.
            ring.registerIoWqMaxWorkers(1, 1);
            long total = 0;
            for (int i = 0; i < iterations; i++) {
                prepNops(ring, (long) i * n, n, SqeFlags.ASYNC);
                long before = me.wakeups();
                assertEquals(n, ring.submitAndWait(n));
                long delta = me.wakeups() - before;
                assertTrue(delta <= 1, "iteration " + i + ": woken " + delta + " times for one wait of " + n);
                total += delta;
                assertEquals(n, ring.cqReady());
                assertEquals(n, drain(ring).size());
            }
            assertTrue(total <= iterations);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void waitCqeLoopIsWokenAtMostOncePerCqe(TaskWorkKind kind) {
        TaskContext me = TaskContext.current();
        try (IoUring ring = IoUring.builder().entries(64).flags(DEFER).taskWorkList(kind).build()) {
            ring.registerIoWqMaxWorkers(1, 1);
            prepNops(ring, 0, 64, SqeFlags.ASYNC);
            long before = me.wakeups();
            ring.submit();
            List<Completion> got = reap(ring, 64);
            assertTrue(me.wakeups() - before <= 64, "woken " + (me.wakeups() - before) + " times for 64 CQEs");
            BitSet seen = new BitSet();
            got.forEach(c -> seen.set((int) c.userData()));
            assertEquals(64, seen.cardinality());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void inlineCompletionsOfADeferRingArePostedBySubmit(TaskWorkKind kind) {
        try (IoUring ring = IoUring.builder().entries(8).flags(DEFER).taskWorkList(kind).build()) {
            prepNops(ring, 1, 3, 0);
            ring.submit();
            assertEquals(3, ring.cqReady(), "inline completions are not task work");
            assertEquals(List.of(1L, 2L, 3L), drain(ring).stream().map(Completion::userData).toList());
        }
    }
}
