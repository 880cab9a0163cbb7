package io.jring.jmh;

import io.jring.CqeHandler;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Setup;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A 4k random read from a page-cached file through the ring (inline, RWF_NOWAIT), one per
 * submit and 32 per submit. Run with {@code -prof gc}: steady state should allocate nothing
 * per I/O (target <= 1 B/op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class ReadCycleBenchmark {
    static final int BLOCKS = 4096;      // 16 MiB file
    static final int BATCH = 32;

    private Path file;
    private int fd;
    private Arena arena;
    private MemorySegment[] bufs;
    private IoUring ring;
    private CqeHandler sink;
    private long sum;
    private long seed = 0x9E3779B97F4A7C15L;

    @org.openjdk.jmh.annotations.Setup
    public void setUp() throws IOException {
        file = Files.createTempFile("jring-jmh", ".dat");
        Files.write(file, new byte[BLOCKS * 4096]);
        Files.readAllBytes(file);                       // warm the page cache
        fd = Fds.open(file, OpenFlags.RDONLY, 0);
        arena = Arena.ofShared();
        bufs = new MemorySegment[BATCH];
        for (int i = 0; i < BATCH; i++) {
            bufs[i] = arena.allocate(4096, 4096);
        }
        ring = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER).build();
        sink = (userData, res, flags) -> sum += res;
    }

    @TearDown
    public void tearDown() throws IOException {
        ring.close();
        Fds.close(fd);
        arena.close();
        Files.deleteIfExists(file);
    }

    private long nextOffset() {
        seed ^= seed << 13;
        seed ^= seed >>> 7;
        seed ^= seed << 17;
        return (seed >>> 1) % BLOCKS * 4096;
    }

    /** QD1: one read, submit, reap. */
    @Benchmark
    public long single() {
        ring.getSqe().prepRead(fd, bufs[0], nextOffset());
        ring.submit();
        int got = 0;
        while (got == 0) {
            got = ring.forEachCqe(sink);
        }
        return sum;
    }

    /** 32 reads per submit, reported per read. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch32() {
        for (int i = 0; i < BATCH; i++) {
            ring.getSqe().prepRead(fd, bufs[i], nextOffset()).userData(i);
        }
        ring.submit();
        int got = 0;
        while (got < BATCH) {
            got += ring.forEachCqe(sink);
        }
        return sum;
    }
}
