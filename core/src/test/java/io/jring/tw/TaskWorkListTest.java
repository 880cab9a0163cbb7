package io.jring.tw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.TaskWorkKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link TaskWorkList} contract, for each of its four strategies ({@link LockedTaskList},
 * {@link PriorityTaskList}, {@link LlistTaskList}, {@link MpscTaskList}), plus the 1/3 cap
 * of the priority list (seed 000). The lock-free interleavings are covered by jcstress
 * (stress module, {@code io.jring.stress.TaskWork*}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskWorkListTest {

    static final class Item extends TaskWork {
        final int producer;
        final int seq;

        Item(int producer, int seq, boolean completion) {
            this.producer = producer;
            this.seq = seq;
            setCompletionWork(completion);
        }

        @Override
        public TaskWorkTarget target() {
            return null;
        }

        @Override
        public void runTaskWork(boolean cancel) {
        }

        @Override
        public String toString() {
            return (isCompletionWork() ? "c" : "n") + producer + "." + seq;
        }
    }

    private static List<Item> items(int count) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(new Item(0, i, false));
        }
        return items;
    }

    private static List<TaskWork> drain(TaskWorkList list) {
        List<TaskWork> ran = new ArrayList<>();
        list.runAll(ran::add);
        return ran;
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void singleThreadRunsInAddOrder(TaskWorkKind kind) {
        TaskWorkList list = TaskWorkList.create(kind);
        List<Item> items = items(10);
        items.forEach(list::add);
        List<TaskWork> ran = new ArrayList<>();
        assertEquals(1, list.runAll(ran::add));
        assertEquals(items, ran);
        assertTrue(list.isEmpty());
        assertEquals(0, list.runAll(w -> { throw new AssertionError("ran " + w); }));
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void addReportsTheTransitionFromEmpty(TaskWorkKind kind) {
        TaskWorkList list = TaskWorkList.create(kind);
        List<Item> items = items(3);
        assertTrue(list.isEmpty());
        assertTrue(list.add(items.get(0)), "first add to an empty list must wake");
        assertFalse(list.isEmpty());
        assertFalse(list.add(items.get(1)), "second add finds work pending");
        assertEquals(items.subList(0, 2), drain(list));
        assertTrue(list.isEmpty());
        assertTrue(list.add(items.get(2)), "first add after a full drain must wake");
        // A drained item is reusable at once.
        assertFalse(list.add(items.get(0)));
        assertEquals(List.of(items.get(2), items.get(0)), drain(list));
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void itemReAddedFromTheSinkRunsOnceMore(TaskWorkKind kind) {
        TaskWorkList list = TaskWorkList.create(kind);
        List<Item> items = items(3);
        items.forEach(list::add);
        List<TaskWork> ran = new ArrayList<>();
        boolean[] reAddWoke = new boolean[1];
        list.runAll(w -> {
            if (w == items.get(1) && !ran.contains(w)) {
                reAddWoke[0] = list.add(w);
            }
            ran.add(w);
        });
        if (!reAddWoke[0]) {
            // "false" promises that the running consumer sees it: it must have run already.
            assertEquals(4, ran.size(), "re-added item returned false but did not run: " + ran);
        }
        list.runAll(ran::add);
        assertEquals(List.of(items.get(0), items.get(1), items.get(2), items.get(1)), ran);
        assertTrue(list.isEmpty());
        assertEquals(0, list.runAll(ran::add));
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void sinkFailureKeepsTheRestForTheNextRun(TaskWorkKind kind) {
        TaskWorkList list = TaskWorkList.create(kind);
        List<Item> items = items(4);
        items.forEach(list::add);
        List<TaskWork> ran = new ArrayList<>();
        TaskWorkSink failOnSecond = w -> {
            ran.add(w);
            if (w == items.get(0)) {
                list.add(w); // re-added before the failure: newer than the rest
            } else {
                throw new IllegalStateException("boom");
            }
        };
        IllegalStateException boom =
                assertThrows(IllegalStateException.class, () -> list.runAll(failOnSecond));
        assertEquals("boom", boom.getMessage());
        assertEquals(items.subList(0, 2), ran);
        assertFalse(list.isEmpty());
        Item late = new Item(0, 4, false);
        list.add(late); // may return false: the caller of the failed run must run again
        ran.clear();
        list.runAll(ran::add);
        assertEquals(List.of(items.get(2), items.get(3), items.get(0), late), ran);
        assertTrue(list.isEmpty());
        assertTrue(list.add(items.get(1)), "a drained list wakes again");
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void manyProducersEachItemRunsOnceInProducerOrder(TaskWorkKind kind) throws Exception {
        int producers = 4;
        int perProducer = 100_000;
        TaskWorkList list = TaskWorkList.create(kind);
        Item[][] items = new Item[producers][perProducer];
        for (int p = 0; p < producers; p++) {
            for (int i = 0; i < perProducer; i++) {
                items[p][i] = new Item(p, i, (i + p) % 3 == 0);
            }
        }
        // PRIORITY keeps FIFO within each class only; the others keep it for every item.
        boolean perClass = kind == TaskWorkKind.PRIORITY;
        int[][] lastSeq = new int[producers][2];
        for (int[] l : lastSeq) {
            Arrays.fill(l, -1);
        }
        int[] ran = new int[1];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        TaskWorkSink sink = w -> {
            Item item = (Item) w;
            int cls = perClass && item.isCompletionWork() ? 1 : 0;
            int[] last = lastSeq[item.producer];
            if (item.seq <= last[cls]) {
                failure.compareAndSet(null, new AssertionError(item + " ran after " + last[cls]));
            }
            last[cls] = item.seq;
            ran[0]++;
        };
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            Item[] mine = items[p];
            threads.add(Thread.ofPlatform().name("producer-" + p).start(() -> {
                awaitQuietly(start);
                for (Item item : mine) {
                    list.add(item);
                }
            }));
        }
        start.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (ran[0] < producers * perProducer && failure.get() == null) {
            if (list.runAll(sink) == 0) {
                Thread.onSpinWait();
            }
            assertTrue(System.nanoTime() < deadline, "stuck at " + ran[0] + " items");
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertNull(failure.get());
        assertEquals(producers * perProducer, ran[0], "every item exactly once");
        for (int p = 0; p < producers; p++) {
            assertEquals(perProducer - 1, Math.max(lastSeq[p][0], lastSeq[p][1]));
        }
        assertTrue(list.isEmpty());
        assertEquals(0, list.runAll(sink));
    }

    /**
     * The wake handshake of DESIGN.md section 3, simplified: the owner sets a sleeping flag,
     * re-checks {@link TaskWorkList#isEmpty} and parks; an adder whose add returned true and
     * who sees the flag unparks it. A lost wakeup shows as a park that times out with work
     * pending (the producers pause until the owner sleeps, so it sleeps often).
     */
    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void wakeHandshakeNeverLosesAWakeup(TaskWorkKind kind) throws Exception {
        int producers = 4;
        int bursts = 1_000;
        int burst = 4;
        int total = producers * bursts * burst;
        long parkLimit = TimeUnit.SECONDS.toNanos(10);
        TaskWorkList list = TaskWorkList.create(kind);
        Sleeper owner = new Sleeper();
        AtomicReference<String> failure = new AtomicReference<>();
        int[] ran = new int[1];
        Thread consumer = Thread.ofPlatform().name("owner").unstarted(() -> {
            while (ran[0] < total) {
                list.runAll(w -> ran[0]++);
                if (ran[0] == total) {
                    break;
                }
                owner.sleeping = true;
                if (list.isEmpty()) {
                    long t0 = System.nanoTime();
                    LockSupport.parkNanos(parkLimit);
                    if (System.nanoTime() - t0 >= parkLimit && !list.isEmpty()) {
                        failure.set("lost wakeup: parked 10 s with work pending after " + ran[0]);
                        owner.sleeping = false;
                        return;
                    }
                }
                owner.sleeping = false;
            }
        });
        owner.thread = consumer;
        consumer.start();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            threads.add(Thread.ofPlatform().name("producer-" + p).start(() -> {
                for (int b = 0; b < bursts; b++) {
                    long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(200);
                    while (!owner.sleeping && System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    for (int i = 0; i < burst; i++) {
                        if (list.add(new Item(producer, b * burst + i, false)) && owner.sleeping) {
                            LockSupport.unpark(owner.thread);
                        }
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(15));
        }
        consumer.join(TimeUnit.SECONDS.toMillis(15));
        assertFalse(consumer.isAlive(), "owner still waiting after " + ran[0] + " of " + total);
        assertNull(failure.get());
        assertEquals(total, ran[0]);
    }

    static final class Sleeper {
        volatile boolean sleeping;
        volatile Thread thread;
    }

    @Test
    void completionWorkRunsFirstCappedAtOneThirdOfPending() {
        TaskWorkList list = TaskWorkList.create(TaskWorkKind.PRIORITY);
        List<Item> normal = new ArrayList<>();
        List<Item> completion = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            normal.add(new Item(0, i, false));
            completion.add(new Item(1, i, true));
        }
        normal.forEach(list::add);
        completion.forEach(list::add);
        // prior_nr * 3 <= nr before each add: c0 (0 <= 6), c1 (3 <= 7), c2 (6 <= 8),
        // c3 (9 <= 9) go first; c4 (12 > 10) is capped and c5 follows it.
        List<TaskWork> expected = new ArrayList<>(completion.subList(0, 4));
        expected.addAll(normal);
        expected.addAll(completion.subList(4, 6));
        List<TaskWork> ran = drain(list);
        assertEquals(expected, ran);
        long ahead = ran.subList(0, ran.indexOf(normal.get(0))).size();
        assertTrue(ahead * PriorityTaskList.MAX_PRIORITY_RATIO <= ran.size(), "share " + ahead);
    }

    @Test
    void completionWorkNeverOvertakesCompletionWork() {
        TaskWorkList list = TaskWorkList.create(TaskWorkKind.PRIORITY);
        Item n0 = new Item(0, 0, false), n1 = new Item(0, 1, false), n2 = new Item(0, 2, false);
        Item n3 = new Item(0, 3, false);
        Item c0 = new Item(1, 0, true), c1 = new Item(1, 1, true), c2 = new Item(1, 2, true);
        Item c3 = new Item(1, 3, true);
        // Only completion work: the first one is within the cap (0 <= 0), the second is
        // not (3 > 1), and from then on the batch's completion work stays in order.
        for (Item c : List.of(c0, c1, c2, c3)) {
            list.add(c);
        }
        assertEquals(List.of(c0, c1, c2, c3), drain(list));
        // Interleaved: c0 (0 <= 1) and c1 (3 <= 3) go first, c2 (6 > 5) is capped.
        for (Item w : List.of(n0, c0, n1, c1, n2, c2, n3, c3)) {
            list.add(w);
        }
        assertEquals(List.of(c0, c1, n0, n1, n2, c2, n3, c3), drain(list));
        // The counters and the cap start again with each batch.
        list.add(n0);
        list.add(c0);
        assertEquals(List.of(c0, n0), drain(list));
    }

    /**
     * The 1/3 cap under load: producers of completion work race producers of normal work
     * while the owner runs the list with a sink that is slow now and then (so batches grow).
     * At every detach the priority prefix holds at most 1/3 of the detached work (the
     * kernel's {@code prior_nr * 3 <= nr} before each add gives {@code 3p <= n + 2}), it
     * really is completion work, the chain is exactly as long as counted, every item runs
     * once, and each producer's items keep their order within their class.
     */
    @Test
    void priorityShareStaysWithinOneThirdOfEveryDetachUnderLoad() throws Exception {
        int producers = 4;
        int perProducer = 50_000;
        PriorityTaskList list = (PriorityTaskList) TaskWorkList.create(TaskWorkKind.PRIORITY);
        Item[][] items = new Item[producers][perProducer];
        for (int p = 0; p < producers; p++) {
            for (int i = 0; i < perProducer; i++) {
                // Producers 0 and 1 add only completion work, 2 mostly normal, 3 mixed.
                boolean completion = p < 2 || (p == 2 ? i % 5 == 0 : i % 2 == 0);
                items[p][i] = new Item(p, i, completion);
            }
        }
        int[][] lastSeq = new int[producers][2];
        for (int[] l : lastSeq) {
            Arrays.fill(l, -1);
        }
        boolean[][] seen = new boolean[producers][perProducer];
        // Consumer-only state of the sink: what is left of the current detach.
        int[] left = new int[2];             // [0] items of the batch, [1] of its priority prefix
        long[] stats = new long[4];          // ran, detaches, priority items, capped completions
        AtomicReference<Throwable> failure = new AtomicReference<>();
        TaskWorkSink sink = w -> {
            Item item = (Item) w;
            if (left[0] == 0) {
                int prior = list.detachedPrior;
                int count = list.detachedCount;
                if (count < 1 || prior < 0 || prior * PriorityTaskList.MAX_PRIORITY_RATIO > count + 2) {
                    failure.compareAndSet(null, new AssertionError("detach of " + count + " with " + prior
                            + " priority items breaks the 1/3 cap"));
                }
                left[0] = count;
                left[1] = prior;
                stats[1]++;
                stats[2] += prior;
            }
            if (left[1] > 0) {
                if (!item.isCompletionWork()) {
                    failure.compareAndSet(null, new AssertionError(item + " ran in the priority prefix"));
                }
                left[1]--;
            } else if (item.isCompletionWork()) {
                stats[3]++;
            }
            left[0]--;
            if (seen[item.producer][item.seq]) {
                failure.compareAndSet(null, new AssertionError(item + " ran twice"));
            }
            seen[item.producer][item.seq] = true;
            int cls = item.isCompletionWork() ? 1 : 0;
            if (item.seq <= lastSeq[item.producer][cls]) {
                failure.compareAndSet(null, new AssertionError(item + " ran after " + lastSeq[item.producer][cls]));
            }
            lastSeq[item.producer][cls] = item.seq;
            if (++stats[0] % 64 == 0) {
                long until = System.nanoTime() + 20_000;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
        };
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            Item[] mine = items[p];
            threads.add(Thread.ofPlatform().name("producer-" + p).start(() -> {
                awaitQuietly(start);
                for (Item item : mine) {
                    list.add(item);
                }
            }));
        }
        start.countDown();
        long total = (long) producers * perProducer;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (stats[0] < total && failure.get() == null) {
            if (list.runAll(sink) == 0) {
                Thread.onSpinWait();
            }
            assertTrue(System.nanoTime() < deadline, "stuck at " + stats[0] + " items");
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertNull(failure.get());
        assertEquals(total, stats[0], "every item exactly once");
        assertEquals(0, left[0], "the last chain was as long as its detach counted");
        assertTrue(list.isEmpty());
        // Not vacuous: completion work did go first, and the cap did hold some back.
        assertTrue(stats[2] > 0, "no completion work ever ran first in " + stats[1] + " detaches");
        assertTrue(stats[3] > 0, "the cap never held completion work back in " + stats[1] + " detaches");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
