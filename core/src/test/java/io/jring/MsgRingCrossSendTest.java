package io.jring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two plain rings whose threads send MSG_RINGs to each other at the same time never
 * deadlock: a sender holds its own ring's lock while it submits, so it may only try the
 * target's lock, and when that is taken the message goes to io-wq, which waits for the
 * target's lock holding none (Linux's io_lock_external_ctx: trylock, else -EAGAIN and
 * punt). Every message arrives exactly once.
 */
@Timeout(60)
class MsgRingCrossSendTest {
    private static final int MESSAGES = 20_000;
    private static final int BATCH = 16;

    @Test
    void plainRingsSendingToEachOtherAtOnceNeverDeadlock() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (IoUring a = IoUring.open(64); IoUring b = IoUring.open(64)) {
                AtomicLongArray received = new AtomicLongArray(2);
                CyclicBarrier start = new CyclicBarrier(2);
                Thread ta = Thread.ofPlatform().name("test-a").start(() -> exchange(a, b, 0, received, start));
                Thread tb = Thread.ofPlatform().name("test-b").start(() -> exchange(b, a, 1, received, start));
                ta.join();
                tb.join();
                assertEquals(MESSAGES, received.get(0));
                assertEquals(MESSAGES, received.get(1));
            }
        });
    }

    /** Sends MESSAGES to {@code peer} in batches, reaping its own ring meanwhile, until it got all of the peer's. */
    private static void exchange(IoUring own, IoUring peer, int me, AtomicLongArray received, CyclicBarrier start) {
        try {
            start.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        long sent = 0;
        long senderCqes = 0;
        long messages = 0;
        while (sent < MESSAGES || senderCqes < MESSAGES || messages < MESSAGES) {
            int n = 0;
            for (; n < BATCH && sent < MESSAGES; n++, sent++) {
                own.getSqe().prepMsgRing(peer, 1, 1_000_000 + sent, 0).userData(sent);
            }
            if (n > 0) {
                own.submit();
            }
            Cqe c = own.waitCqe(Duration.ofMillis(n > 0 ? 0 : 10));
            if (c == null) {
                continue;
            }
            long[] counts = new long[2];
            own.forEachCqe((ud, res, flags) -> {
                if (ud >= 1_000_000) {
                    counts[1]++;
                } else {
                    assertEquals(0, res, "sender CQE of message " + ud);
                    counts[0]++;
                }
            });
            senderCqes += counts[0];
            messages += counts[1];
        }
        received.set(me, messages);
    }
}
