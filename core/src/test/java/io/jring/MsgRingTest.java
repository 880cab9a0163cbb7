package io.jring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** MSG_RING (liburing's msg-ring, msg-ring-flags, msg-ring-overflow, msg-ring-fd). */
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
    void aClosedTargetIsEbadfdAndABadCommandOrFlagsEinval() {
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
            ring.getSqe().prepNop().opcode(Opcode.MSG_RING).userData(3);   // no target ring
            ring.submitAndWait(1);
            c = next(ring);
            assertEquals(-Errno.EINVAL, c.res());
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
}
