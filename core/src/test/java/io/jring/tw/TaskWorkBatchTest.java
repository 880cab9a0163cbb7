package io.jring.tw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.TaskWorkKind;
import io.jring.tw.TaskWorkListTest.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link TaskWorkBatch} and {@link TaskWorkList#addBatch} for each strategy: a batch lands
 * as that many adds in a row would (FIFO, after earlier adds, before later ones), answers
 * "was empty" once for the whole batch, and its items may be re-added by the sink. The
 * interleavings with a running consumer and a sleeping owner are jcstress's
 * ({@code io.jring.stress.BatchAddWakeTest}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskWorkBatchTest {

    private static List<String> runAll(TaskWorkList list) {
        List<String> seen = new ArrayList<>();
        list.runAll(w -> seen.add(w.toString()));
        return seen;
    }

    private static TaskWorkBatch batchOf(Item... items) {
        TaskWorkBatch b = new TaskWorkBatch();
        for (Item i : items) {
            b.append(i);
        }
        return b;
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void aBatchRunsInOrderBetweenTheAddsAroundIt(TaskWorkKind kind) {
        TaskWorkList list = TaskWorkList.create(kind);
        assertTrue(list.add(new Item(0, 0, false)));
        TaskWorkBatch b = batchOf(new Item(0, 1, false), new Item(0, 2, false), new Item(0, 3, false));
        assertEquals(3, b.count());
        assertFalse(list.addBatch(b), "the list was not empty");
        b.clear();
        assertTrue(b.isEmpty());
        assertFalse(list.add(new Item(0, 4, false)));
        assertEquals(List.of("n0.0", "n0.1", "n0.2", "n0.3", "n0.4"), runAll(list));
        assertTrue(list.isEmpty());
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void aBatchOnAnEmptyListAnswersWasEmptyOnceForAllItsItems(TaskWorkKind kind) {
        TaskWorkList list = TaskWorkList.create(kind);
        assertTrue(list.addBatch(batchOf(new Item(0, 0, false), new Item(0, 1, false))));
        assertFalse(list.addBatch(batchOf(new Item(0, 2, false))));
        assertEquals(List.of("n0.0", "n0.1", "n0.2"), runAll(list));
        // Drained: the next batch is the one that makes it non-empty again.
        assertTrue(list.addBatch(batchOf(new Item(0, 3, false))));
        assertEquals(List.of("n0.3"), runAll(list));
        assertEquals(0, list.runAll(w -> { }));
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void aSinkMayReAddAnItemOfTheBatchItIsRunning(TaskWorkKind kind) {
        TaskWorkList list = TaskWorkList.create(kind);
        Item a = new Item(0, 0, false);
        Item b = new Item(0, 1, false);
        list.addBatch(batchOf(a, b));
        List<String> seen = new ArrayList<>();
        boolean[] again = {true};
        list.runAll(w -> {
            seen.add(w.toString());
            if (w == a && again[0]) {
                again[0] = false;
                list.add(a);   // the run takes it after b
            }
        });
        assertEquals(List.of("n0.0", "n0.1", "n0.0"), seen);
    }

    @Test
    void priorityPlacesABatchByTheCapAsThatManyAddsWould() {
        PriorityTaskList batched = new PriorityTaskList();
        PriorityTaskList single = new PriorityTaskList();
        Item[] x = new Item[6];
        Item[] y = new Item[6];
        for (int i = 0; i < 6; i++) {
            boolean completion = i % 2 == 1;
            x[i] = new Item(0, i, completion);
            y[i] = new Item(0, i, completion);
        }
        batched.add(x[0]);
        batched.addBatch(batchOf(x[1], x[2], x[3], x[4], x[5]));
        for (Item i : y) {
            single.add(i);
        }
        assertEquals(runAll(single), runAll(batched));
        assertEquals(single.detachedPrior, batched.detachedPrior);
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void batchesFromManyProducersEachArriveWholeAndInOrder(TaskWorkKind kind) throws Exception {
        TaskWorkList list = TaskWorkList.create(kind);
        int producers = 3;
        int batches = 2_000;
        int size = 5;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            threads.add(Thread.ofPlatform().start(() -> {
                TaskWorkBatch b = new TaskWorkBatch();
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < batches; i++) {
                    for (int k = 0; k < size; k++) {
                        b.append(new Item(producer, i * size + k, false));
                    }
                    list.addBatch(b);
                    b.clear();
                }
            }));
        }
        int[] next = new int[producers];
        int[] total = {0};
        start.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (total[0] < producers * batches * size && System.nanoTime() < deadline) {
            list.runAll(w -> {
                Item i = (Item) w;
                assertEquals(next[i.producer]++, i.seq, "producer " + i.producer + " out of order");
                total[0]++;
            });
            Thread.onSpinWait();
        }
        for (Thread t : threads) {
            t.join();
        }
        list.runAll(w -> total[0]++);
        assertEquals(producers * batches * size, total[0]);
    }
}
