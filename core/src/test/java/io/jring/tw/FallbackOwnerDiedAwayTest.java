package io.jring.tw;

import static io.jring.RingTestSupport.await;
import static io.jring.RingTestSupport.awaitTrue;
import static io.jring.RingTestSupport.prepNops;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.IoUring;
import io.jring.RingTestSupport;
import io.jring.SqeFlags;
import io.jring.TaskWorkKind;
import io.jring.core.ApiAccess;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Fallback} for an owner that dies while <em>away</em> (outside the engine) with task
 * work already queued: issue 2 and DESIGN.md section 3 say that a dead owner's "pending and
 * future task work runs on a fallback thread in cancel mode". Kept apart from
 * {@link FallbackTest} because these fail on the engine as it is (see each test).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FallbackOwnerDiedAwayTest {

    /** Long enough for a fallback thread to start and run a few items many times over. */
    private static final long FALLBACK_BOUND_MS = 1_000;
    /** The gap is in TaskContext, the same for every list strategy: the default one shows it. */
    private static final TaskWorkKind KIND = TaskWorkKind.MPSC;

    private static final TaskWorkTarget NO_RING = new TaskWorkTarget() {
        @Override
        public void beginTaskRun() {
        }

        @Override
        public void endTaskRun(int items) {
        }
    };

    private static final class Probe extends TaskWork {
        final CountDownLatch ran = new CountDownLatch(1);
        final AtomicBoolean cancelled = new AtomicBoolean();

        @Override
        public TaskWorkTarget target() {
            return NO_RING;
        }

        @Override
        public void runTaskWork(boolean cancel) {
            cancelled.set(cancel);
            ran.countDown();
        }
    }

    private static boolean ranWithin(Probe p) throws InterruptedException {
        return p.ran.await(FALLBACK_BOUND_MS, TimeUnit.MILLISECONDS);
    }

    /** A thread that publishes its context, stays away until {@code die}, then ends. */
    private static TaskContext awayOwner(CountDownLatch die, Thread[] thread) {
        AtomicReference<TaskContext> ctx = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            ctx.set(TaskContext.current());
            ready.countDown();
            await(die);
        }, "owner-dies-away");
        t.start();
        await(ready);
        thread[0] = t;
        return ctx.get();
    }

    @Test
    void workQueuedBeforeTheOwnerDiesAwayRunsOnTheFallback() throws InterruptedException {
        CountDownLatch die = new CountDownLatch(1);
        Thread[] owner = new Thread[1];
        TaskContext tc = awayOwner(die, owner);
        Probe pending = new Probe();
        tc.addTaskWork(pending, KIND); // owner alive and away: nobody is woken, as designed
        die.countDown();
        owner[0].join(RingTestSupport.WAIT.toMillis());
        assertFalse(owner[0].isAlive());
        assertTrue(ranWithin(pending), "work pending when its owner died never ran (no fallback was scheduled)");
        assertTrue(pending.cancelled.get());
    }

    @Test
    void workAddedAfterTheOwnerDiedRunsOnTheFallbackEvenBehindOlderPendingWork()
            throws InterruptedException {
        CountDownLatch die = new CountDownLatch(1);
        Thread[] owner = new Thread[1];
        TaskContext tc = awayOwner(die, owner);
        Probe pending = new Probe();
        tc.addTaskWork(pending, KIND);
        die.countDown();
        owner[0].join(RingTestSupport.WAIT.toMillis());
        assertFalse(owner[0].isAlive());
        Probe future = new Probe();
        tc.addTaskWork(future, KIND); // the owner is dead now, but the list was not empty
        assertTrue(ranWithin(future), "work added for a dead owner never ran: the add found the list non-empty"
                + " and scheduled no fallback");
        assertTrue(future.cancelled.get());
        assertTrue(ranWithin(pending));
    }

    @Test
    void completionsOfASubmitterThatDiedAwayArePostedWithoutAnyoneEnteringTheRing()
            throws InterruptedException {
        try (IoUring ring = IoUring.open(8)) {
            CountDownLatch die = new CountDownLatch(1);
            AtomicReference<TaskContext> ctx = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch submitted = new CountDownLatch(1);
            Thread submitter = new Thread(() -> {
                try {
                    ctx.set(TaskContext.current());
                    prepNops(ring, 0, 8, SqeFlags.ASYNC);
                    assertEquals(8, ring.submit());
                } catch (Throwable e) {
                    failure.set(e);
                } finally {
                    submitted.countDown();
                }
                await(die);
            }, "submitter-dies-away");
            submitter.start();
            await(submitted);
            assertNull(failure.get());
            // All 8 completions come back as task work while the submitter is alive and away.
            awaitTrue(() -> ctx.get().hasPendingWork() && ring.cqReady() == 0
                    && ApiAccess.get().contextOf(ring).ioWq().queuedCount() == 0,
                    "the completions are queued as the submitter's task work");
            die.countDown();
            submitter.join(RingTestSupport.WAIT.toMillis());
            assertFalse(submitter.isAlive());
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FALLBACK_BOUND_MS);
            while (ring.cqReady() < 8 && System.nanoTime() - deadline < 0) {
                Thread.yield();
            }
            assertEquals(8, ring.cqReady(), "the dead submitter's pending completions were never run by the fallback");
        }
    }
}
