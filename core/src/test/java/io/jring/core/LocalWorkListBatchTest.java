package io.jring.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jring.TaskWorkKind;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkBatch;
import io.jring.tw.TaskWorkTarget;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link LocalWorkList#addBatch}: a batch counts against the DEFER_TASKRUN waiter's
 * countdown as a whole (the kernel's nr_wait countdown in io_req_local_work_add), so the
 * waiter is woken once, by the add that brings what it waits for, and never by one that
 * does not. The race with the owner's arm and re-check is jcstress's
 * ({@code io.jring.stress.BatchAddWakeTest}).
 */
class LocalWorkListBatchTest {
    /** The owner context of these tests is the test thread itself: wakes are unparks of it. */
    private final TaskContext owner = TaskContext.detached();

    private static final class Item extends TaskWork {
        @Override
        public TaskWorkTarget target() {
            return null;
        }

        @Override
        public void runTaskWork(boolean cancel) {
        }
    }

    private static TaskWorkBatch batch(int n) {
        TaskWorkBatch b = new TaskWorkBatch();
        for (int i = 0; i < n; i++) {
            b.append(new Item());
        }
        return b;
    }

    @AfterEach
    void dropUnparkPermit() {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));   // a wake left a permit: take it
    }

    private long add(LocalWorkList local, int n, boolean lazy) {
        long before = owner.wakeups();
        TaskWorkBatch b = batch(n);
        local.addBatch(b, lazy, owner);
        b.clear();
        return owner.wakeups() - before;
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void aWaiterForFiveIsWokenOnlyByTheBatchThatCrossesItsCountdown(TaskWorkKind kind) {
        LocalWorkList local = new LocalWorkList(kind);
        local.arm(5);
        assertEquals(0, add(local, 3, true), "3 of 5: not enough yet");
        assertEquals(1, add(local, 3, true), "6 of 5: this batch brings it");
        assertEquals(0, add(local, 3, true), "already woken");
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void aBatchLargerThanTheCountdownWakesOnce(TaskWorkKind kind) {
        LocalWorkList local = new LocalWorkList(kind);
        local.arm(2);
        assertEquals(1, add(local, 32, true));
        // A single add after the batch took the countdown below zero does not wake again.
        long before = owner.wakeups();
        local.add(new Item(), true, owner);
        assertEquals(before, owner.wakeups());
        int[] ran = {0};
        local.list().runAll(w -> ran[0]++);
        assertEquals(33, ran[0]);
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void nobodyWaitingMeansNoWake(TaskWorkKind kind) {
        LocalWorkList local = new LocalWorkList(kind);
        assertEquals(0, add(local, 4, true));
        assertEquals(0, add(local, 4, false));
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void aNonLazyBatchWakesAnArmedWaiterAtOnce(TaskWorkKind kind) {
        LocalWorkList local = new LocalWorkList(kind);
        local.arm(10);
        assertEquals(1, add(local, 2, false));
        assertEquals(0, add(local, 20, true), "the countdown was cleared by the wake");
    }

    @ParameterizedTest
    @EnumSource(TaskWorkKind.class)
    void singleAddsAndBatchesShareOneCountdown(TaskWorkKind kind) {
        LocalWorkList local = new LocalWorkList(kind);
        local.arm(4);
        long before = owner.wakeups();
        local.add(new Item(), true, owner);
        local.add(new Item(), true, owner);
        assertEquals(before, owner.wakeups());
        assertEquals(1, add(local, 2, true), "2 + 2 of 4");
        int[] ran = {0};
        local.list().runAll(w -> ran[0]++);
        assertEquals(4, ran[0]);
    }
}
