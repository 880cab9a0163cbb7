package io.jring.tw;

import static io.jring.RingTestSupport.await;
import static io.jring.RingTestSupport.ioWqName;
import static io.jring.RingTestSupport.liveWorkers;
import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.SqeFlags;
import io.jring.TaskWorkKind;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Task work of a dead owner ({@link Fallback}, Linux's fallback work for exiting tasks):
 * it runs in cancel mode on the fallback thread or on a helper, every request completes
 * exactly once ({@code 0} if it finished before the owner died, else {@code -ECANCELED}),
 * and nothing hangs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FallbackTest {

    private static final int PER_SUBMIT = 64;
    private static final int SUBMITS = 4;
    private static final int TOTAL = PER_SUBMIT * SUBMITS;

    /** Starts a thread that submits TOTAL ASYNC NOPs and dies right after, without waiting. */
    private static Thread submitAndDie(IoUring ring, AtomicReference<Throwable> failure) {
        Thread t = new Thread(() -> {
            try {
                for (int s = 0; s < SUBMITS; s++) {
                    for (int i = 0; i < PER_SUBMIT; i++) {
                        ring.getSqe().prepNop().userData(s * PER_SUBMIT + i).flags(SqeFlags.ASYNC);
                    }
                    assertEquals(PER_SUBMIT, ring.submit());
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "short-lived-submitter");
        t.start();
        return t;
    }

    private static void assertEachOnceOkOrCancelled(List<Completion> got) {
        BitSet seen = new BitSet(TOTAL);
        for (Completion c : got) {
            int ud = (int) c.userData();
            assertTrue(ud >= 0 && ud < TOTAL, "unexpected user data " + ud);
            assertFalse(seen.get(ud), "duplicate CQE for " + ud);
            seen.set(ud);
            assertTrue(c.res() == 0 || c.res() == -Errno.ECANCELED, "user data " + ud + ": res " + c.res());
        }
        assertEquals(TOTAL, seen.cardinality());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void deadSubmittersWorkCompletesExactlyOnceForAWaiterOnTheSharedRing(TaskWorkKind kind) throws InterruptedException {
        for (int iteration = 0; iteration < 6; iteration++) {
            try (IoUring ring = IoUring.builder().entries(PER_SUBMIT).taskWorkList(kind).build()) {
                ring.registerIoWqMaxWorkers(1, 1); // keeps work queued in io-wq after the submitter dies
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread submitter = submitAndDie(ring, failure);
                if (iteration % 2 == 0) {
                    submitter.join(RingTestSupport.WAIT.toMillis()); // surely dead before anyone waits
                    assertFalse(submitter.isAlive());
                }
                // Odd iterations wait while the submitter may still be alive and dying.
                List<Completion> got = reap(ring, TOTAL);
                submitter.join(RingTestSupport.WAIT.toMillis());
                assertNull(failure.get());
                assertEachOnceOkOrCancelled(got);
                assertNull(ring.peekCqe(), "nothing duplicated");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void addToADeadOwnerRunsOnTheFallbackInCancelMode(TaskWorkKind kind) throws InterruptedException {
        AtomicReference<TaskContext> ctx = new AtomicReference<>();
        Thread dead = new Thread(() -> ctx.set(TaskContext.current()), "dead-owner");
        dead.start();
        dead.join(RingTestSupport.WAIT.toMillis());
        assertFalse(dead.isAlive());
        TaskContext tc = ctx.get();
        CountDownLatch ran = new CountDownLatch(3);
        AtomicReference<Thread> runner = new AtomicReference<>();
        BitSet cancelled = new BitSet();
        TaskWorkTarget noRing = new TaskWorkTarget() {
            @Override
            public void beginTaskRun() {
            }

            @Override
            public void endTaskRun(int items) {
            }
        };
        for (int i = 0; i < 3; i++) {
            int id = i;
            tc.addTaskWork(new TaskWork() {
                @Override
                public TaskWorkTarget target() {
                    return noRing;
                }

                @Override
                public void runTaskWork(boolean cancel) {
                    runner.set(Thread.currentThread());
                    synchronized (cancelled) {
                        cancelled.set(id, cancel);
                    }
                    ran.countDown();
                }
            }, kind);
        }
        await(ran);
        assertTrue(runner.get().getName().startsWith("jring-fallback"), "ran on " + runner.get().getName());
        synchronized (cancelled) {
            assertEquals(3, cancelled.cardinality(), "a dead owner's work runs in cancel mode");
        }
        RingTestSupport.awaitTrue(() -> !tc.hasPendingWork(), "the list is empty");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void closingASingleIssuerRingWhoseOwnerDiedDoesNotHang(TaskWorkKind kind) throws InterruptedException {
        for (int setup : new int[] {Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN}) {
            IoUring ring = IoUring.builder().entries(PER_SUBMIT).taskWorkList(kind).flags(setup).build();
            String wq = ioWqName(ring);
            ring.registerIoWqMaxWorkers(1, 1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread submitter = submitAndDie(ring, failure);
            submitter.join(RingTestSupport.WAIT.toMillis());
            assertNull(failure.get());
            ring.close();
            assertEquals(List.of(), liveWorkers(wq));
        }
    }
}
