package io.jring.core;

import io.jring.Cqe;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.SqeFlags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** {@link MsgCarrierCache}: carriers come back from the targets and are reused. */
@Timeout(30)
class MsgCarrierCacheTest {

    @Test
    void carriersGivenBackAreTakenAgainBeforeANewOneIsAllocated() {
        MsgCarrierCache cache = new MsgCarrierCache();
        MsgCarrier a = cache.take();
        MsgCarrier b = cache.take();
        assertEquals(2, cache.allocated());
        cache.giveBack(a);
        cache.giveBack(b);
        MsgCarrier x = cache.take();
        MsgCarrier y = cache.take();
        assertSame(b, x, "the return stack is taken whole, newest first");
        assertSame(a, y);
        assertEquals(2, cache.allocated());
        assertNotSame(a, cache.take());
        assertEquals(3, cache.allocated());
    }

    /** A target's run gives its carriers back as one chain (one CAS), on top of earlier returns. */
    @Test
    void aChainGivenBackIsReusedWholeBeforeEarlierReturnsAndNothingIsLost() {
        MsgCarrierCache cache = new MsgCarrierCache();
        MsgCarrier a = cache.take();
        MsgCarrier b = cache.take();
        MsgCarrier c = cache.take();
        cache.giveBack(a);
        b.nextFree = c;   // as MsgRingDelivery.returnLater links a run's carriers
        cache.giveBackChain(b, c);
        assertSame(b, cache.take());
        assertSame(c, cache.take());
        assertSame(a, cache.take());
        assertEquals(3, cache.allocated(), "all three reused");
        assertNotSame(a, cache.take());
        assertEquals(4, cache.allocated());
    }

    /**
     * A sender streams messages to a ring another thread owns, at most {@code WINDOW} in
     * flight: its cache never holds more carriers than that, however many messages pass.
     */
    @ParameterizedTest
    @ValueSource(ints = {Setup.SINGLE_ISSUER, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void aSteadyStreamToAnotherThreadsRingAllocatesOnlyItsWindowOfCarriers(int flags) throws Exception {
        int window = 32;
        int total = 20_000;
        AtomicLong received = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch owned = new CountDownLatch(1);
        AtomicReference<IoUring> target = new AtomicReference<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (IoUring t = IoUring.builder().entries(8).cqEntries(256).flags(flags).build()) {
                t.submit();
                target.set(t);
                owned.countDown();
                while (!stop.get()) {
                    Cqe c = t.waitCqe(Duration.ofMillis(5));
                    if (c != null) {
                        t.cqeSeen(c);
                        received.incrementAndGet();
                    }
                }
            }
        });
        assertTrue(owned.await(5, TimeUnit.SECONDS));
        try (IoUring src = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER).build()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (int sent = 0; sent < total; ) {
                while (sent - received.get() > window - 8 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                for (int i = 0; i < 8; i++, sent++) {
                    src.getSqe().prepMsgRing(target.get(), 0, sent, 0).flags(SqeFlags.CQE_SKIP_SUCCESS);
                }
                src.submit();
                assertEquals(0, src.cqReady(), "no message failed");
            }
            while (received.get() < total && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(total, received.get());
            int allocated = ApiAccess.get().contextOf(src).msgRing.carriers.allocated();
            assertTrue(allocated > 0 && allocated <= window, "carriers allocated: " + allocated);
        } finally {
            stop.set(true);
            owner.join(5000);
        }
    }
}
