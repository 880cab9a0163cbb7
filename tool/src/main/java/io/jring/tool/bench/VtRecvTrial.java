package io.jring.tool.bench;

import io.jring.Cqe;
import io.jring.Fds;
import io.jring.IoUring;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One trial of the RECV part of {@code jring bench vt}: {@code threads} virtual threads,
 * each with its own ring and socket pair, submit a RECV and wait for it; one platform
 * thread writes a byte to each pair {@code delay} after its RECV was submitted. The time
 * until the last CQE arrived: with waits that hold their carrier, the threads beyond the
 * carriers submit only after earlier waits ended, so it grows with the threads per carrier;
 * with waits that park it stays about one delay.
 */
final class VtRecvTrial {
    private VtRecvTrial() {}

    /** Of the last run: when its last RECV was submitted, from the start (bench thread only). */
    static long lastSubmitNanos;

    /**
     * Nanoseconds from the start (every thread has its ring open) until every waiter got its
     * CQE; ring setup is not timed.
     */
    static long run(int threads, long delayNanos) throws InterruptedException {
        int[][] pairs = new int[threads][];
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(
                r -> Thread.ofPlatform().daemon().name("vt-bench-writer").unstarted(r));
        byte[] one = {1};
        try {
            for (int i = 0; i < threads; i++) {
                pairs[i] = Fds.socketPair();
            }
            CountDownLatch done = new CountDownLatch(threads);
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            Thread[] ts = new Thread[threads];
            java.util.concurrent.atomic.AtomicLong lastSubmit = new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE);
            for (int i = 0; i < threads; i++) {
                int k = i;
                ts[i] = Thread.ofVirtual().start(() -> {
                    boolean counted = false;
                    try (IoUring ring = IoUring.open(4); Arena a = Arena.ofConfined()) {
                        MemorySegment buf = a.allocate(8);
                        ready.countDown();
                        go.await();
                        ring.getSqe().prepRecv(pairs[k][0], buf, 0).userData(k);
                        ring.submit();
                        lastSubmit.accumulateAndGet(System.nanoTime(), Math::max);
                        writer.schedule(() -> Fds.write(pairs[k][1], one), delayNanos, TimeUnit.NANOSECONDS);
                        Cqe c = ring.waitCqe(Duration.ofSeconds(60));
                        if (c == null || c.res() != 1) {
                            throw new IllegalStateException("RECV gave " + (c == null ? "no CQE" : c.res()));
                        }
                        ring.cqeSeen(c);
                        counted = true;
                        done.countDown();
                        done.await();   // rings close after the timed part: closes would hold the carriers
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        if (!counted) {
                            done.countDown();
                        }
                    }
                });
            }
            ready.await();
            long start = System.nanoTime();
            go.countDown();
            done.await();
            long elapsed = System.nanoTime() - start;
            lastSubmitNanos = lastSubmit.get() - start;
            for (Thread t : ts) {
                t.join();
            }
            return elapsed;
        } finally {
            writer.shutdownNow();
            for (int[] p : pairs) {
                if (p != null) {
                    Fds.close(p[0]);
                    Fds.close(p[1]);
                }
            }
        }
    }
}
