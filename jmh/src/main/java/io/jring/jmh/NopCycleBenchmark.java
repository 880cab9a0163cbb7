package io.jring.jmh;

import io.jring.Cqe;
import io.jring.CqeHandler;
import io.jring.IoUring;
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

import java.util.concurrent.TimeUnit;

/**
 * The SQE -> submit -> CQE cycle of a NOP on a SINGLE_ISSUER ring, the engine's shortest
 * path (t/io_uring -N at the micro level). {@code single*}: one NOP per submit;
 * {@code batch32*}: 32 NOPs per submit, reported per NOP. Run with {@code -prof gc}: the
 * steady state should allocate nothing (target <= 1 B/op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class NopCycleBenchmark {

    static final int BATCH = 32;

    private IoUring ring;
    private CqeHandler sink;
    private int sum;

    @org.openjdk.jmh.annotations.Setup
    public void openRing() {
        ring = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER).build();
        sink = (userData, res, flags) -> sum += res;
    }

    @TearDown
    public void closeRing() {
        ring.close();
    }

    /** One NOP: prepare, submit, peek its CQE, mark it seen. */
    @Benchmark
    public int singlePeek() {
        ring.getSqe().prepNop().userData(1L);
        ring.submit();
        Cqe c = ring.peekCqe();
        int res = c.res();
        ring.cqeSeen(c);
        return res;
    }

    /** One NOP, reaped with forEachCqe. */
    @Benchmark
    public int singleForEach() {
        ring.getSqe().prepNop().userData(1L);
        ring.submit();
        ring.forEachCqe(sink);
        return sum;
    }

    /** 32 NOPs per submit, reaped with forEachCqe. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batch32ForEach() {
        IoUring r = ring;
        for (int i = 0; i < BATCH; i++) {
            r.getSqe().prepNop();
        }
        r.submit();
        int got = 0;
        while (got < BATCH) {
            got += r.forEachCqe(sink);
        }
        return sum;
    }

    /** 32 NOPs per submit, reaped one by one with peekCqe + cqeSeen. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batch32Peek() {
        IoUring r = ring;
        for (int i = 0; i < BATCH; i++) {
            r.getSqe().prepNop();
        }
        r.submit();
        int s = 0;
        for (int got = 0; got < BATCH; got++) {
            Cqe c = r.peekCqe();
            s += c.res();
            r.cqeSeen(c);
        }
        return s;
    }
}
