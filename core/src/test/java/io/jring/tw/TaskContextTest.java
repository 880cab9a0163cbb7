package io.jring.tw;

import static io.jring.RingTestSupport.await;
import static io.jring.RingTestSupport.awaitTrue;
import static io.jring.RingTestSupport.drain;
import static io.jring.RingTestSupport.prepNops;
import static io.jring.RingTestSupport.reap;
import static io.jring.RingTestSupport.waitCqe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import io.jring.SqeFlags;
import io.jring.TaskWorkKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TaskContext} driven through rings: io-wq completions come back as task work of the
 * submitting thread and are run only when that thread enters one of its rings (any of
 * them), a sleeping owner is woken by the first add, an away owner is not, a thread
 * waiting on a shared ring helps a submitter that is away ({@link TaskContext#tryHelp}),
 * and every {@link TaskWorkKind} works with several threads each owning a ring.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskContextTest {

    private static final int SINGLE = Setup.SINGLE_ISSUER;
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    /** Ways of entering a ring that must run the thread's pending task work. */
    enum Entry {
        PEEK(r -> assertNotNull(r.peekCqe())),
        WAIT(r -> assertNotNull(r.waitCqe())),
        WAIT_TIMEOUT(r -> assertNotNull(r.waitCqe(Duration.ofSeconds(10)))),
        SUBMIT(r -> assertEquals(0, r.submit())),
        SUBMIT_AND_WAIT(r -> assertEquals(0, r.submitAndWait(1))),
        FOR_EACH(r -> assertEquals(1, r.forEachCqe((ud, res, fl) -> { })));

        final Consumer<IoUring> call;

        Entry(Consumer<IoUring> call) {
            this.call = call;
        }
    }

    static Stream<Arguments> entriesAndSetups() {
        List<Arguments> args = new ArrayList<>();
        for (Entry e : Entry.values()) {
            for (int setup : new int[] {0, SINGLE}) {
                args.add(Arguments.of(e, setup));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, setup 0x{1}")
    @MethodSource("entriesAndSetups")
    void asyncNopCompletesThroughTaskWorkOnlyWhenTheSubmitterReEnters(Entry entry, int setup) {
        TaskContext me = TaskContext.current();
        assertFalse(me.hasPendingWork(), "a previous test left task work behind");
        try (IoUring ring = IoUring.builder().entries(4).flags(setup).build()) {
            prepNops(ring, 42, 1, SqeFlags.ASYNC);
            assertEquals(1, ring.submit());
            awaitTrue(me::hasPendingWork, "the io-wq worker hands the NOP back as task work");
            assertEquals(0, ring.cqReady(), "nobody ran the task work yet");
            assertEquals(0, ring.sqReady());
            assertTrue(me.hasPendingWork());
            entry.call.accept(ring);
            assertFalse(me.hasPendingWork());
            if (entry != Entry.FOR_EACH) {
                assertEquals(List.of(new Completion(42, 0, 0)), reap(ring, 1));
            }
            assertNull(ring.peekCqe());
        }
    }

    @ParameterizedTest(name = "setup 0x{0}")
    @ValueSource(ints = {0, SINGLE})
    void enteringOneRingPostsTheCompletionsOfTheThreadsOtherRing(int setup) {
        TaskContext me = TaskContext.current();
        try (IoUring a = IoUring.builder().entries(4).flags(setup).build();
                IoUring b = IoUring.builder().entries(4).flags(setup).build()) {
            prepNops(a, 1, 1, SqeFlags.ASYNC);
            a.submit();
            awaitTrue(me::hasPendingWork, "a's NOP is back as task work");
            assertEquals(0, a.cqReady());
            assertNull(b.peekCqe(), "b itself has nothing");
            assertEquals(1, a.cqReady(), "entering b ran the thread's task work for a");
            assertEquals(List.of(new Completion(1, 0, 0)), reap(a, 1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void waitingOnOneRingDeliversTheEarlierCompletionsOfTheThreadsOtherRing(TaskWorkKind kind) {
        // b shares a's io-wq with a single worker, so a's NOPs are handed back before b's.
        try (IoUring a = IoUring.builder().entries(8).taskWorkList(kind).build();
                IoUring b = IoUring.builder().entries(8).taskWorkList(kind).flags(Setup.ATTACH_WQ)
                        .attachWq(a).build()) {
            a.registerIoWqMaxWorkers(1, 1);
            prepNops(a, 1, 4, SqeFlags.ASYNC);
            assertEquals(4, a.submit());
            prepNops(b, 100, 1, SqeFlags.ASYNC);
            assertEquals(1, b.submit());
            Cqe c = waitCqe(b);
            assertEquals(100, c.userData());
            assertEquals(4, a.cqReady(), "a was not entered, yet its completions are posted");
            assertEquals(List.of(1L, 2L, 3L, 4L), drain(a).stream().map(Completion::userData).toList());
        }
    }

    static Stream<Arguments> kindsAndSetups() {
        List<Arguments> args = new ArrayList<>();
        for (TaskWorkKind k : TaskWorkKind.values()) {
            for (int setup : new int[] {0, SINGLE, DEFER}) {
                args.add(Arguments.of(k, setup));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, setup 0x{1}")
    @MethodSource("kindsAndSetups")
    void everyTaskWorkKindCompletesInlineAndAsyncNopsForSeveralThreadsEachOwningARing(TaskWorkKind kind, int setup)
            throws InterruptedException {
        int threads = 4;
        int rounds = 40;
        int batch = 16;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        List<AtomicReference<Throwable>> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            failures.add(failure);
            Thread th = new Thread(() -> {
                try (IoUring ring = IoUring.builder().entries(batch).taskWorkList(kind).flags(setup).build()) {
                    await(start);
                    BitSet seen = new BitSet(rounds * batch);
                    for (int r = 0; r < rounds; r++) {
                        for (int i = 0; i < batch; i++) {
                            // Mostly ASYNC (several io-wq workers push into this thread concurrently).
                            int flags = i % 4 == 0 ? 0 : SqeFlags.ASYNC;
                            ring.getSqe().prepNop().userData(r * batch + i).flags(flags);
                        }
                        assertEquals(batch, ring.submitAndWait(batch));
                        assertTrue(ring.cqReady() >= batch);
                        List<Completion> got = drain(ring);
                        assertEquals(batch, got.size());
                        for (Completion c : got) {
                            assertEquals(0, c.res());
                            int ud = (int) c.userData();
                            assertTrue(ud >= r * batch && ud < (r + 1) * batch, "user data " + ud + " in round " + r);
                            assertFalse(seen.get(ud), "duplicate " + ud);
                            seen.set(ud);
                        }
                    }
                    assertEquals(rounds * batch, seen.cardinality());
                    assertNull(ring.peekCqe());
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "tw-owner-" + t);
            ts.add(th);
            th.start();
        }
        start.countDown();
        for (Thread th : ts) {
            th.join(RingTestSupport.WAIT.toMillis());
            assertFalse(th.isAlive(), th.getName() + " did not finish");
        }
        for (AtomicReference<Throwable> f : failures) {
            if (f.get() != null) {
                throw new AssertionError("owner thread failed", f.get());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void waiterOnASharedRingRunsTheTaskWorkOfASubmitterThatIsAway(TaskWorkKind kind) throws InterruptedException {
        try (IoUring ring = IoUring.builder().entries(64).taskWorkList(kind).build()) {
            CountDownLatch submitted = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread away = new Thread(() -> {
                try {
                    prepNops(ring, 0, 64, SqeFlags.ASYNC);
                    assertEquals(64, ring.submit());
                } catch (Throwable e) {
                    failure.set(e);
                } finally {
                    submitted.countDown();
                }
                await(release); // away: never enters the ring again while the test waits
            }, "away-submitter");
            away.start();
            try {
                await(submitted);
                assertNull(failure.get());
                BitSet seen = new BitSet(64);
                for (Completion c : reap(ring, 64)) {
                    assertEquals(0, c.res(), "the submitter is alive: no cancellation");
                    assertFalse(seen.get((int) c.userData()), "duplicate " + c.userData());
                    seen.set((int) c.userData());
                }
                assertEquals(64, seen.cardinality());
                assertTrue(away.isAlive(), "the submitter stayed away the whole time");
                assertNull(ring.peekCqe());
            } finally {
                release.countDown();
                away.join(RingTestSupport.WAIT.toMillis());
            }
        }
    }

    // ---- wakeups, driven with hand-made task work so that the owner's state is known

    /** A target that does nothing (a ring would take its lock and flush its CQ). */
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
        volatile Thread runner;
        volatile boolean cancelled;

        @Override
        public TaskWorkTarget target() {
            return NO_RING;
        }

        @Override
        public void runTaskWork(boolean cancel) {
            runner = Thread.currentThread();
            cancelled = cancel;
            ran.countDown();
        }
    }

    /** Counts how often a run of items brackets it: a ring publishes its CQ once per endTaskRun. */
    private static final class CountingTarget implements TaskWorkTarget {
        int begins;
        int ends;

        @Override
        public void beginTaskRun() {
            begins++;
        }

        @Override
        public void endTaskRun(int items) {
            ends++;
        }
    }

    private static final class Tagged extends TaskWork {
        final TaskWorkTarget target;
        final List<Tagged> ran;

        Tagged(TaskWorkTarget target, boolean completion, List<Tagged> ran) {
            this.target = target;
            this.ran = ran;
            setCompletionWork(completion);
        }

        @Override
        public TaskWorkTarget target() {
            return target;
        }

        @Override
        public void runTaskWork(boolean cancel) {
            ran.add(this);
        }
    }

    /**
     * Seed 000's "batch completion in prior_task_list": the completion work of one ring,
     * queued between other rings' work, runs as one run for that ring under PRIORITY (one
     * begin/end, so one lock and one CQ publish), where LOCKED switches ring at every item.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TaskWorkKind.class, names = {"PRIORITY", "LOCKED"})
    void completionWorkOfOneRingQueuedBetweenOtherWorkIsPostedAsOneBatchUnderPriority(TaskWorkKind kind) {
        TaskContext tc = TaskContext.detached();
        CountingTarget ring = new CountingTarget();
        CountingTarget other = new CountingTarget();
        List<Tagged> ran = new ArrayList<>();
        List<Tagged> completions = new ArrayList<>();
        tc.enter();
        try {
            for (int i = 0; i < 6; i++) {
                tc.addTaskWork(new Tagged(other, false, ran), kind);
            }
            // With 6 items pending ahead, each of the 4 passes the cap (prior * 3 <= nr).
            for (int i = 0; i < 4; i++) {
                Tagged c = new Tagged(ring, true, ran);
                completions.add(c);
                tc.addTaskWork(c, kind);
                tc.addTaskWork(new Tagged(other, false, ran), kind);
            }
            assertEquals(14, tc.runTaskWork(false));
        } finally {
            tc.exit();
        }
        assertEquals(14, ran.size());
        assertEquals(ring.begins, ring.ends);
        if (kind == TaskWorkKind.PRIORITY) {
            assertEquals(completions, ran.subList(0, 4), "completion work first, in order");
            assertEquals(1, ring.ends, "one run, so one CQ publish, for the ring's completions");
            assertEquals(1, other.ends);
        } else {
            assertEquals(4, ring.ends, "FIFO interleaves the rings: one run per completion");
            assertEquals(5, other.ends);
        }
    }

    private static boolean parked(Thread t) {
        Thread.State s = t.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void ownerSleepingInAWaitIsWokenOnceByAnAddAndRunsTheWork(TaskWorkKind kind) throws InterruptedException {
        IoUring ring = IoUring.builder().entries(4).taskWorkList(kind).build();
        AtomicReference<TaskContext> ctx = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(1);
        Thread owner = new Thread(() -> {
            ctx.set(TaskContext.current());
            ready.countDown();
            try {
                ring.waitCqe(); // nothing submitted: sleeps until close
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "sleeping-owner");
        owner.start();
        try {
            await(ready);
            TaskContext tc = ctx.get();
            awaitTrue(() -> parked(owner), "the owner sleeps in waitCqe");
            long w0 = tc.wakeups();
            Probe p = new Probe();
            tc.addTaskWork(p, kind);
            await(p.ran);
            assertSame(owner, p.runner, "task work runs in its owner");
            assertFalse(p.cancelled);
            assertEquals(w0 + 1, tc.wakeups(), "one add to an empty list, one wakeup");
            awaitTrue(() -> parked(owner), "the owner goes back to sleep (no CQE yet)");
            assertEquals(w0 + 1, tc.wakeups());
        } finally {
            ring.close();
            owner.join(RingTestSupport.WAIT.toMillis());
        }
        assertFalse(owner.isAlive());
        assertEquals(Errno.EBADFD, assertInstanceOf(IoUringException.class, thrown.get()).errno());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TaskWorkKind.class)
    void ownerThatIsAwayIsNotWokenAndRunsTheWorkOnItsNextEntry(TaskWorkKind kind) throws InterruptedException {
        try (IoUring ring = IoUring.builder().entries(4).taskWorkList(kind).flags(SINGLE).build()) {
            AtomicReference<TaskContext> ctx = new AtomicReference<>();
            CountDownLatch ready = new CountDownLatch(1);
            CountDownLatch goEnter = new CountDownLatch(1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread owner = new Thread(() -> {
                try {
                    ctx.set(TaskContext.current());
                    ready.countDown();
                    await(goEnter);
                    assertNull(ring.peekCqe());
                } catch (Throwable e) {
                    thrown.set(e);
                }
            }, "away-owner");
            owner.start();
            await(ready);
            TaskContext tc = ctx.get();
            long w0 = tc.wakeups();
            Probe p1 = new Probe();
            Probe p2 = new Probe();
            tc.addTaskWork(p1, kind);
            tc.addTaskWork(p2, kind);
            assertTrue(tc.hasPendingWork());
            assertEquals(w0, tc.wakeups(), "an owner that is not sleeping in a wait is not woken");
            assertEquals(1, p1.ran.getCount(), "nobody runs an away owner's work on a SINGLE_ISSUER ring");
            goEnter.countDown();
            await(p1.ran);
            await(p2.ran);
            owner.join(RingTestSupport.WAIT.toMillis());
            assertNull(thrown.get());
            assertSame(owner, p1.runner);
            assertSame(owner, p2.runner);
            assertEquals(w0, tc.wakeups());
        }
    }
}
