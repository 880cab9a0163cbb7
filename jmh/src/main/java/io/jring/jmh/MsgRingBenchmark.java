package io.jring.jmh;

import io.jring.CqeHandler;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.SqeFlags;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * MSG_RING between two threads that each own a ring (remote task work both ways): the
 * benchmark thread sends a batch of 32 messages to an echo thread's ring and waits for the
 * 32 answers, reported per message. Run with {@code -prof gc}: GCProfiler counts every
 * thread's allocation (getTotalThreadAllocatedBytes), the echo thread's too, and the steady
 * state should allocate nothing (the carriers come back to their senders' caches).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class MsgRingBenchmark {

    static final int BATCH = 32;
    private static final Duration POLL = Duration.ofMillis(10);

    /** Both rings SINGLE_ISSUER; with DEFER_TASKRUN or not. */
    @Param({"true", "false"})
    public boolean defer;

    private IoUring ring;
    private CqeHandler count;
    private int got;

    private Thread echo;
    private volatile IoUring peer;
    private volatile boolean stop;

    @org.openjdk.jmh.annotations.Setup
    public void start() throws InterruptedException {
        int flags = Setup.SINGLE_ISSUER | (defer ? Setup.DEFER_TASKRUN : 0);
        ring = IoUring.builder().entries(64).flags(flags).build();
        count = (userData, res, f) -> got++;
        CountDownLatch ready = new CountDownLatch(1);
        IoUring back = ring;
        echo = Thread.ofPlatform().name("msgring-echo").start(() -> {
            try (IoUring p = IoUring.builder().entries(64).flags(flags).build()) {
                p.submit();   // owns it from here on
                CqeHandler answer = (userData, res, f) ->
                        p.getSqe().prepMsgRing(back, 0, userData, 0).flags(SqeFlags.CQE_SKIP_SUCCESS);
                peer = p;
                ready.countDown();
                while (!stop) {
                    if (p.waitCqe(POLL) != null) {
                        p.forEachCqe(answer);
                        p.submit();
                    }
                }
            }
        });
        if (!ready.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("echo thread did not start");
        }
    }

    @TearDown
    public void stop() throws InterruptedException {
        stop = true;
        echo.join(10_000);
        ring.close();
    }

    /** 32 messages there, 32 answers back; per message. */
    @Benchmark
    @OperationsPerInvocation(2 * BATCH)
    public int pingPong32() {
        IoUring r = ring;
        IoUring p = peer;
        for (int i = 0; i < BATCH; i++) {
            r.getSqe().prepMsgRing(p, 0, i, 0).flags(SqeFlags.CQE_SKIP_SUCCESS);
        }
        r.submit();
        got = 0;
        while (got < BATCH) {
            r.waitCqe();
            r.forEachCqe(count);
        }
        return got;
    }
}
