package io.jring.tool.bench;

import io.jring.nio.JringFileChannel;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One trial of {@code jring bench vt}: {@code threads} virtual threads each reading 4 KiB
 * blocks at random offsets of one file through one channel (jring's or the JDK's) for a
 * time; the reads per second, and the most platform threads alive during the trial (every
 * platform thread of the JVM: carriers, jring's, the JVM's own), sampled every 10 ms.
 */
final class VtReadTrial {
    static final int BLOCK = 4096;

    /** How the file is read: O_DIRECT, buffered after dropping the page cache, buffered from the page cache. */
    enum Mode { direct, cold, cached }

    record Result(double readsPerSecond, int peakPlatformThreads) {}

    private static final MethodHandle POSIX_FADVISE = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("posix_fadvise").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final int POSIX_FADV_DONTNEED = 4;

    private VtReadTrial() {}

    static Result run(Path file, long blocks, Mode mode, boolean jring, int threads, long warmupNanos, long nanos,
            long seed) throws IOException, InterruptedException {
        if (mode == Mode.cold) {
            dropCache(file);
        }
        OpenOption[] opts = mode == Mode.direct
                ? new OpenOption[] {StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT}
                : new OpenOption[] {StandardOpenOption.READ};
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (FileChannel ch = jring ? JringFileChannel.open(file, opts) : FileChannel.open(file, opts)) {
            LongAdder reads = new LongAdder();
            AtomicLong failure = new AtomicLong();
            long start = System.nanoTime();
            long measureFrom = start + warmupNanos;
            long end = measureFrom + nanos;
            Thread[] ts = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                long s = seed * 1_000_003L + i;
                ts[i] = Thread.ofVirtual().start(() -> readLoop(ch, blocks, s, measureFrom, end, reads, failure));
            }
            int peak = 0;
            while (System.nanoTime() - end < 0) {
                peak = Math.max(peak, mx.getThreadCount());
                Thread.sleep(10);
            }
            for (Thread t : ts) {
                t.join();
            }
            if (failure.get() != 0) {
                throw new IOException("a read failed: " + failure.get());
            }
            return new Result(reads.sum() * 1e9 / nanos, peak);
        }
    }

    private static void readLoop(FileChannel ch, long blocks, long seed, long from, long end, LongAdder reads,
            AtomicLong failure) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ByteBuffer buf = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK);
        try {
            for (long now = System.nanoTime(); end - now > 0; now = System.nanoTime()) {
                buf.clear().limit(BLOCK);
                int n = ch.read(buf, rnd.nextLong(blocks) * BLOCK);
                if (n != BLOCK) {
                    failure.set(n);
                    return;
                }
                if (now - from >= 0) {
                    reads.increment();
                }
            }
        } catch (IOException e) {
            failure.set(-1);
        }
    }

    /** posix_fadvise(POSIX_FADV_DONTNEED) over the whole file: its cached pages are dropped. */
    static void dropCache(Path file) throws IOException {
        int fd = io.jring.Fds.open(file, io.jring.OpenFlags.RDONLY, 0);
        try {
            int r = (int) POSIX_FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED);
            if (r != 0) {
                throw new IOException("posix_fadvise failed: " + r);
            }
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(t);
        } finally {
            io.jring.Fds.close(fd);
        }
    }
}
