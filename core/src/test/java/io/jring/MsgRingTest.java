package io.jring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** MSG_RING (liburing's msg-ring, msg-ring-flags, msg-ring-overflow, msg-ring-fd, msg-ring-exit-style owner exit). */
@Timeout(30)
class MsgRingTest {
    private static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;

    private static Cqe next(IoUring ring) {
        Cqe c = ring.waitCqe(java.time.Duration.ofSeconds(5));
        assertNotNull(c, "no CQE within 5 s");
        return c;
    }

    @Test
    void aMessageToTheSameRingPostsBothCqes() {
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepMsgRing(ring, 17, 0xabcL, 0).userData(1);
            ring.submitAndWait(2);
            Set<String> got = new HashSet<>();
            for (int i = 0; i < 2; i++) {
                Cqe c = next(ring);
                got.add(c.userData() + ":" + c.res());
                ring.cqeSeen(c);
            }
            assertEquals(Set.of("2748:17", "1:0"), got);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER, DEFER})
    void aMessageReachesARingOwnedByAnotherThreadWithPassedFlags(int flags) throws Exception {
        CountDownLatch owned = new CountDownLatch(1);
        AtomicReference<IoUring> target = new AtomicReference<>();
        AtomicReference<String> seen = new AtomicReference<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (IoUring t = IoUring.builder().entries(8).flags(flags).build()) {
                t.submit();   // becomes the owner
                target.set(t);
                owned.countDown();
                Cqe c = next(t);
                seen.set(c.userData() + ":" + c.res() + ":" + c.flags());
                t.cqeSeen(c);
            }
        });
        assertTrue(owned.await(5, TimeUnit.SECONDS));
        try (IoUring sender = IoUring.open(8)) {
            sender.getSqe().prepMsgRingCqeFlags(target.get(), 99, 7L, 0, 0x40).userData(3);
            sender.submitAndWait(1);
            Cqe c = next(sender);
            assertEquals(3, c.userData());
            assertEquals(0, c.res());
            sender.cqeSeen(c);
        }
        owner.join(5000);
        assertEquals("7:99:64", seen.get());
    }

    @Test
    void aClosedTargetIsEbadfdBadFlagsEinvalAndNoTargetEbadf() {
        IoUring closed = IoUring.open(4);
        closed.close();
        try (IoUring ring = IoUring.open(8)) {
            ring.getSqe().prepMsgRing(closed, 1, 1, 0).userData(1);
            ring.submitAndWait(1);
            Cqe c = next(ring);
            assertEquals(-Errno.EBADFD, c.res());
            ring.cqeSeen(c);
            ring.getSqe().prepMsgRing(ring, 1, 1, 0x80).userData(2);
            ring.submitAndWait(1);
            c = next(ring);
            assertEquals(2, c.userData());
            assertEquals(-Errno.EINVAL, c.res());
            ring.cqeSeen(c);
            ring.getSqe().prepNop().opcode(Opcode.MSG_RING).userData(3);   // no target ring: Linux's fd -1
            ring.submitAndWait(1);
            c = next(ring);
            assertEquals(-Errno.EBADF, c.res());
            ring.cqeSeen(c);
        }
    }

    @Test
    void eightMessagesIntoAFourEntryCqAllArriveThroughTheOverflowList() {
        try (IoUring target = IoUring.builder().entries(4).cqEntries(4).build();
             IoUring sender = IoUring.open(16)) {
            for (int i = 0; i < 8; i++) {
                sender.getSqe().prepMsgRing(target, i, 100 + i, 0).userData(i);
            }
            sender.submitAndWait(8);
            for (int i = 0; i < 8; i++) {
                Cqe c = next(target);
                assertEquals(100 + i, c.userData());
                assertEquals(i, c.res());
                target.cqeSeen(c);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, DEFER, -DEFER})
    void manySendersToOneTargetEveryMessageArrivesOnce(int flagsOrLegacy) throws Exception {
        boolean legacy = flagsOrLegacy < 0;   // negative: the same flags with the seed's legacy path
        int flags = Math.abs(flagsOrLegacy);
        int senders = 4;
        int each = 2000;
        CountDownLatch owned = new CountDownLatch(1);
        AtomicReference<IoUring> target = new AtomicReference<>();
        Set<Long> seen = new HashSet<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (IoUring t = IoUring.builder().entries(64).cqEntries(1024).flags(flags).legacyMsgRing(legacy).build()) {
                t.submit();
                target.set(t);
                owned.countDown();
                while (seen.size() < senders * each) {
                    Cqe c = next(t);
                    assertTrue(seen.add(c.userData()), "duplicate " + c.userData());
                    t.cqeSeen(c);
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(owned.await(5, TimeUnit.SECONDS));
        Thread[] ts = new Thread[senders];
        for (int s = 0; s < senders; s++) {
            int id = s;
            ts[s] = Thread.ofPlatform().start(() -> {
                try (IoUring r = IoUring.open(64)) {
                    for (int i = 0; i < each; i++) {
                        r.getSqe().prepMsgRing(target.get(), 0, (long) id * each + i, 0).flags(SqeFlags.CQE_SKIP_SUCCESS);
                        r.submit();
                        if (i % 32 == 31) {
                            r.forEachCqe((u, res, f) -> fail("sender CQE " + res));
                        }
                    }
                }
            });
        }
        for (Thread t : ts) {
            t.join(20_000);
        }
        owner.join(20_000);
        assertNull(failure.get());
        assertEquals(senders * each, seen.size());
    }

    @Test
    void aRegisteredFileMovesToTheTargetTable() {
        int[] p = Fds.pipe();
        try (IoUring src = IoUring.open(8); IoUring dst = IoUring.open(8)) {
            src.registerFiles(new int[] {p[1]});
            dst.registerFiles(new int[] {-1, -1});
            src.getSqe().prepMsgRingFd(dst, 0, 1, 55L, 0).userData(1);
            src.submitAndWait(1);
            Cqe c = next(src);
            assertEquals(0, c.res());
            src.cqeSeen(c);
            c = next(dst);
            assertEquals(55, c.userData());
            assertEquals(0, c.res());
            dst.cqeSeen(c);
            try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment b = a.allocate(3);
                dst.getSqe().prepWrite(1, b, -1).flags(SqeFlags.FIXED_FILE).userData(2);
                dst.submitAndWait(1);
                c = next(dst);
                assertEquals(3, c.res(), "the target writes through the moved file");
                dst.cqeSeen(c);
            }
            assertEquals(3, Fds.read(p[0], new byte[8]));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    /** The sender's CQE for its one SQE, user data {@code userData}, within 5 s; other CQEs fail. */
    private static int senderResult(IoUring ring, long userData) {
        Cqe c = next(ring);
        assertEquals(userData, c.userData());
        int res = c.res();
        ring.cqeSeen(c);
        return res;
    }

    @Test
    void aSendFdToTheOwnRingIsEinvalAndASameOwnerInstallErrorGoesToTheSenderWithoutATargetCqe() {
        int[] p = Fds.pipe();
        try (IoUring src = IoUring.open(8); IoUring noTable = IoUring.open(8); IoUring small = IoUring.open(8)) {
            src.registerFiles(new int[] {p[1]});
            small.registerFiles(new int[] {-1});
            src.getSqe().prepMsgRingFd(src, 0, 0, 1L, 0).userData(1);
            src.submitAndWait(1);
            assertEquals(-Errno.EINVAL, senderResult(src, 1), "Linux: a ring cannot send a file to itself");
            src.getSqe().prepMsgRingFd(noTable, 0, 0, 2L, 0).userData(2);
            src.submitAndWait(1);
            assertEquals(-Errno.ENXIO, senderResult(src, 2), "no file table in the target");
            src.getSqe().prepMsgRingFd(small, 0, 5, 3L, 0).userData(3);
            src.submitAndWait(1);
            assertEquals(-Errno.EINVAL, senderResult(src, 3), "slot out of the target's table");
            src.getSqe().prepMsgRingFd(small, 7, 0, 4L, 0).userData(4);
            src.submitAndWait(1);
            assertEquals(-Errno.EBADF, senderResult(src, 4), "empty source slot");
            assertEquals(0, noTable.cqReady(), "a failed install posts nothing to the target");
            assertEquals(0, small.cqReady());
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    /**
     * The SQE's file index as Linux reads it (checked against the kernel's io_uring with the
     * same SQEs): slot + 1, 0 and past the table -EINVAL, FILE_INDEX_ALLOC the first free
     * slot, which both the sender's and the target's CQE carry; a full table or none at all
     * -ENFILE for ALLOC, -ENXIO for a slot without a table.
     */
    @Test
    void theRawFileIndexIsSlotPlusOneAndAllocReportsTheSlotToBothRings() {
        int[] p = Fds.pipe();
        try (IoUring src = IoUring.open(8); IoUring dst = IoUring.open(8); IoUring noTable = IoUring.open(8)) {
            src.registerFiles(new int[] {p[0], p[1]});
            dst.registerFiles(new int[] {p[0], -1, -1, -1});
            src.getSqe().prepMsgRingFdAlloc(dst, 1, 77L, 0).userData(1);
            src.submitAndWait(1);
            assertEquals(1, senderResult(src, 1), "ALLOC: the first free slot, for the sender");
            assertEquals(1, senderResult(dst, 77), "... and in the target's CQE");
            src.getSqe().prepMsgRingFd(dst, 0, 2, 78L, 0).userData(2);
            src.submitAndWait(1);
            assertEquals(0, senderResult(src, 2));
            assertEquals(0, senderResult(dst, 78));
            src.getSqe().prepMsgRingFd(dst, 0, 2, 79L, 0).fileIndex(0).userData(3);
            src.submitAndWait(1);
            assertEquals(-Errno.EINVAL, senderResult(src, 3), "raw file index 0 is no slot");
            src.getSqe().prepMsgRingFd(dst, 0, 2, 80L, 0).fileIndex(5).userData(4);
            src.submitAndWait(1);
            assertEquals(-Errno.EINVAL, senderResult(src, 4), "raw 5 is slot 4 of a 4-slot table");
            src.getSqe().prepMsgRingFd(dst, 0, 2, 81L, 0).fileIndex(4).userData(5);
            src.submitAndWait(1);
            assertEquals(0, senderResult(src, 5), "raw 4 is slot 3");
            assertEquals(0, senderResult(dst, 81));
            src.getSqe().prepMsgRingFdAlloc(dst, 0, 82L, 0).userData(6);
            src.submitAndWait(1);
            assertEquals(-Errno.ENFILE, senderResult(src, 6), "ALLOC into a full table");
            src.getSqe().prepMsgRingFdAlloc(noTable, 0, 83L, 0).userData(7);
            src.submitAndWait(1);
            assertEquals(-Errno.ENFILE, senderResult(src, 7), "ALLOC without a table");
            src.getSqe().prepMsgRingFd(noTable, 0, 0, 84L, 0).userData(8);
            src.submitAndWait(1);
            assertEquals(-Errno.ENXIO, senderResult(src, 8), "a slot without a table");
            assertEquals(0, dst.cqReady(), "failed installs post nothing to the target");
            assertEquals(0, noTable.cqReady());
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    /**
     * SEND_FD to a ring owned by another thread: the install runs in that thread's task and
     * the sender's CQE carries its result (Linux's io_msg_fd_remote / io_msg_tw_fd_complete):
     * 0 and the target's CQE, or the install's error and no target CQE.
     */
    @ParameterizedTest
    @ValueSource(ints = {Setup.SINGLE_ISSUER, DEFER})
    void aRemoteSendFdInstallErrorIsTheSendersResult(int flags) throws Exception {
        int[] p = Fds.pipe();
        CountDownLatch owned = new CountDownLatch(2);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<IoUring> withTable = new AtomicReference<>();
        AtomicReference<IoUring> noTable = new AtomicReference<>();
        ConcurrentLinkedQueue<String> targetCqes = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (IoUring t = IoUring.builder().entries(8).flags(flags).build();
                 IoUring u = IoUring.builder().entries(8).flags(flags).build()) {
                t.registerFiles(new int[] {-1, -1});
                u.submit();
                withTable.set(t);
                noTable.set(u);
                owned.countDown();
                owned.countDown();
                while (!stop.get()) {
                    for (IoUring r : new IoUring[] {t, u}) {
                        Cqe c = r.waitCqe(java.time.Duration.ofMillis(2));
                        if (c != null) {
                            targetCqes.add((r == t ? "t" : "u") + ":" + c.userData() + ":" + c.res());
                            r.cqeSeen(c);
                        }
                    }
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(owned.await(5, TimeUnit.SECONDS));
        try (IoUring src = IoUring.open(8)) {
            src.registerFiles(new int[] {p[1]});
            src.getSqe().prepMsgRingFd(noTable.get(), 0, 0, 10L, 0).userData(1);
            src.submitAndWait(1);
            assertEquals(-Errno.ENXIO, senderResult(src, 1));
            src.getSqe().prepMsgRingFd(withTable.get(), 0, 2, 11L, 0).userData(2);
            src.submitAndWait(1);
            assertEquals(-Errno.EINVAL, senderResult(src, 2));
            src.getSqe().prepMsgRingFd(withTable.get(), 0, 1, 12L, 0).userData(3);
            src.submitAndWait(1);
            assertEquals(0, senderResult(src, 3));
            src.getSqe().prepMsgRingFd(withTable.get(), 0, 0, 13L, MsgRing.CQE_SKIP).userData(4);
            src.submitAndWait(1);
            assertEquals(0, senderResult(src, 4));
            // A data message after them: once it arrives, everything before it has run.
            src.getSqe().prepMsgRing(withTable.get(), 5, 14L, 0).flags(SqeFlags.CQE_SKIP_SUCCESS);
            src.submit();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!targetCqes.contains("t:14:5") && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        } finally {
            stop.set(true);
            owner.join(5000);
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
        assertNull(failure.get());
        assertEquals(java.util.List.of("t:12:0", "t:14:5"), java.util.List.copyOf(targetCqes),
                "only the successful, not skipped, install posts to the target");
    }

    /**
     * A SINGLE_ISSUER ring has no owner until a thread first uses it: a SEND_FD to it waits in
     * its inbox, and the sender's CQE comes when the owner appears and installs the file, or
     * -EBADFD when the ring is closed first.
     */
    @Test
    void aSendFdToARingWithoutAnOwnerYetCompletesWhenTheOwnerAppearsOrTheRingCloses() throws Exception {
        int[] p = Fds.pipe();
        IoUring waiting = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build();
        IoUring closing = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build();
        AtomicReference<String> targetCqe = new AtomicReference<>();
        try (IoUring src = IoUring.open(8)) {
            src.registerFiles(new int[] {p[1]});
            src.getSqe().prepMsgRingFd(waiting, 0, 0, 21L, 0).userData(1);
            src.getSqe().prepMsgRingFd(closing, 0, 0, 22L, 0).userData(2);
            assertEquals(2, src.submit());
            assertNull(src.peekCqe(), "both wait for an owner");
            closing.close();
            assertEquals(-Errno.EBADFD, senderResult(src, 2));
            Thread owner = Thread.ofPlatform().start(() -> {
                try (waiting) {
                    waiting.registerFiles(new int[] {-1});   // becomes the owner, then runs the message
                    Cqe c = next(waiting);
                    targetCqe.set(c.userData() + ":" + c.res());
                    waiting.cqeSeen(c);
                }
            });
            assertEquals(0, senderResult(src, 1));
            owner.join(5000);
            assertEquals("21:0", targetCqe.get());
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    /**
     * liburing-style owner exit: a thread owns a SINGLE_ISSUER ring and reads a few messages
     * of a stream, then exits without closing the ring while the stream goes on. Its task
     * work is then run by the fallback: every data message still lands in the ring's CQ
     * exactly once (as Linux's fallback posts it), and a SEND_FD, whose install needs the
     * owner's task, ends -EOWNERDEAD; after the ring is closed, -EBADFD. No hang, no exception.
     */
    @Test
    void aTargetThreadExitingMidStreamLosesNoMessage() throws Exception {
        int read = 200;
        int minAfterExit = 200;
        int cap = 12_000;
        CountDownLatch owned = new CountDownLatch(1);
        AtomicReference<IoUring> target = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Set<Long> seenByOwner = new HashSet<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try {
                IoUring t = IoUring.builder().entries(8).cqEntries(16_384).flags(Setup.SINGLE_ISSUER).build();
                t.registerFiles(new int[] {-1});
                target.set(t);
                owned.countDown();
                while (seenByOwner.size() < read) {
                    Cqe c = next(t);
                    assertTrue(seenByOwner.add(c.userData()), "duplicate " + c.userData());
                    t.cqeSeen(c);
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(owned.await(5, TimeUnit.SECONDS));
        int[] p = Fds.pipe();
        AtomicInteger fdResults = new AtomicInteger();
        Set<Integer> fdResultCodes = new HashSet<>();
        int sent = 0;
        int fdsSent = 0;
        try (IoUring src = IoUring.builder().entries(64).cqEntries(1024).flags(Setup.SINGLE_ISSUER).build()) {
            src.registerFiles(new int[] {p[1]});
            CqeHandler check = (u, res, f) -> {
                if (u == 1L) {
                    fdResults.incrementAndGet();
                    fdResultCodes.add(res);
                } else {
                    fail("data message failed: " + Errno.name(res));
                }
            };
            int afterExit = 0;
            while (afterExit < minAfterExit && sent < cap) {
                if (sent % 64 == 0) {
                    src.getSqe().prepMsgRingFd(target.get(), 0, 0, 1L, MsgRing.CQE_SKIP).userData(1);
                    fdsSent++;
                }
                src.getSqe().prepMsgRing(target.get(), 0, 1000L + sent, 0).userData(2).flags(SqeFlags.CQE_SKIP_SUCCESS);
                src.submit();
                sent++;
                if (!owner.isAlive()) {
                    afterExit++;
                }
                src.forEachCqe(check);
            }
            assertEquals(minAfterExit, afterExit, "the owner should have exited mid-stream");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (fdResults.get() < fdsSent && System.nanoTime() < deadline) {
                src.waitCqe(java.time.Duration.ofMillis(10));
                src.forEachCqe(check);
            }
            assertEquals(fdsSent, fdResults.get(), "every SEND_FD completes once");
            assertTrue(Set.of(0, -Errno.EOWNERDEAD).containsAll(fdResultCodes), fdResultCodes.toString());
            assertTrue(fdResultCodes.contains(-Errno.EOWNERDEAD), "a SEND_FD after the exit needs the dead owner");

            owner.join(5000);
            assertNull(failure.get());
            IoUring t = target.get();
            while (read + t.cqReady() < sent && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(sent, read + t.cqReady(), "every data message arrives exactly once");

            t.close();
            src.getSqe().prepMsgRing(t, 0, 1L, 0).userData(3);
            src.getSqe().prepMsgRingFd(t, 0, 0, 1L, 0).userData(4);
            src.submitAndWait(2);
            assertEquals(-Errno.EBADFD, senderResult(src, 3));
            assertEquals(-Errno.EBADFD, senderResult(src, 4));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    /**
     * The owner of a DEFER_TASKRUN target closes it and exits mid-stream: each message was
     * read exactly once before the close or the sender sees -EBADFD (or it was queued and is
     * dropped with the ring's unread CQEs); each SEND_FD in flight completes exactly once,
     * 0 or -EBADFD, so close() and the sender never hang.
     */
    @Test
    void aDeferTaskrunTargetClosedByItsExitingOwnerMidStreamNeverHangsTheSender() throws Exception {
        int read = 200;
        CountDownLatch owned = new CountDownLatch(1);
        AtomicReference<IoUring> target = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Set<Long> seenByOwner = new HashSet<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (IoUring t = IoUring.builder().entries(8).cqEntries(1024).flags(DEFER).build()) {
                t.registerFiles(new int[] {-1, -1});
                t.submit();
                target.set(t);
                owned.countDown();
                while (seenByOwner.size() < read) {
                    Cqe c = next(t);
                    assertTrue(seenByOwner.add(c.userData()), "duplicate " + c.userData());
                    t.cqeSeen(c);
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertTrue(owned.await(5, TimeUnit.SECONDS));
        int[] p = Fds.pipe();
        AtomicInteger fdResults = new AtomicInteger();
        Set<Integer> fdResultCodes = new HashSet<>();
        AtomicBoolean closedSeen = new AtomicBoolean();
        int sent = 0;
        int fdsSent = 0;
        try (IoUring src = IoUring.builder().entries(64).cqEntries(1024).flags(Setup.SINGLE_ISSUER).build()) {
            src.registerFiles(new int[] {p[1]});
            CqeHandler check = (u, res, f) -> {
                if (u == 1L) {
                    fdResults.incrementAndGet();
                    fdResultCodes.add(res);
                } else {
                    assertEquals(-Errno.EBADFD, res, "data message");
                }
                if (res == -Errno.EBADFD) {
                    closedSeen.set(true);
                }
            };
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!closedSeen.get() && System.nanoTime() < deadline) {
                if (sent % 16 == 0) {
                    src.getSqe().prepMsgRingFd(target.get(), 0, (sent / 16) & 1, 1L, MsgRing.CQE_SKIP).userData(1);
                    fdsSent++;
                }
                src.getSqe().prepMsgRing(target.get(), 0, 1000L + sent, 0).userData(2).flags(SqeFlags.CQE_SKIP_SUCCESS);
                src.submit();
                sent++;
                src.forEachCqe(check);
            }
            assertTrue(closedSeen.get(), "the target closed mid-stream");
            while (fdResults.get() < fdsSent && System.nanoTime() < deadline) {
                src.waitCqe(java.time.Duration.ofMillis(10));
                src.forEachCqe(check);
            }
            assertEquals(fdsSent, fdResults.get(), "every SEND_FD completes once");
            assertTrue(Set.of(0, -Errno.EBADFD).containsAll(fdResultCodes), fdResultCodes.toString());
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
        owner.join(5000);
        assertFalse(owner.isAlive());
        assertNull(failure.get());
        assertEquals(read, seenByOwner.size());
        assertTrue(sent > read);
    }
}
