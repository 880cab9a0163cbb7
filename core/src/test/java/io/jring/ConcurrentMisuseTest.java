package io.jring;

import static io.jring.RingTestSupport.WAIT;
import static io.jring.RingTestSupport.awaitTrue;
import static io.jring.RingTestSupport.prepNops;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.core.ApiAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * A ring used by several threads at once (liburing: one thread may submit while another
 * reaps, but two submitters or two reapers need the application's own lock). jring checks
 * the overlap instead of corrupting the queues: a thread that uses the submission side
 * (getSqe ... submit) or the completion side (peekCqe/waitCqe ... cqeSeen, forEachCqe)
 * while another live thread is using it gets IoUringException EBUSY naming both threads.
 * Whatever the interleaving, every consumed SQE yields exactly one CQE, reaped once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentMisuseTest {

    private static final int NOPS = 20_000;

    /** What one thread of a misuse run did. */
    private static final class Worker {
        final long tag;
        final List<Long> prepared = new ArrayList<>();
        final List<Long> reaped = new ArrayList<>();
        Thread thread;
        Throwable stoppedBy;
        String hang;
        /** With retries: the EBUSY reports this thread got and went round. */
        int busy;
        boolean retry;

        Worker(long tag) {
            this.tag = tag;
        }
    }

    private interface Loop {
        void run(IoUring ring, Worker w, long ud);
    }

    /** {@code call}, again after each EBUSY if the worker retries (a bounded number of times). */
    private static <T> T step(Worker w, java.util.function.Supplier<T> call) {
        for (;;) {
            try {
                return call.get();
            } catch (IoUringException e) {
                if (!w.retry || e.errno() != Errno.EBUSY || ++w.busy > 10_000_000) {
                    throw e;
                }
                Thread.yield();
            }
        }
    }

    /** One NOP: an SQE (submitting to make room if the SQ is full), its user data, a submit. */
    private static void submitOne(IoUring ring, Worker w, long ud) {
        Sqe sqe = step(w, ring::getSqe);
        for (int tries = 0; sqe == null && tries < 1_000; tries++) {
            step(w, ring::submit);
            sqe = step(w, ring::getSqe);
        }
        if (sqe == null) {
            w.hang = "the SQ stayed full";
            throw new IllegalStateException(w.hang);
        }
        sqe.prepNop().userData(ud);
        w.prepared.add(ud);
        step(w, ring::submit);
    }

    /** The new user's loop: one NOP, then wait for a CQE and mark it seen. */
    private static void submitWaitSeen(IoUring ring, Worker w, long ud) {
        submitOne(ring, w, ud);
        Cqe c = step(w, () -> ring.waitCqe(WAIT));
        if (c == null) {
            w.hang = "no CQE within " + WAIT;
            throw new IllegalStateException(w.hang);
        }
        w.reaped.add(c.userData());
        ring.cqeSeen(c);
    }

    /** One NOP, then whatever is ready through forEachCqe (no waiting: the test drains at the end). */
    private static void submitForEach(IoUring ring, Worker w, long ud) {
        submitOne(ring, w, ud);
        step(w, () -> ring.forEachCqe((userData, res, flags) -> w.reaped.add(userData)));
    }

    /**
     * Two threads run {@code loop} NOPS times on one plain ring with no lock, starting
     * together; then this thread submits and reaps what they left. Each thread either
     * finished or was stopped by EBUSY naming both threads ({@code retry}: went round after
     * each, so both finish); every prepared NOP was reaped exactly once and nothing else was.
     */
    private static void assertMisuseLosesNothing(Loop loop, boolean retry) throws Exception {
        try (IoUring ring = IoUring.open(64)) {
            CyclicBarrier start = new CyclicBarrier(2);
            Worker[] workers = {new Worker(1L << 32), new Worker(2L << 32)};
            for (Worker w : workers) {
                w.retry = retry;
                w.thread = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < NOPS; i++) {
                            loop.run(ring, w, w.tag | i);
                        }
                    } catch (Throwable t) {
                        w.stoppedBy = t;
                    }
                }, "misuse-" + (w.tag >>> 32));
                w.thread.setDaemon(true);
                w.thread.start();
            }
            for (Worker w : workers) {
                w.thread.join(4 * WAIT.toMillis());
                assertFalse(w.thread.isAlive(), w.thread.getName() + " hung");
            }
            Set<Long> prepared = new HashSet<>();
            List<Long> reaped = new ArrayList<>();
            for (Worker w : workers) {
                assertNull(w.hang, w.thread.getName() + ": " + w.hang);
                if (w.stoppedBy != null) {
                    IoUringException e = assertInstanceOf(IoUringException.class, w.stoppedBy,
                            w.thread.getName() + " failed with something else than the misuse report");
                    assertEquals(Errno.EBUSY, e.errno(), e.getMessage());
                    assertTrue(e.getMessage().contains("'misuse-1'") && e.getMessage().contains("'misuse-2'"),
                            "the report names both threads: " + e.getMessage());
                }
                if (retry) {
                    assertEquals(NOPS, w.prepared.size(), w.thread.getName() + " did not finish");
                }
                prepared.addAll(w.prepared);
                reaped.addAll(w.reaped);
            }
            ring.submit();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (reaped.size() < prepared.size() && System.nanoTime() - deadline < 0) {
                Cqe c = ring.waitCqe(Duration.ofMillis(100));
                if (c != null) {
                    reaped.add(c.userData());
                    ring.cqeSeen(c);
                }
            }
            ring.forEachCqe((ud, res, fl) -> reaped.add(ud));
            Set<Long> once = new HashSet<>();
            List<Long> duplicated = new ArrayList<>();
            List<Long> phantom = new ArrayList<>();
            for (long ud : reaped) {
                if (!once.add(ud)) {
                    duplicated.add(ud);
                }
                if (!prepared.contains(ud)) {
                    phantom.add(ud);
                }
            }
            assertTrue(duplicated.isEmpty(), duplicated.size() + " CQEs reaped twice, e.g. " + head(duplicated));
            assertTrue(phantom.isEmpty(), phantom.size() + " CQEs nobody submitted, e.g. " + head(phantom));
            assertEquals(prepared.size(), once.size(), "CQEs lost: " + (prepared.size() - once.size()));
        }
    }

    private static List<Long> head(List<Long> l) {
        return l.subList(0, Math.min(5, l.size()));
    }

    @Test
    void twoThreadsWaitingForCqesOnOnePlainRingLoseAndDuplicateNothing() throws Exception {
        assertMisuseLosesNothing(ConcurrentMisuseTest::submitWaitSeen, false);
    }

    @Test
    void twoThreadsReapingWithForEachCqeOnOnePlainRingLoseAndDuplicateNothing() throws Exception {
        assertMisuseLosesNothing(ConcurrentMisuseTest::submitForEach, false);
    }

    /** As above, but each thread goes round after every EBUSY: they overlap all along. */
    @Test
    void twoThreadsRetryingAfterEachBusyReportEachFinishWithEveryCqeOnce() throws Exception {
        assertMisuseLosesNothing(ConcurrentMisuseTest::submitWaitSeen, true);
        assertMisuseLosesNothing(ConcurrentMisuseTest::submitForEach, true);
    }

    // ---------------------------------------------------------------- each overlap, one at a time

    /** Runs {@code step} on a new thread named {@code name} and waits for it; returns what it threw. */
    private static Throwable onThread(String name, Executable step) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                step.execute();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, name);
        t.start();
        t.join(WAIT.toMillis());
        assertFalse(t.isAlive(), name + " did not finish");
        return thrown.get();
    }

    /** A thread that runs steps handed to it, one at a time, and stays alive in between. */
    /**
     * A thread that runs the steps it is given and, between them, stays running (spinning),
     * as a thread still preparing SQEs or handling CQEs would: the side it holds is in use.
     */
    private static final class Holder implements AutoCloseable {
        private final java.util.concurrent.ConcurrentLinkedQueue<java.util.concurrent.FutureTask<?>> steps =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        private volatile boolean closed;
        private final Thread thread;

        Holder(String name) {
            thread = new Thread(() -> {
                while (!closed) {
                    java.util.concurrent.FutureTask<?> t = steps.poll();
                    if (t != null) {
                        t.run();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }, name);
            thread.start();
        }

        <T> T call(java.util.concurrent.Callable<T> step) throws Throwable {
            java.util.concurrent.FutureTask<T> t = new java.util.concurrent.FutureTask<>(step);
            steps.add(t);
            try {
                return t.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause();
            }
        }

        @Override
        public void close() throws InterruptedException {
            closed = true;
            thread.join(WAIT.toMillis());
            assertFalse(thread.isAlive());
        }
    }

    /**
     * A thread that prepared SQEs and then waits for another thread it handed the ring to (as
     * JUnit's assertTimeoutPreemptively does) is no overlap: the side moves with the ring.
     */
    @Test
    void sqesPreparedOnAThreadThatThenWaitsAreSubmittedByTheThreadItHandedTheRingTo() throws Throwable {
        try (IoUring ring = IoUring.open(8)) {
            prepNops(ring, 1, 2, 0);
            assertEquals(Set.of(1L, 2L), assertTimeoutPreemptively(WAIT, () -> {
                assertEquals(2, ring.submitAndWait(2));
                return drainUserData(ring);
            }));
            prepNops(ring, 3, 1, 0);
            assertEquals(1, ring.submitAndWait(1), "and back on this thread");
            assertEquals(Set.of(3L), drainUserData(ring));
        }
    }

    private static void assertBusy(Executable call, String... names) {
        IoUringException e = assertThrows(IoUringException.class, call);
        assertEquals(Errno.EBUSY, e.errno(), e.getMessage());
        for (String n : names) {
            assertTrue(e.getMessage().contains("'" + n + "'"), "names '" + n + "': " + e.getMessage());
        }
    }

    @Test
    void submissionSideWithAnotherThreadsUnsubmittedSqesIsBusy() throws Throwable {
        try (IoUring ring = IoUring.open(8); Holder a = new Holder("sq-holder")) {
            a.call(() -> {
                prepNops(ring, 1, 2, 0);
                return null;
            });
            String me = Thread.currentThread().getName();
            assertBusy(ring::getSqe, "sq-holder", me);
            assertBusy(ring::submit, "sq-holder", me);
            assertBusy(() -> ring.submitAndWait(1), "sq-holder", me);
            assertEquals(2, ring.sqReady(), "looking is allowed");
            assertEquals(2, (int) a.call(ring::submit));
            // Submitted: the side is free for any thread again.
            prepNops(ring, 3, 1, 0);
            assertEquals(1, ring.submitAndWait(3));
            assertEquals(Set.of(1L, 2L, 3L), drainUserData(ring));
        }
    }

    @Test
    void completionSideWithAnotherThreadsUnseenCqeIsBusy() throws Throwable {
        try (IoUring ring = IoUring.open(8); Holder a = new Holder("cq-holder")) {
            prepNops(ring, 1, 2, 0);
            assertEquals(2, ring.submit());
            assertEquals(1L, (long) a.call(() -> ring.peekCqe().userData()));
            String me = Thread.currentThread().getName();
            assertBusy(ring::peekCqe, "cq-holder", me);
            assertBusy(ring::waitCqe, "cq-holder", me);
            assertBusy(() -> ring.waitCqe(Duration.ofMillis(1)), "cq-holder", me);
            assertBusy(() -> ring.forEachCqe((ud, res, fl) -> { }), "cq-holder", me);
            assertBusy(() -> ring.cqeSeen(null), "cq-holder", me);
            assertEquals(2, ring.cqReady(), "looking is allowed");
            // Submitting beside the reaper is allowed (liburing's split of the two sides).
            prepNops(ring, 3, 1, 0);
            assertEquals(1, ring.submit());
            a.call(() -> {
                Cqe c = ring.waitCqe();
                ring.cqeSeen(c);
                return null;
            });
            // Seen: free for any thread again.
            assertEquals(Set.of(2L, 3L), drainUserData(ring));
        }
    }

    @Test
    void aSecondWaiterForCqesIsBusy() throws Throwable {
        try (IoUring ring = IoUring.open(8)) {
            Object ctx = ApiAccess.get().contextOf(ring);
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Long> got = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                Cqe c = ring.waitCqe(WAIT);
                got.set(c == null ? null : c.userData());
                ring.cqeSeen(c);
                done.countDown();
            }, "cq-waiter");
            waiter.start();
            awaitTrue(() -> LockSupport.getBlocker(waiter) == ctx, "the waiter sleeps");
            String me = Thread.currentThread().getName();
            assertBusy(() -> ring.waitCqe(Duration.ofMillis(1)), "cq-waiter", me);
            assertBusy(ring::peekCqe, "cq-waiter", me);
            prepNops(ring, 7, 1, 0);
            assertEquals(1, ring.submit());
            RingTestSupport.await(done);
            assertEquals(7L, got.get());
        }
    }

    @Test
    void aDeadThreadsSidesAreTakenOver() throws Throwable {
        try (IoUring ring = IoUring.open(8)) {
            prepNops(ring, 1, 1, 0);
            assertEquals(1, ring.submit());
            assertNull(onThread("gone", () -> {
                assertEquals(1L, ring.peekCqe().userData());   // holds the CQE, never sees it
                prepNops(ring, 2, 1, 0);                        // and leaves an SQE unsubmitted
            }));
            assertEquals(1, ring.sqReady());
            prepNops(ring, 3, 1, 0);
            assertEquals(2, ring.submit());
            assertEquals(Set.of(1L, 2L, 3L), drainUserData(ring));
        }
    }

    @Test
    void singleIssuerRingBeforeItsFirstSubmitHasOneSubmissionSideToo() throws Throwable {
        try (IoUring ring = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build();
             Holder a = new Holder("first")) {
            a.call(() -> {
                prepNops(ring, 1, 1, 0);
                return null;
            });
            assertBusy(ring::getSqe, "first", Thread.currentThread().getName());
            assertEquals(1, (int) a.call(() -> ring.submitAndWait(1)));
            assertEquals(Errno.EEXIST, assertThrows(IoUringException.class, ring::getSqe).errno());
        }
    }

    // ---------------------------------------------------------------- what stays allowed

    @Test
    void oneSubmitterAndOneReaperOnTwoThreadsSeeEveryCqeOnce() throws Throwable {
        for (boolean forEach : new boolean[] {false, true}) {
            try (IoUring ring = IoUring.open(64)) {
                Set<Long> reaped = new HashSet<>();
                List<Long> twice = new ArrayList<>();
                Thread reaper = new Thread(() -> {
                    long deadline = System.nanoTime() + 4 * WAIT.toNanos();
                    while (reaped.size() < NOPS && System.nanoTime() - deadline < 0) {
                        if (forEach) {
                            if (ring.forEachCqe((ud, res, fl) -> {
                                if (!reaped.add(ud)) {
                                    twice.add(ud);
                                }
                            }) == 0) {
                                Cqe c = ring.waitCqe(Duration.ofMillis(100));
                                assertTrue(c == null || c.userData() >= 0);
                            }
                        } else {
                            Cqe c = ring.waitCqe(Duration.ofMillis(100));
                            if (c != null) {
                                if (!reaped.add(c.userData())) {
                                    twice.add(c.userData());
                                }
                                ring.cqeSeen(c);
                            }
                        }
                    }
                }, "reaper");
                reaper.start();
                for (int i = 0; i < NOPS; i++) {
                    Sqe sqe;
                    while ((sqe = ring.getSqe()) == null) {
                        ring.submit();
                    }
                    sqe.prepNop().userData(i);
                    if ((i & 7) == 7) {
                        ring.submit();
                        // The CQ holds 128: let the reaper keep up rather than overflow for ever.
                        while (ring.cqReady() > 96 && reaper.isAlive()) {
                            Thread.onSpinWait();
                        }
                    }
                }
                ring.submit();
                reaper.join(8 * WAIT.toMillis());
                assertFalse(reaper.isAlive(), "reaper hung");
                assertTrue(twice.isEmpty(), "reaped twice: " + twice.size());
                assertEquals(NOPS, reaped.size(), forEach ? "forEachCqe" : "waitCqe");
            }
        }
    }

    @Test
    void threadsSharingARingUnderTheirOwnLockSeeEveryCqeOnce() throws Exception {
        try (IoUring ring = IoUring.open(8)) {
            Object lock = new Object();
            Set<Long> reaped = new HashSet<>();
            List<Throwable> failures = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                long tag = (long) t << 32;
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 0; i < 2_000; i++) {
                            synchronized (lock) {
                                ring.getSqe().prepNop().userData(tag | i);
                                ring.submit();
                                Cqe c = ring.waitCqe(WAIT);
                                assertNotNull(c);
                                assertTrue(reaped.add(c.userData()));
                                ring.cqeSeen(c);
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (lock) {
                            failures.add(e);
                        }
                    }
                }, "locked-" + t);
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join(8 * WAIT.toMillis());
                assertFalse(th.isAlive());
            }
            assertTrue(failures.isEmpty(), () -> "failed: " + failures);
            assertEquals(6_000, reaped.size());
        }
    }

    @Test
    void submitAndWaitBesideAWaitingReaperAreBothWoken() throws Throwable {
        try (IoUring ring = IoUring.open(8); IoUring sender = IoUring.open(8)) {
            Object ctx = ApiAccess.get().contextOf(ring);
            CountDownLatch submitterDone = new CountDownLatch(1);
            CountDownLatch reaperDone = new CountDownLatch(1);
            AtomicReference<Long> seen = new AtomicReference<>();
            Thread submitter = new Thread(() -> {
                ring.submitAndWait(1);
                submitterDone.countDown();
            }, "submit-and-wait");
            Thread reaper = new Thread(() -> {
                Cqe c = ring.waitCqe(WAIT);
                if (c != null) {
                    // Hold the CQE until the submitter saw it ready too, then consume it.
                    RingTestSupport.await(submitterDone);
                    seen.set(c.userData());
                    ring.cqeSeen(c);
                }
                reaperDone.countDown();
            }, "reaper");
            submitter.start();
            reaper.start();
            awaitTrue(() -> LockSupport.getBlocker(submitter) == ctx && LockSupport.getBlocker(reaper) == ctx,
                    "both wait on the ring");
            // A completion posted by another thread (a message from another ring's owner).
            sender.getSqe().prepMsgRing(ring, 5, 42L, 0).userData(1);
            assertEquals(1, sender.submitAndWait(1));
            assertTrue(submitterDone.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "submitAndWait was not woken");
            assertTrue(reaperDone.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "waitCqe was not woken");
            assertEquals(42L, seen.get());
        }
    }

    private static Set<Long> drainUserData(IoUring ring) {
        Set<Long> out = new HashSet<>();
        ring.forEachCqe((ud, res, fl) -> assertTrue(out.add(ud), "twice: " + ud));
        return out;
    }
}
