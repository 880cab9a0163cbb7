package io.jring.tool.echo;

import io.jring.tool.report.Latency;
import io.jring.tool.report.ThreadCpu;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The load of {@code jring bench echo}: connections to an echo server, each keeping exactly
 * one request of {@code size} bytes in flight (send, read the whole echo back and check it,
 * record the round trip, send again). All connections run on ONE event loop of Netty's
 * epoll transport, so on a 2-core machine the client takes one core and the server the
 * other. Requests are pooled direct buffers reused for every round trip: a round trip
 * allocates nothing.
 */
final class EchoLoad implements AutoCloseable {

    /** Connects in flight at once, so the server's listen backlog (128 and up) never overflows. */
    static final int CONNECT_BATCH = 64;
    static final int CONNECT_ATTEMPTS = 5;
    static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    static final long TASK_TIMEOUT_SECONDS = 10;

    private static final VarHandle TRANSACTIONS;

    static {
        try {
            TRANSACTIONS = MethodHandles.lookup().findVarHandle(EchoLoad.class, "transactions", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final EventLoopGroup group;
    private final EventLoop loop;
    private final int size;
    /** Filled while connecting, on the caller's thread; the event loop reads it after (its tasks are submitted later). */
    private final List<RoundTrip> connections = new ArrayList<>();

    // Event-loop thread only, except transactions (below): plain fields.
    private final Histogram latency = Latency.newHistogram();
    private long errors;
    private String firstError;
    /** Set when the bench ends: connections closing from then on are not errors. */
    private boolean closing;

    /**
     * Round trips completed. Written by the event loop with setOpaque (a plain store on x86:
     * the hot path pays nothing), read with getOpaque by the live status, which only needs
     * a recent value.
     */
    @SuppressWarnings("unused")
    private long transactions;

    /**
     * What the load had done at one instant, and the latencies recorded since the previous
     * mark; {@code loopCpuNanos} is the event-loop thread's CPU time so far (-1 if unknown).
     */
    record Mark(long transactions, long nanos, Histogram latencySincePrevious, long errors, String firstError,
                long loopCpuNanos) {}

    /**
     * Pause between an echo and the next request of a connection, in ns (0 = none): models
     * clients that are mostly idle, the regime where a worker blocked on one connection
     * holds up the others (seed 003). Set before the first send; event loop reads it.
     */
    private volatile long thinkNanos;
    /** Think times drawn from an exponential distribution with mean {@link #thinkNanos}, else fixed. */
    private volatile boolean exponentialThink;
    /** Draws think times; event loop only. Fixed seed: runs draw the same sequence. */
    private final SplittableRandom thinkRandom = new SplittableRandom(0x5eed_003L);

    /**
     * Each connection waits {@code nanos} after an echo before it sends again: exactly that
     * long, or (exponential) a time drawn independently per request with that mean, as
     * independent users arrive (a Poisson process per connection).
     */
    void thinkTime(long nanos, boolean exponential) {
        this.thinkNanos = Math.max(0, nanos);
        this.exponentialThink = exponential;
    }

    /** The next pause of a connection, in ns; event loop only. */
    private long nextThinkNanos() {
        return thinkNanos(thinkNanos, exponentialThink, thinkRandom);
    }

    /** One pause: {@code mean} itself, or drawn from the exponential distribution with that mean (inverse CDF). */
    static long thinkNanos(long mean, boolean exponential, SplittableRandom random) {
        if (mean == 0 || !exponential) {
            return mean;
        }
        return (long) (-mean * Math.log(1.0 - random.nextDouble()));
    }

    private EchoLoad(int size) {
        this.size = size;
        this.group = new MultiThreadIoEventLoopGroup(1, NettyTransport.EPOLL.ioHandlerFactory());
        this.loop = group.next();
    }

    /** Opens {@code count} connections to {@code server}, a batch at a time, retrying refused ones. */
    static EchoLoad connect(InetSocketAddress server, int count, int size) throws IOException, InterruptedException {
        NettyTransport.EPOLL.ensureAvailable();
        EchoLoad load = new EchoLoad(size);
        try {
            load.connectAll(server, count);
            return load;
        } catch (IOException | InterruptedException | RuntimeException e) {
            load.close();
            throw e;
        }
    }

    private void connectAll(InetSocketAddress server, int count) throws IOException, InterruptedException {
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(NettyTransport.EPOLL.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS);
        for (int first = 0; first < count; first += CONNECT_BATCH) {
            connectBatch(bootstrap, server, Math.min(CONNECT_BATCH, count - first));
        }
    }

    /** Opens {@code n} connections at once; refused or timed-out ones are tried again, a little later. */
    private void connectBatch(Bootstrap bootstrap, InetSocketAddress server, int n)
            throws IOException, InterruptedException {
        int missing = n;
        for (int attempt = 1; ; attempt++) {
            List<RoundTrip> tries = new ArrayList<>(missing);
            List<ChannelFuture> futures = new ArrayList<>(missing);
            for (int i = 0; i < missing; i++) {
                RoundTrip rt = new RoundTrip(this);
                tries.add(rt);
                futures.add(bootstrap.clone().handler(rt).connect(server));
            }
            missing = 0;
            Throwable cause = null;
            for (int i = 0; i < futures.size(); i++) {
                ChannelFuture f = futures.get(i).await();
                if (f.isSuccess()) {
                    connections.add(tries.get(i));
                } else {
                    missing++;
                    cause = f.cause();
                }
            }
            if (missing == 0) {
                return;
            }
            if (attempt == CONNECT_ATTEMPTS) {
                throw new IOException("cannot connect to " + server + " (" + missing + " of a batch of " + n
                        + " failed " + attempt + " times): " + cause, cause);
            }
            TimeUnit.MILLISECONDS.sleep(50L * attempt);
        }
    }

    /** Every connection sends its first request. */
    void start() throws InterruptedException {
        onLoop(() -> {
            for (RoundTrip rt : connections) {
                rt.send();
            }
            return null;
        });
    }

    /** Samples the counters on the event loop and restarts the latency histogram there. */
    Mark mark() throws InterruptedException {
        return onLoop(() -> {
            Histogram since = latency.copy();
            latency.reset();
            return new Mark((long) TRANSACTIONS.getOpaque(this), System.nanoTime(), since, errors, firstError,
                    ThreadCpu.ofCurrentThread());
        });
    }

    /** Round trips so far, for the live status line (any thread). */
    long transactions() {
        return (long) TRANSACTIONS.getOpaque(this);
    }

    /**
     * Closes the connections and frees their requests while the event loop still runs its
     * tasks (a channel closed by the loop's own shutdown may never run its pipeline's
     * teardown), then stops the loop.
     */
    @Override
    public void close() throws InterruptedException {
        if (!loop.isShuttingDown()) {
            try {
                onLoop(() -> {
                    closing = true;
                    for (RoundTrip rt : connections) {
                        rt.close();
                    }
                    return null;
                });
            } catch (RuntimeException e) {
                // The loop is gone already; its shutdown below is all that is left.
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(TASK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private <T> T onLoop(Callable<T> task) throws InterruptedException {
        try {
            return loop.submit(task).get(TASK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("task on the client's event loop failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the client's event loop did not run a task within "
                    + TASK_TIMEOUT_SECONDS + " s", e);
        }
    }

    // Called by the connections, on the event loop.

    private void recordRoundTrip(long nanos) {
        latency.recordValue(Math.min(nanos, latency.getHighestTrackableValue()));
        TRANSACTIONS.setOpaque(this, (long) TRANSACTIONS.getOpaque(this) + 1);
    }

    private void recordError(String what) {
        if (closing) {
            return;
        }
        errors++;
        if (firstError == null) {
            firstError = what;
        }
    }

    /** One connection's request/response cycle; its handler, on the event loop. */
    private static final class RoundTrip extends ChannelInboundHandlerAdapter {
        private final EchoLoad load;
        private ChannelHandlerContext ctx;
        private ByteBuf request;
        private int received;
        private long sentAt;
        private long stamp;

        RoundTrip(EchoLoad load) {
            this.load = load;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            request = ctx.alloc().directBuffer(load.size, load.size);
            for (int i = 0; i < load.size; i++) {
                request.writeByte(i * 31 + 7);
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            releaseRequest();
        }

        /** A write still in flight holds its own reference to the request: dropping ours is safe. */
        void close() {
            ctx.close();
            releaseRequest();
        }

        private void releaseRequest() {
            if (request != null) {
                request.release();
                request = null;
            }
        }

        /**
         * Stamps the request with its round-trip number (so a stale echo cannot pass the
         * check) and sends it. The buffer is reused: its previous write is complete, since
         * the whole echo of it has arrived.
         */
        void send() {
            stamp++;
            if (load.size >= Long.BYTES) {
                request.setLong(0, stamp);
            } else {
                request.setByte(0, (int) stamp);
            }
            request.readerIndex(0);
            received = 0;
            sentAt = System.nanoTime();
            ctx.writeAndFlush(request.retain(), ctx.voidPromise());
        }

        private void sendIfOpen() {
            if (request != null) {
                send();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                if (request == null) {
                    return; // closed by the bench: late bytes are not a round trip
                }
                int n = in.readableBytes();
                if (received + n > load.size || !ByteBufUtil.equals(in, in.readerIndex(), request, received, n)) {
                    load.recordError("the echo differs from the request on " + ctx.channel());
                    ctx.close();
                    return;
                }
                received += n;
                if (received == load.size) {
                    load.recordRoundTrip(System.nanoTime() - sentAt);
                    long think = load.nextThinkNanos();
                    if (think > 0) {
                        ctx.executor().schedule(this::sendIfOpen, think, TimeUnit.NANOSECONDS);
                    } else {
                        send();
                    }
                }
            } finally {
                in.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            load.recordError("the server closed " + ctx.channel());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            load.recordError(cause.toString());
            ctx.close();
        }
    }
}
