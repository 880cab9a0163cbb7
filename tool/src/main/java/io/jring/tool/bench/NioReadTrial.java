package io.jring.tool.bench;

import io.jring.nio.JringAsynchronousFileChannel;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.FileSystems;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of {@code jring bench nio}'s file part: 4 KiB random reads through an
 * {@code AsynchronousFileChannel} of one provider (the JDK's, as the platform's file
 * system provider opens it, or jring's), {@code inFlight} reads in flight, started by
 * {@code starters} threads (each takes a free buffer, starts a read, and the completion
 * handler gives the buffer back), for a warmup and then a measured window. Also counts the
 * bytes all threads allocated per read (the JVM's per-thread allocation counters) and the
 * JVM's live threads at the end.
 */
final class NioReadTrial {
    static final int BLOCK = 4096;

    /** Reads per second, bytes allocated per read, live threads. */
    record Result(double iops, double bytesPerOp, int threads) {}

    private final Path file;
    private final long blocks;
    private final boolean jring;
    private final boolean direct;
    private final int inFlight;
    private final int starters;

    NioReadTrial(Path file, long blocks, boolean jring, boolean direct, int inFlight, int starters) {
        this.file = file;
        this.blocks = blocks;
        this.jring = jring;
        this.direct = direct;
        this.inFlight = inFlight;
        this.starters = starters;
    }

    Result run(long warmupNanos, long measureNanos, long seed) throws IOException, InterruptedException {
        Set<OpenOption> options = new HashSet<>(Set.of(StandardOpenOption.READ));
        if (direct) {
            options.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
        }
        try (AsynchronousFileChannel ch = jring
                ? JringAsynchronousFileChannel.open(file, options, (java.util.concurrent.ExecutorService) null)
                : FileSystems.getDefault().provider().newAsynchronousFileChannel(file, options, null)) {
            ArrayBlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(inFlight);
            for (int i = 0; i < inFlight; i++) {
                free.add(ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK).slice());
            }
            AtomicLong done = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CompletionHandler<Integer, ByteBuffer> handler = new CompletionHandler<>() {
                @Override
                public void completed(Integer n, ByteBuffer b) {
                    done.incrementAndGet();
                    free.add(b);
                }

                @Override
                public void failed(Throwable exc, ByteBuffer b) {
                    failure.compareAndSet(null, exc);
                    free.add(b);
                }
            };
            long[] window = new long[2];
            Thread[] threads = new Thread[starters];
            long start = System.nanoTime();
            long measureFrom = start + warmupNanos;
            long end = measureFrom + measureNanos;
            for (int t = 0; t < starters; t++) {
                SplittableRandom rnd = new SplittableRandom(seed * 131 + t);
                threads[t] = new Thread(() -> {
                    try {
                        while (System.nanoTime() < end && failure.get() == null) {
                            ByteBuffer b = free.poll(1, TimeUnit.SECONDS);
                            if (b != null) {
                                b.clear();
                                ch.read(b, rnd.nextLong(blocks) * BLOCK, b, handler);
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "nio-starter-" + t);
                threads[t].start();
            }
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(Math.max(0, measureFrom - System.nanoTime())));
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long alloc0 = mx.getTotalThreadAllocatedBytes();
            long done0 = done.get();
            long t0 = System.nanoTime();
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(Math.max(0, end - t0)));
            long done1 = done.get();
            long t1 = System.nanoTime();
            long alloc1 = mx.getTotalThreadAllocatedBytes();
            int liveThreads = mx.getThreadCount();
            for (Thread t : threads) {
                t.join();
            }
            // Let every read in flight finish before the channel closes.
            for (int i = 0; i < inFlight; i++) {
                if (free.poll(60, TimeUnit.SECONDS) == null) {
                    throw new IOException("a read did not complete within 60 s");
                }
            }
            if (failure.get() != null) {
                throw new IOException("a read failed", failure.get());
            }
            window[0] = done1 - done0;
            window[1] = t1 - t0;
            double ops = Math.max(1, window[0]);
            return new Result(window[0] * 1e9 / window[1], (alloc1 - alloc0) / ops, liveThreads);
        }
    }
}
