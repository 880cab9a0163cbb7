package io.jring.tool.bench;

import io.jring.Cqe;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.tool.report.Latency;
import org.HdrHistogram.Histogram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * One measurement of {@code jring bench diowrite}: O_DIRECT | O_DSYNC 4k random writes at a
 * fixed queue depth on one ring, with or without caller completion (seed 002). Every
 * completed write is resubmitted at once at a new random block; after the warm-up, completions
 * are counted and their latencies (submit to CQE) recorded.
 */
final class DiowriteTrial {
    static final int BLOCK = 4096;

    /** IOPS and the latency histogram (ns) of the measured window. */
    record Result(double iops, Histogram latency) {}

    private final Path file;
    private final long blocks;
    private final int depth;
    private final boolean callerCompletion;
    private final int setupFlags;

    DiowriteTrial(Path file, long blocks, int depth, boolean callerCompletion, int setupFlags) {
        this.file = file;
        this.blocks = blocks;
        this.depth = depth;
        this.callerCompletion = callerCompletion;
        this.setupFlags = setupFlags;
    }

    Result run(long warmupNanos, long measureNanos, long seed) {
        int fd = Fds.open(file, OpenFlags.WRONLY | OpenFlags.DIRECT | OpenFlags.DSYNC, 0);
        try (Arena arena = Arena.ofConfined();
             IoUring ring = IoUring.builder().entries(Math.max(8, depth)).flags(setupFlags)
                     .callerCompletion(callerCompletion).build()) {
            SplittableRandom random = new SplittableRandom(seed);
            MemorySegment[] bufs = new MemorySegment[depth];
            long[] issued = new long[depth];
            for (int i = 0; i < depth; i++) {
                bufs[i] = arena.allocate(BLOCK, BLOCK);
                bufs[i].fill((byte) (i + 1));
                queue(ring, fd, bufs[i], i, random);
                issued[i] = System.nanoTime();
            }
            ring.submit();
            Histogram latency = Latency.newHistogram();
            long start = System.nanoTime() + warmupNanos;
            long end = start + measureNanos;
            long counted = 0;
            long now = System.nanoTime();
            int inFlight = depth;
            while (inFlight > 0) {
                Cqe c = ring.waitCqe();
                now = System.nanoTime();
                boolean refill = now < end;
                do {
                    int slot = (int) c.userData();
                    if (c.res() != BLOCK) {
                        throw new IoUringException(c.res() < 0 ? -c.res() : 5,
                                "diowrite: write of slot " + slot + " returned " + c.res());
                    }
                    if (issued[slot] >= start && now <= end) {
                        counted++;
                        latency.recordValue(now - issued[slot]);
                    }
                    ring.cqeSeen(c);
                    if (refill) {
                        queue(ring, fd, bufs[slot], slot, random);
                        issued[slot] = now;
                    } else {
                        inFlight--;
                    }
                } while ((c = ring.peekCqe()) != null);
                if (refill) {
                    ring.submit();
                }
            }
            double seconds = (Math.min(now, end) - start) / 1e9;
            return new Result(counted / seconds, latency);
        } finally {
            Fds.close(fd);
        }
    }

    private void queue(IoUring ring, int fd, MemorySegment buf, int slot, SplittableRandom random) {
        ring.getSqe().prepWrite(fd, buf, random.nextLong(blocks) * BLOCK).userData(slot);
    }
}
