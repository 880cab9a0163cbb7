package io.jring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.tw.TaskContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MSG_RINGs of one submit to another thread's ring travel as one batch (core's MsgBatch,
 * issue 20): one publication on the target's task-work list, one wake, one task-work run,
 * and still one CQE per message on the target, in issue order, with each sender SQE's own
 * result (CQE_SKIP_SUCCESS, -EBADFD for a closed target) unchanged.
 */
@Timeout(30)
class MsgRingBatchTest {
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    /** A ring owned by a thread of its own, which hands over the CQEs it reads. */
    private static final class Target implements AutoCloseable {
        final BlockingQueue<String> cqes = new LinkedBlockingQueue<>();
        final CountDownLatch owned = new CountDownLatch(1);
        final CountDownLatch stop = new CountDownLatch(1);
        final AtomicReference<IoUring> ring = new AtomicReference<>();
        final Thread thread;

        Target(int flags, TaskWorkKind kind) throws InterruptedException {
            thread = Thread.ofPlatform().name("msg-target").start(() -> {
                try (IoUring t = IoUring.builder().entries(8).cqEntries(256).flags(flags).taskWorkList(kind).build()) {
                    t.submit();   // becomes the owner
                    ring.set(t);
                    owned.countDown();
                    while (stop.getCount() > 0) {
                        Cqe c = t.waitCqe(Duration.ofMillis(20));
                        if (c != null) {
                            cqes.add(c.userData() + ":" + c.res());
                            t.cqeSeen(c);
                        }
                    }
                }
            });
            assertTrue(owned.await(5, TimeUnit.SECONDS));
        }

        List<String> take(int n) throws InterruptedException {
            List<String> got = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String s = cqes.poll(5, TimeUnit.SECONDS);
                assertNotNull(s, "message " + i + " of " + n + " did not arrive");
                got.add(s);
            }
            return got;
        }

        @Override
        public void close() throws InterruptedException {
            stop.countDown();
            thread.join(5000);
        }
    }

    @ParameterizedTest
    @CsvSource({"2, MPSC", "2, LLIST", "2, LOCKED", "2, PRIORITY", "3, MPSC", "3, LLIST", "3, PRIORITY"})
    void manyMessagesInOneSubmitArriveInOrderEachWithItsCqe(int flagsCode, TaskWorkKind kind) throws Exception {
        int flags = flagsCode == 3 ? DEFER : Setup.SINGLE_ISSUER;
        try (Target target = new Target(flags, kind); IoUring sender = IoUring.open(128)) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                sender.getSqe().prepMsgRing(target.ring.get(), i, 1000 + i, 0).userData(i);
                expected.add((1000 + i) + ":" + i);
            }
            assertEquals(100, sender.submitAndWait(100));
            int[] senderCqes = {0};
            sender.forEachCqe((ud, res, f) -> {
                assertEquals(0, res, "sender CQE " + ud);
                senderCqes[0]++;
            });
            assertEquals(100, senderCqes[0]);
            assertEquals(expected, target.take(100));
        }
    }

    @Test
    void skippedSenderCqesStaySkippedAndAClosedTargetFailsOnlyItsOwnSqe() throws Exception {
        IoUring closed = IoUring.open(4);
        closed.close();
        try (Target target = new Target(DEFER, TaskWorkKind.MPSC); IoUring sender = IoUring.open(16)) {
            IoUring t = target.ring.get();
            sender.getSqe().prepMsgRing(t, 0, 100, 0).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(1);
            sender.getSqe().prepMsgRing(t, 1, 101, 0).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(2);
            sender.getSqe().prepMsgRing(closed, 9, 999, 0).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(3);
            sender.getSqe().prepMsgRing(t, 2, 102, 0).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(4);
            sender.getSqe().prepMsgRing(t, 3, 103, 0).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(5);
            assertEquals(5, sender.submit());
            assertEquals(List.of("100:0", "101:1", "102:2", "103:3"), target.take(4));
            Cqe c = sender.waitCqe(Duration.ofSeconds(5));
            assertNotNull(c);
            assertEquals(3, c.userData());
            assertEquals(-Errno.EBADFD, c.res());
            sender.cqeSeen(c);
            assertNull(sender.peekCqe(), "the successful sends stay skipped");
        }
    }

    @Test
    void messagesToTwoRingsInterleavedReachEachInItsOrder() throws Exception {
        try (Target a = new Target(DEFER, TaskWorkKind.MPSC); Target b = new Target(Setup.SINGLE_ISSUER, TaskWorkKind.MPSC);
             IoUring sender = IoUring.open(16)) {
            IoUring ra = a.ring.get();
            IoUring rb = b.ring.get();
            IoUring[] order = {ra, rb, ra, ra, rb, rb, ra, sender, ra};
            int[] seq = new int[3];
            for (IoUring r : order) {
                int who = r == ra ? 0 : r == rb ? 1 : 2;
                sender.getSqe().prepMsgRing(r, seq[who], 10 * who + seq[who]++, 0).flags(SqeFlags.CQE_SKIP_SUCCESS);
            }
            assertEquals(order.length, sender.submit());
            assertEquals(List.of("0:0", "1:1", "2:2", "3:3", "4:4"), a.take(5));
            assertEquals(List.of("10:0", "11:1", "12:2"), b.take(3));
            Cqe own = sender.waitCqe(Duration.ofSeconds(5));
            assertNotNull(own, "the message to the sender's own ring");
            assertEquals(20, own.userData());
        }
    }

    /**
     * The waiter sleeps for 64 completions; one submit of 64 messages wakes it once and it
     * runs them all in one task-work run.
     */
    @ParameterizedTest
    @ValueSource(ints = {Setup.SINGLE_ISSUER, DEFER})
    void aWaiterForTheWholeBatchIsWokenOnceAndRunsItOnce(int flags) throws Exception {
        int n = 64;
        CountDownLatch owned = new CountDownLatch(1);
        AtomicReference<IoUring> ring = new AtomicReference<>();
        long[] seen = new long[4];   // wakeups, task-work runs, items, CQEs
        Thread waiter = Thread.ofPlatform().name("msg-waiter").start(() -> {
            try (IoUring t = IoUring.builder().entries(8).cqEntries(128).flags(flags).build()) {
                t.submit();
                ring.set(t);
                RingStats s0 = t.stats();
                long w0 = TaskContext.current().wakeups();
                owned.countDown();
                t.submitAndWait(n);
                RingStats s1 = t.stats();
                seen[0] = TaskContext.current().wakeups() - w0;
                seen[1] = s1.taskWorkRuns() - s0.taskWorkRuns();
                seen[2] = s1.taskWorkItems() - s0.taskWorkItems();
                seen[3] = t.forEachCqe((ud, res, f) -> { });
            }
        });
        assertTrue(owned.await(5, TimeUnit.SECONDS));
        // Bounded wait until the waiter is parked in its wait for n (it parks nowhere else).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (waiter.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(Thread.State.WAITING, waiter.getState());
        try (IoUring sender = IoUring.open(128)) {
            for (int i = 0; i < n; i++) {
                sender.getSqe().prepMsgRing(ring.get(), i, i, 0).flags(SqeFlags.CQE_SKIP_SUCCESS);
            }
            assertEquals(n, sender.submit());
        }
        waiter.join(5000);
        assertEquals(1, seen[0], "wakeups");
        assertEquals(1, seen[1], "task-work runs");
        assertEquals(n, seen[2], "task-work items");
        assertEquals(n, seen[3], "CQEs");
    }
}
