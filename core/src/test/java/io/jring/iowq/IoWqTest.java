package io.jring.iowq;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.iowq.IoWq.CancelResult;
import io.jring.iowq.IoWq.Cancellation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** Mirrors {@link IoWq} (Linux's io-wq): accounts, limits, hashing, cancel, shutdown, sharing. */
class IoWqTest {

    private static final Duration LONG_IDLE = Duration.ofSeconds(30);

    /** A work item that records where and whether it ran or was cancelled. */
    static final class Job implements IoWork {
        final boolean bounded;
        final long key;
        final Runnable body;
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final CountDownLatch cancelled = new CountDownLatch(1);
        volatile Thread ranOn;
        volatile Thread cancelledOn;

        Job(boolean bounded, long key, Runnable body) {
            this.bounded = bounded;
            this.key = key;
            this.body = body;
        }

        Job(Runnable body) {
            this(true, 0, body);
        }

        @Override
        public void runInWorker() {
            ranOn = Thread.currentThread();
            started.countDown();
            try {
                body.run();
            } finally {
                done.countDown();
            }
        }

        @Override
        public void cancelQueued() {
            cancelledOn = Thread.currentThread();
            cancelled.countDown();
        }

        @Override
        public boolean isBoundedWork() {
            return bounded;
        }

        @Override
        public long hashKey() {
            return key;
        }
    }

    static final Runnable NOTHING = () -> { };

    static Runnable awaiting(CountDownLatch gate) {
        return () -> await(gate);
    }

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(5, TimeUnit.SECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Bounded wait for a state no latch can announce (a worker retiring). */
    static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            LockSupport.parkNanos(1_000_000);
        }
    }

    static List<Thread> threadsOf(String name) {
        String prefix = "jring-iowq-" + name + "-";
        List<Thread> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                found.add(t);
            }
        }
        return found;
    }

    @Test
    void workRunsOnWorkerThreadOfItsAccount() {
        try (IoWq wq = new IoWq("run", 2, 2, LONG_IDLE)) {
            Job b = new Job(true, 0, NOTHING);
            Job u = new Job(false, 0, NOTHING);
            wq.enqueue(b);
            wq.enqueue(u);
            await(b.done);
            await(u.done);
            assertEquals("jring-iowq-run-b0", b.ranOn.getName());
            assertEquals("jring-iowq-run-u0", u.ranOn.getName());
            assertTrue(b.ranOn.isDaemon());
            assertNull(b.cancelledOn);
        }
    }

    @Test
    void workersAreCreatedOnDemandUpToTheLimitAndNotBeyond() {
        try (IoWq wq = new IoWq("limit", 3, 8, LONG_IDLE)) {
            assertEquals(0, wq.workerCount());
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch threeRunning = new CountDownLatch(3);
            List<Job> jobs = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                Job j = new Job(() -> {
                    threeRunning.countDown();
                    await(gate);
                });
                jobs.add(j);
                wq.enqueue(j);
            }
            await(threeRunning);
            assertEquals(3, wq.workerCount(true));
            assertEquals(0, wq.workerCount(false));
            assertEquals(2, wq.queuedCount());
            gate.countDown();
            jobs.forEach(j -> await(j.done));
            assertEquals(3, wq.workerCount(true));
            assertEquals(0, wq.queuedCount());
        }
    }

    @Test
    void unboundLimitFromRlimitIsTheProcessSoftNprocWhenFirstAsked() {
        try (IoWq wq = new IoWq("rlimit", 2, IoWq.UNBOUND_FROM_RLIMIT)) {
            assertArrayEquals(new int[] {2, IoWq.defaultMaxUnbound()}, wq.setMaxWorkers(0, 0));
            assertArrayEquals(new int[] {2, IoWq.defaultMaxUnbound()}, wq.setMaxWorkers(0, 3));
            assertArrayEquals(new int[] {2, 3}, wq.setMaxWorkers(0, 0));
        }
    }

    @Test
    void setMaxWorkersReturnsPreviousPairAndZeroKeepsValue() {
        try (IoWq wq = new IoWq("max", 4, 7, LONG_IDLE)) {
            assertArrayEquals(new int[] {4, 7}, wq.setMaxWorkers(0, 0));
            assertArrayEquals(new int[] {4, 7}, wq.setMaxWorkers(2, 0));
            assertArrayEquals(new int[] {2, 7}, wq.setMaxWorkers(0, 9));
            assertArrayEquals(new int[] {2, 9}, wq.setMaxWorkers(0, 0));
            assertThrows(IllegalArgumentException.class, () -> wq.setMaxWorkers(-1, 0));
            assertArrayEquals(new int[] {2, 9}, wq.setMaxWorkers(0, 0));
        }
    }

    @Test
    void raisedLimitStartsWorkersForQueuedWorkAndLoweredLimitRetiresSurplus() {
        try (IoWq wq = new IoWq("resize", 1, 1, LONG_IDLE)) {
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch allRunning = new CountDownLatch(3);
            List<Job> jobs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Job j = new Job(() -> {
                    allRunning.countDown();
                    await(gate);
                });
                jobs.add(j);
                wq.enqueue(j);
            }
            await(jobs.get(0).started);
            assertEquals(1, wq.workerCount(true));
            assertEquals(2, wq.queuedCount());

            assertArrayEquals(new int[] {1, 1}, wq.setMaxWorkers(3, 0));
            await(allRunning);
            assertEquals(3, wq.workerCount(true));

            assertArrayEquals(new int[] {3, 1}, wq.setMaxWorkers(1, 0));
            assertEquals(3, wq.workerCount(true), "busy workers finish their item first");
            gate.countDown();
            jobs.forEach(j -> await(j.done));
            awaitTrue(() -> wq.workerCount(true) == 1, "two surplus workers retired");
        }
    }

    @Test
    void sameHashKeyRunsSeriallyWhileOtherKeysRunInParallel() {
        try (IoWq wq = new IoWq("hash", 4, 4, LONG_IDLE)) {
            CountDownLatch gate = new CountDownLatch(1);
            Job a1 = new Job(true, 1, awaiting(gate));
            Job a2 = new Job(true, 1, NOTHING);
            Job b1 = new Job(true, 2, NOTHING);
            Job plain = new Job(NOTHING);
            wq.enqueue(a1);
            wq.enqueue(a2);
            wq.enqueue(b1);
            wq.enqueue(plain);
            await(a1.started);
            await(b1.done);
            await(plain.done);
            assertEquals(1, a2.started.getCount(), "key 1 is busy: its second item must wait");
            assertEquals(1, wq.queuedCount());
            gate.countDown();
            await(a2.done);
            assertEquals(0, a1.done.getCount());
        }
    }

    @Test
    void hashedItemsNeverOverlapAndKeepQueueOrder() {
        int n = 300;
        long[] keys = {7, 8, 0};
        AtomicInteger[] active = {new AtomicInteger(), new AtomicInteger()};
        AtomicBoolean overlap = new AtomicBoolean();
        List<List<Integer>> order = List.of(new ArrayList<>(), new ArrayList<>());
        CountDownLatch allDone = new CountDownLatch(n);
        try (IoWq wq = new IoWq("hashorder", 4, 4, LONG_IDLE)) {
            for (int i = 0; i < n; i++) {
                int seq = i;
                int k = i % 3;
                wq.enqueue(new Job(true, keys[k], () -> {
                    if (k < 2) {
                        if (active[k].incrementAndGet() > 1) {
                            overlap.set(true);
                        }
                        synchronized (order) {
                            order.get(k).add(seq);
                        }
                        Thread.yield();
                        active[k].decrementAndGet();
                    }
                    allDone.countDown();
                }));
            }
            await(allDone);
        }
        assertFalse(overlap.get(), "two items of one key ran at the same time");
        for (List<Integer> seqs : order) {
            assertEquals(n / 3, seqs.size());
            for (int i = 1; i < seqs.size(); i++) {
                assertTrue(seqs.get(i - 1) < seqs.get(i), "out of order: " + seqs);
            }
        }
    }

    @Test
    void cancelQueuedRunningAndMissing() {
        Job queued = new Job(NOTHING);
        try (IoWq wq = new IoWq("cancel", 1, 1, LONG_IDLE)) {
            CountDownLatch gate = new CountDownLatch(1);
            Job running = new Job(awaiting(gate));
            wq.enqueue(running);
            await(running.started);
            wq.enqueue(queued);

            Cancellation c = wq.cancel(w -> w == queued, false);
            assertEquals(new Cancellation(CancelResult.CANCELLED, 1), c);
            assertEquals(0, queued.cancelled.getCount());
            assertSame(Thread.currentThread(), queued.cancelledOn);
            assertEquals(0, wq.queuedCount());

            assertEquals(new Cancellation(CancelResult.RUNNING, 0), wq.cancel(w -> w == running, false));
            assertEquals(new Cancellation(CancelResult.NOT_FOUND, 0), wq.cancel(w -> false, false));

            gate.countDown();
            await(running.done);
            assertNull(running.cancelledOn);
        }
        assertNull(queued.ranOn, "close joined the worker, which never ran the cancelled item");
    }

    @Test
    void cancelAllRemovesEveryQueuedMatchAndReportsRunning() {
        try (IoWq wq = new IoWq("cancelall", 1, 1, LONG_IDLE)) {
            CountDownLatch gate = new CountDownLatch(1);
            List<Job> tagged = new ArrayList<>();
            Job running = new Job(awaiting(gate));
            tagged.add(running);
            wq.enqueue(running);
            await(running.started);
            for (int i = 0; i < 3; i++) {
                Job j = new Job(true, i == 0 ? 0 : 5, NOTHING);
                tagged.add(j);
                wq.enqueue(j);
            }
            Job other = new Job(NOTHING);
            wq.enqueue(other);

            Cancellation c = wq.cancel(tagged::contains, true);
            assertEquals(new Cancellation(CancelResult.RUNNING, 3), c);
            for (Job j : tagged.subList(1, 4)) {
                assertEquals(0, j.cancelled.getCount());
            }
            assertEquals(1, wq.queuedCount());
            gate.countDown();
            await(other.done);
            assertEquals(new Cancellation(CancelResult.NOT_FOUND, 0), wq.cancel(tagged::contains, true));
        }
    }

    @Test
    void cancellingAKeysQueuedItemLetsItsNextItemTakeItsPlace() {
        try (IoWq wq = new IoWq("cancelhash", 1, 1, LONG_IDLE)) {
            CountDownLatch gate = new CountDownLatch(1);
            Job blocker = new Job(awaiting(gate));
            wq.enqueue(blocker);
            await(blocker.started);
            List<Integer> ran = new ArrayList<>();
            Job[] k = new Job[4];
            for (int i = 0; i < 4; i++) {
                int seq = i;
                k[i] = new Job(true, 9, () -> {
                    synchronized (ran) {
                        ran.add(seq);
                    }
                });
                wq.enqueue(k[i]);
            }
            assertEquals(CancelResult.CANCELLED, wq.cancel(w -> w == k[0], false).result());
            assertEquals(CancelResult.CANCELLED, wq.cancel(w -> w == k[2], false).result());
            assertEquals(2, wq.queuedCount());
            gate.countDown();
            await(k[1].done);
            await(k[3].done);
            synchronized (ran) {
                assertEquals(List.of(1, 3), ran);
            }
        }
    }

    @Test
    void throwingWorkDoesNotKillItsWorker() {
        try (IoWq wq = new IoWq("throw", 1, 1, LONG_IDLE)) {
            Job bad = new Job(() -> {
                throw new IllegalStateException("boom");
            });
            Job good = new Job(NOTHING);
            wq.enqueue(bad);
            wq.enqueue(good);
            await(good.done);
            assertSame(bad.ranOn, good.ranOn);
            assertEquals(1, wq.workerCount());
        }
    }

    /** An Error leaves its thread in doubt: the worker dies, as a thread-pool thread does, and is replaced. */
    @Test
    void errorInWorkEndsItsWorkerAndAReplacementRunsTheQueue() {
        try (IoWq wq = new IoWq("error", 1, 1, LONG_IDLE)) {
            Job err = new Job(() -> {
                throw new AssertionError("boom");
            });
            Job good = new Job(NOTHING);
            wq.enqueue(err);
            wq.enqueue(good);
            await(good.done);
            assertNotSame(err.ranOn, good.ranOn);
            assertEquals(1, wq.workerCount());
        }
    }

    @Test
    void idleWorkersRetireAfterTheConfiguredTimeout() throws InterruptedException {
        try (IoWq wq = new IoWq("idle", 2, 2, Duration.ofMillis(50))) {
            Job b = new Job(true, 0, NOTHING);
            Job u = new Job(false, 0, NOTHING);
            wq.enqueue(b);
            wq.enqueue(u);
            await(b.done);
            await(u.done);
            for (Job j : List.of(b, u)) {
                j.ranOn.join(5_000);
                assertFalse(j.ranOn.isAlive(), j.ranOn.getName() + " did not retire");
            }
            assertEquals(0, wq.workerCount());
            Job again = new Job(NOTHING);
            wq.enqueue(again);
            await(again.done);
            assertEquals("jring-iowq-idle-b1", again.ranOn.getName());
        }
    }

    @Test
    void closeCancelsQueuedWaitsForRunningAndLeavesNoThread() {
        IoWq wq = new IoWq("close", 1, 1, LONG_IDLE);
        CountDownLatch gate = new CountDownLatch(1);
        Job running = new Job(awaiting(gate));
        Job runningUnbound = new Job(false, 0, awaiting(gate));
        Job q1 = new Job(NOTHING);
        Job q2 = new Job(true, 3, NOTHING);
        Job q3 = new Job(true, 3, NOTHING);
        wq.enqueue(running);
        wq.enqueue(runningUnbound);
        await(running.started);
        await(runningUnbound.started);
        wq.enqueue(q1);
        wq.enqueue(q2);
        wq.enqueue(q3);
        assertEquals(3, wq.queuedCount());

        CountDownLatch closed = new CountDownLatch(1);
        Thread closer = Thread.ofPlatform().name("closer").start(() -> {
            wq.close();
            closed.countDown();
        });
        for (Job q : List.of(q1, q2, q3)) {
            await(q.cancelled);
            assertSame(closer, q.cancelledOn);
        }
        assertEquals(1, closed.getCount(), "close must wait for running work");
        Job late = new Job(NOTHING);
        wq.enqueue(late);
        assertEquals(0, late.cancelled.getCount(), "enqueue while closing cancels at once");

        gate.countDown();
        await(closed);
        assertEquals(0, running.done.getCount());
        assertEquals(0, runningUnbound.done.getCount());
        assertEquals(List.of(), threadsOf("close"));
        assertEquals(0, wq.workerCount());
        for (Job q : List.of(q1, q2, q3, late)) {
            assertNull(q.ranOn);
        }

        Job after = new Job(NOTHING);
        wq.enqueue(after);
        assertSame(Thread.currentThread(), after.cancelledOn);
        wq.close();
        assertFalse(wq.release());
    }

    @Test
    void attachedHandlesShareWorkersAndOnlyTheLastReleaseShutsDown() {
        IoWq first = new IoWq("attach", 2, 2, LONG_IDLE);
        IoWq second = first.attach();
        Job j1 = new Job(NOTHING);
        first.enqueue(j1);
        await(j1.done);

        assertFalse(first.release(), "another handle remains");
        assertTrue(first.isReleased());
        assertFalse(first.release());
        assertThrows(IllegalStateException.class, first::attach);
        Job viaReleased = new Job(NOTHING);
        first.enqueue(viaReleased);
        assertEquals(0, viaReleased.cancelled.getCount());

        Job j2 = new Job(NOTHING);
        second.enqueue(j2);
        await(j2.done);
        assertTrue(j2.ranOn.getName().startsWith("jring-iowq-attach-b"), "the shared pool runs it");
        assertTrue(second.workerCount() >= 1);

        assertTrue(second.release(), "last handle shuts down");
        assertEquals(List.of(), threadsOf("attach"));
        assertFalse(second.release());
        second.close();
    }

    @Test
    void defaultLimitsFollowLinux() {
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(Math.min(8, 4 * cpus), IoWq.defaultMaxBounded(8));
        assertEquals(4 * cpus, IoWq.defaultMaxBounded(1 << 20));
        assertTrue(IoWq.defaultMaxUnbound() >= 1);
        assertThrows(IllegalArgumentException.class, () -> new IoWq("bad", 0, 1));
    }
}
