package io.jring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Assumptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jring.RingTestSupport.await;
import static io.jring.RingTestSupport.awaitTrue;
import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link IoUring#stats()}: each counter of {@link RingStats} against what the ring did. */
class RingStatsTest {
    @TempDir
    Path dir;

    @Test
    void aNewRingCountsNothing() {
        try (IoUring ring = IoUring.open(8)) {
            assertEquals(new RingStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), ring.stats());
        }
    }

    @Test
    void submittedSqesAndPostedCqesAreCounted() {
        try (IoUring ring = IoUring.open(8)) {
            RingTestSupport.prepNops(ring, 1, 3, 0);
            assertEquals(3, ring.submit());
            reap(ring, 3);
            ring.getSqe().prepNop().flags(SqeFlags.CQE_SKIP_SUCCESS);
            ring.getSqe().prepNop().userData(9);
            ring.submit();
            reap(ring, 1);
            RingStats s = ring.stats();
            assertEquals(5, s.sqesSubmitted());
            assertEquals(4, s.cqesPosted(), "a skipped CQE is not posted");
            assertEquals(0, s.requestsInFlight());
        }
    }

    @Test
    void aFailedSqeIsSubmittedAndPostsItsError() {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepNop().flags(0x80).userData(1);   // an unknown SQE flag: -EINVAL
            ring.submit();
            assertEquals(-Errno.EINVAL, reap(ring, 1).get(0).res());
            RingStats s = ring.stats();
            assertEquals(1, s.sqesSubmitted());
            assertEquals(1, s.cqesPosted());
        }
    }

    @Test
    void aWaitingRecvIsInFlightUntilItCompletes() {
        int[] sp = Fds.socketPair();
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            ring.getSqe().prepRecv(sp[0], arena.allocate(16), 0).userData(1);
            ring.submit();
            assertEquals(1, ring.stats().requestsInFlight());
            Fds.write(sp[1], new byte[] {1});
            assertEquals(1, reap(ring, 1).get(0).res());
            assertEquals(0, ring.stats().requestsInFlight());
        } finally {
            Fds.close(sp[0]);
            Fds.close(sp[1]);
        }
    }

    @Test
    void cqesThatFindTheCqFullAreCountedAsOverflowsAndPostedWhenMovedIn() {
        try (IoUring ring = IoUring.builder().entries(2).cqEntries(2).build()) {
            RingTestSupport.prepNops(ring, 1, 2, 0);
            ring.submit();
            RingTestSupport.prepNops(ring, 3, 2, 0);
            ring.submit();
            RingStats s = ring.stats();
            assertEquals(2, s.cqOverflows());
            assertEquals(2, s.cqesPosted(), "the overflowed two are not in the CQ yet");
            List<RingTestSupport.Completion> all = reap(ring, 4);
            assertEquals(List.of(1L, 2L, 3L, 4L), all.stream().map(RingTestSupport.Completion::userData).toList());
            s = ring.stats();
            assertEquals(2, s.cqOverflows());
            assertEquals(4, s.cqesPosted());
        }
    }

    @Test
    void aPollWaitIsArmedUntilTheFileIsReady() {
        int[] pipe = Fds.pipe();
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepPollAdd(pipe[0], Poll.IN).userData(1);
            ring.submit();
            assertEquals(1, ring.stats().pollsArmed());
            Fds.write(pipe[1], new byte[] {1});
            reap(ring, 1);
            assertEquals(0, ring.stats().pollsArmed());
        } finally {
            Fds.close(pipe[0]);
            Fds.close(pipe[1]);
        }
    }

    /** legacyAsync: the worker blocks in the read, so it is busy until the pipe has data. */
    @Test
    void aBlockedUnboundWorkerIsBusyAndItsCompletionIsTaskWork() {
        int[] pipe = Fds.pipe();
        try (IoUring ring = IoUring.builder().entries(8).legacyAsync(true).build();
             Arena arena = Arena.ofConfined()) {
            ring.getSqe().prepRead(pipe[0], arena.allocate(8), 0).flags(SqeFlags.ASYNC).userData(1);
            ring.submit();
            awaitTrue(() -> ring.stats().ioWqUnboundBusy() == 1, "the worker blocked in the read");
            RingStats s = ring.stats();
            assertEquals(1, s.ioWqUnboundWorkers());
            assertEquals(0, s.ioWqBoundedWorkers());
            assertEquals(0, s.taskWorkRuns());
            Fds.write(pipe[1], new byte[] {1, 2});
            assertEquals(2, reap(ring, 1).get(0).res());
            s = ring.stats();
            assertTrue(s.taskWorkRuns() >= 1, s.toString());
            assertTrue(s.taskWorkItems() >= s.taskWorkRuns(), s.toString());
            awaitTrue(() -> ring.stats().ioWqUnboundBusy() == 0, "the worker went idle");
        } finally {
            Fds.close(pipe[0]);
            Fds.close(pipe[1]);
        }
    }

    /** A worker retires after 5 s idle by default: read right after the CQE, it is still there. */
    @Test
    void anAsyncFileReadStartsABoundedWorker() throws Exception {
        Path f = dir.resolve("f");
        Files.write(f, new byte[4096]);
        int fd = Fds.open(f, OpenFlags.RDONLY, 0);
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            ring.getSqe().prepRead(fd, arena.allocate(4096), 0).flags(SqeFlags.ASYNC).userData(1);
            ring.submit();
            assertEquals(4096, reap(ring, 1).get(0).res());
            RingStats s = ring.stats();
            assertEquals(1, s.ioWqBoundedWorkers());
            assertTrue(s.ioWqBoundedBusy() <= 1, s.toString());
            assertTrue(s.taskWorkItems() >= 1, s.toString());
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void msgRingIsCountedAsSentBySourceAndReceivedByTarget() throws Exception {
        try (IoUring src = IoUring.open(8); IoUring dst = IoUring.open(8)) {
            src.getSqe().prepMsgRing(dst, 7, 70, 0).userData(1);
            src.submit();
            assertEquals(0, reap(src, 1).get(0).res());
            // The target's thread (this one) delivers on its next look at its ring.
            assertEquals(70, reap(dst, 1).get(0).userData());
            assertEquals(1, src.stats().msgRingSent());
            assertEquals(0, src.stats().msgRingReceived());
            assertEquals(1, dst.stats().msgRingReceived());
            assertEquals(0, dst.stats().msgRingSent());

            // From another thread that owns the target: delivered as task work there.
            CompletableFuture<Long> received = new CompletableFuture<>();
            java.util.concurrent.CountDownLatch owned = new java.util.concurrent.CountDownLatch(1);
            try (IoUring other = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build()) {
                Thread t = Thread.ofPlatform().start(() -> {
                    other.getSqe().prepNop();
                    other.submit();
                    reap(other, 1);
                    owned.countDown();
                    reap(other, 1);
                    received.complete(other.stats().msgRingReceived());
                });
                await(owned);
                src.getSqe().prepMsgRing(other, 0, 5, 0).userData(2);
                src.submit();
                reap(src, 1);
                assertEquals(1L, received.get(30, TimeUnit.SECONDS));
                t.join();
            }
            assertEquals(2, src.stats().msgRingSent());
        }
    }

    @Test
    void statsOfAClosedRingKeepTheFinalCounts() {
        IoUring ring = IoUring.open(8);
        RingTestSupport.prepNops(ring, 1, 2, 0);
        ring.submit();
        reap(ring, 2);
        ring.close();
        RingStats s = ring.stats();
        assertEquals(2, s.sqesSubmitted());
        assertEquals(2, s.cqesPosted());
    }

    @Test
    void directIoIsInFlightUntilReapedAndZeroAfter() throws Exception {
        Path f = dir.resolve("d");
        Files.write(f, new byte[1 << 16]);
        int fd;
        try {
            fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        } catch (IoUringException e) {
            Assumptions.abort("O_DIRECT not supported on " + dir + ": " + e.getMessage());
            return;
        }
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            int n = 4;
            for (int i = 0; i < n; i++) {
                ring.getSqe().prepRead(fd, arena.allocate(4096, 4096), 4096L * i).userData(i);
            }
            ring.submit();
            int inFlight = ring.stats().directIoInFlight();
            assertTrue(inFlight >= 0 && inFlight <= n, "in flight: " + inFlight);
            for (RingTestSupport.Completion c : reap(ring, n)) {
                Assumptions.assumeTrue(c.res() == 4096, "O_DIRECT read gave " + c.res());
            }
            assertEquals(0, ring.stats().directIoInFlight());
            assertEquals(0, ring.stats().requestsInFlight());
        } finally {
            Fds.close(fd);
        }
    }
}
