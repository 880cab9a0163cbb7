package io.jring.nio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CompletionHandler;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many concurrent file operations from 8 threads on a group of 2 rings: every operation
 * completes exactly once, with the right bytes; heap and direct buffers, reads and writes,
 * handlers and futures, a bound small enough that starters wait for it.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileChannelLoadTest {
    private static final int THREADS = 8;
    private static final int OPS_PER_THREAD = 2_000;
    private static final int BLOCK = 512;

    @TempDir
    Path dir;

    @Test
    void eightThreadsOfMixedOperationsCompleteExactlyOnce() throws Exception {
        JringAsynchronousChannelGroup group = JringAsynchronousChannelGroup.open(2, 64,
                JringAsynchronousChannelGroup.namedThreads(false));
        Path p = NioTestFiles.patterned(dir, "f", 1 << 20);
        AtomicIntegerArray completions = new AtomicIntegerArray(THREADS * OPS_PER_THREAD);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(THREADS * OPS_PER_THREAD);
        try (var ch = JringAsynchronousFileChannel.open(p, Set.of(READ, WRITE), group)) {
            Thread[] threads = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int tid = t;
                threads[t] = new Thread(() -> run(ch, tid, completions, failure, done), "starter-" + t);
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(done.await(240, TimeUnit.SECONDS), "operations left: " + done.getCount());
        }
        assertNull(failure.get());
        for (int i = 0; i < completions.length(); i++) {
            assertEquals(1, completions.get(i), "operation " + i);
        }
        group.shutdown();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
    }

    private static void run(JringAsynchronousFileChannel ch, int tid, AtomicIntegerArray completions,
                            AtomicReference<Throwable> failure, CountDownLatch done) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int i = 0; i < OPS_PER_THREAD; i++) {
            int id = tid * OPS_PER_THREAD + i;
            // Each thread writes only its own blocks (of the file's upper half) and reads the
            // lower half, which nobody writes, so every read's bytes are known.
            boolean write = rnd.nextInt(4) == 0;
            ByteBuffer b = rnd.nextBoolean() ? ByteBuffer.allocateDirect(BLOCK) : ByteBuffer.allocate(BLOCK);
            long pos = write ? (1 << 19) + (long) (tid * 64 + rnd.nextInt(64)) * BLOCK
                    : (long) rnd.nextInt((1 << 19) / BLOCK) * BLOCK;
            CompletionHandler<Integer, Integer> h = new CompletionHandler<>() {
                @Override
                public void completed(Integer n, Integer opId) {
                    if (n != BLOCK) {
                        failure.compareAndSet(null, new IOException("op " + opId + " transferred " + n));
                    } else if (!write && b.get(0) != NioTestFiles.pattern(pos)) {
                        failure.compareAndSet(null, new IOException("op " + opId + " read wrong bytes"));
                    }
                    completions.incrementAndGet(opId);
                    done.countDown();
                }

                @Override
                public void failed(Throwable exc, Integer opId) {
                    failure.compareAndSet(null, exc);
                    completions.incrementAndGet(opId);
                    done.countDown();
                }
            };
            if (rnd.nextBoolean()) {
                if (write) {
                    ch.write(b, pos, id, h);
                } else {
                    ch.read(b, pos, id, h);
                }
            } else {
                try {
                    int n = (write ? ch.write(b, pos) : ch.read(b, pos)).get(60, TimeUnit.SECONDS);
                    b.flip();
                    h.completed(n, id);
                } catch (Exception e) {
                    h.failed(e, id);
                }
            }
        }
    }
}
