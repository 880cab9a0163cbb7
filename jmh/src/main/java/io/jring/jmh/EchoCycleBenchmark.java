package io.jring.jmh;

import io.jring.CqeHandler;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.SqeFlags;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * One echo round trip through the ring on a socket pair, the way the echo server does it:
 * the client sends 12 bytes, the server's recv (armed on EAGAIN, woken through the poller,
 * with a provided buffer) gets them, sends them back from that buffer and gives the buffer
 * back; the client's recv gets the echo. Run with {@code -prof gc}: the steady state should
 * allocate nothing per round trip.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class EchoCycleBenchmark {
    private static final int SIZE = 12;
    private static final int GROUP = 1;
    private static final int BUFS = 4;
    private static final int BUF_LEN = 2048;

    private static final long CLIENT_SEND = 1;
    private static final long CLIENT_RECV = 2;
    private static final long SERVER_RECV = 3;
    private static final long SERVER_SEND = 4;
    private static final long PROVIDE = 5;

    private int[] pair;
    private Arena arena;
    private MemorySegment request;
    private MemorySegment reply;
    private MemorySegment region;
    private final MemorySegment[] slices = new MemorySegment[BUFS];
    private IoUring ring;
    private CqeHandler handler;
    private int pendingBid;
    private boolean done;
    private long bytes;

    @org.openjdk.jmh.annotations.Setup
    public void setUp() {
        pair = Fds.socketPair();
        arena = Arena.ofShared();
        request = arena.allocate(SIZE);
        reply = arena.allocate(SIZE);
        region = arena.allocate((long) BUFS * BUF_LEN, 64);
        for (int i = 0; i < BUFS; i++) {
            slices[i] = region.asSlice((long) i * BUF_LEN, BUF_LEN);
        }
        ring = IoUring.builder().entries(16).flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN).build();
        ring.getSqe().prepProvideBuffers(region, BUF_LEN, BUFS, GROUP, 0).userData(PROVIDE);
        ring.submitAndWait(1);
        ring.forEachCqe((u, r, f) -> { });
        handler = this::onCqe;
    }

    @TearDown
    public void tearDown() {
        ring.close();
        Fds.close(pair[0]);
        Fds.close(pair[1]);
        arena.close();
    }

    private void onCqe(long userData, int res, int flags) {
        if (userData == SERVER_RECV) {
            pendingBid = flags >>> 16;
            bytes += res;
            ring.getSqe().prepSend(pair[0], slices[pendingBid], 0).len(res).userData(SERVER_SEND);
        } else if (userData == SERVER_SEND) {
            ring.getSqe().prepProvideBuffers(slices[pendingBid], BUF_LEN, 1, GROUP, pendingBid).userData(PROVIDE);
        } else if (userData == CLIENT_RECV) {
            done = true;
        }
    }

    @Benchmark
    public long roundTrip() {
        done = false;
        ring.getSqe().prepRecv(pair[0], null, 0).flags(SqeFlags.BUFFER_SELECT).bufferGroup(GROUP).userData(SERVER_RECV);
        ring.getSqe().prepSend(pair[1], request, 0).userData(CLIENT_SEND);
        ring.getSqe().prepRecv(pair[1], reply, 0).userData(CLIENT_RECV);
        while (!done) {
            ring.submitAndWait(1);
            ring.forEachCqe(handler);
        }
        return bytes;
    }
}
