package io.jring.jmh;

import io.jring.nio.JringAsynchronousChannelGroup;
import io.jring.nio.JringAsynchronousFileChannel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Time and allocation per operation of Java's NIO.2 asynchronous channels, in their Future
 * and their CompletionHandler forms, on the JDK's implementation ({@code provider=jdk}) and
 * on jring's ({@code provider=jring}). Run with {@code -prof gc}: {@code gc.alloc.rate.norm}
 * is the bytes allocated by all threads of the JVM per operation, the group's and the JDK's
 * pool threads included, so it counts everything the operation costs the heap.
 *
 * <p>The JDK's file channel is {@code AsynchronousFileChannel.open(path, READ)} (the platform
 * file system provider stays the default one: the jring jar on the class path does not change
 * it without {@code -Djava.nio.file.spi.DefaultFileSystemProvider}), which reads on its
 * default thread pool; jring's is {@link JringAsynchronousFileChannel} on a group of one ring.
 * The JDK's socket channels come from {@code sun.nio.ch.DefaultAsynchronousChannelProvider}
 * (epoll) with a group of one thread, jring's from {@link JringAsynchronousChannelGroup} with
 * one ring; client and server side of a connection are in the same group.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED"})
public class Nio2CycleBenchmark {
    static final int BLOCKS = 4096;      // 16 MiB file of 4 KiB blocks
    static final int CHAIN = 32;
    static final int ECHO = 12;

    /**
     * The benchmark thread's wait for a handler chain's last completion, reusable and free of
     * allocation: a volatile flag and park/unpark of the thread that waits.
     */
    abstract static class Chain {
        /** Written by the benchmark thread before the chain starts, read by the handler's thread. */
        private Thread waiter;
        /** Set by the handler's thread at the chain's end, read and reset by the benchmark thread. */
        private volatile boolean done;
        /** Set by a handler's {@code failed} before {@link #done}; read after it. */
        private volatile Throwable failure;
        /** Handler threads only, one at a time: each handler hands the chain to the next operation. */
        int left;

        final void begin(int n) {
            waiter = Thread.currentThread();
            left = n;
            done = false;
        }

        final void end() {
            done = true;
            LockSupport.unpark(waiter);
        }

        final void fail(Throwable t) {
            failure = t;
            end();
        }

        final void await() {
            while (!done) {
                LockSupport.park(this);
            }
            Throwable t = failure;
            if (t != null) {
                throw new IllegalStateException("handler chain failed", t);
            }
        }
    }

    /** A 16 MiB page-cached file open on the provider's AsynchronousFileChannel. */
    @State(Scope.Thread)
    public static class FileSide extends Chain implements CompletionHandler<Integer, Void> {
        @Param({"jdk", "jring"})
        public String provider;

        private Path file;
        private JringAsynchronousChannelGroup group;
        private AsynchronousFileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(4096);
        private long seed = 0x9E3779B97F4A7C15L;
        private long sum;

        @org.openjdk.jmh.annotations.Setup(Level.Trial)
        public void setUp() throws IOException {
            file = Files.createTempFile("jring-jmh-nio2", ".dat");
            Files.write(file, new byte[BLOCKS * 4096]);
            Files.readAllBytes(file);                       // warm the page cache
            if (provider.equals("jdk")) {
                ch = AsynchronousFileChannel.open(file, StandardOpenOption.READ);
            } else {
                group = JringAsynchronousChannelGroup.open(1);
                ch = JringAsynchronousFileChannel.open(file, Set.of(StandardOpenOption.READ), group);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException, InterruptedException {
            ch.close();
            if (group != null) {
                group.shutdownNow();
                group.awaitTermination(10, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(file);
        }

        /** A random 4 KiB-aligned offset; one thread at a time (the chain hands it on). */
        long nextOffset() {
            seed ^= seed << 13;
            seed ^= seed >>> 7;
            seed ^= seed << 17;
            return (seed >>> 1) % BLOCKS * 4096;
        }

        int readAndWait() throws InterruptedException, ExecutionException {
            buf.clear();
            int n = ch.read(buf, nextOffset()).get();
            sum += n;
            return n;
        }

        long chainAndWait() {
            begin(CHAIN);
            buf.clear();
            ch.read(buf, nextOffset(), null, this);
            await();
            return sum;
        }

        /** A read of the chain done: start the next one from here, or wake the benchmark thread. */
        @Override
        public void completed(Integer n, Void a) {
            sum += n;
            if (--left == 0) {
                end();
                return;
            }
            buf.clear();
            try {
                ch.read(buf, nextOffset(), null, this);
            } catch (RuntimeException e) {
                fail(e);
            }
        }

        @Override
        public void failed(Throwable t, Void a) {
            fail(t);
        }
    }

    /**
     * A loopback TCP connection between two channels of one group of the provider: the client
     * side and the server side.
     */
    @State(Scope.Thread)
    public static class SocketSide extends Chain {
        @Param({"jdk", "jring"})
        public String provider;

        private AsynchronousChannelGroup group;
        private AsynchronousServerSocketChannel listener;
        private AsynchronousSocketChannel client;
        private AsynchronousSocketChannel server;
        private final ByteBuffer request = ByteBuffer.allocateDirect(ECHO);
        private final ByteBuffer serverBuf = ByteBuffer.allocateDirect(ECHO);
        private final ByteBuffer reply = ByteBuffer.allocateDirect(ECHO);

        /** The four steps of a round trip in the handler form; each starts the next. */
        private final Step clientWrite = new Step() {
            @Override
            void next(Integer n) {
                if (request.hasRemaining()) {
                    client.write(request, null, this);
                } else {
                    serverBuf.clear();
                    server.read(serverBuf, null, serverRead);
                }
            }
        };
        private final Step serverRead = new Step() {
            @Override
            void next(Integer n) {
                if (n < 0) {
                    fail(new IOException("server side read end of stream"));
                } else if (serverBuf.hasRemaining()) {
                    server.read(serverBuf, null, this);
                } else {
                    serverBuf.flip();
                    server.write(serverBuf, null, serverWrite);
                }
            }
        };
        private final Step serverWrite = new Step() {
            @Override
            void next(Integer n) {
                if (serverBuf.hasRemaining()) {
                    server.write(serverBuf, null, this);
                } else {
                    reply.clear();
                    client.read(reply, null, clientRead);
                }
            }
        };
        private final Step clientRead = new Step() {
            @Override
            void next(Integer n) {
                if (n < 0) {
                    fail(new IOException("client side read end of stream"));
                } else if (reply.hasRemaining()) {
                    client.read(reply, null, this);
                } else if (--left == 0) {
                    end();
                } else {
                    request.clear();
                    client.write(request, null, clientWrite);
                }
            }
        };

        /** One step's handler: failures end the chain with the failure. */
        abstract class Step implements CompletionHandler<Integer, Void> {
            abstract void next(Integer n);

            @Override
            public final void completed(Integer n, Void a) {
                try {
                    next(n);
                } catch (RuntimeException e) {
                    fail(e);
                }
            }

            @Override
            public final void failed(Throwable t, Void a) {
                fail(t);
            }
        }

        @org.openjdk.jmh.annotations.Setup(Level.Trial)
        public void setUp() throws Exception {
            if (provider.equals("jdk")) {
                // Named explicitly: with jring's jar on the class path, provider() is jring's.
                AsynchronousChannelProvider jdk = (AsynchronousChannelProvider)
                        Class.forName("sun.nio.ch.DefaultAsynchronousChannelProvider")
                                .getMethod("create").invoke(null);
                group = jdk.openAsynchronousChannelGroup(1, Thread::new);
            } else {
                group = JringAsynchronousChannelGroup.open(1);
            }
            listener = AsynchronousServerSocketChannel.open(group)
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client = AsynchronousSocketChannel.open(group);
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Future<AsynchronousSocketChannel> accepted = listener.accept();
            client.connect(listener.getLocalAddress()).get(10, TimeUnit.SECONDS);
            server = accepted.get(10, TimeUnit.SECONDS);
            server.setOption(StandardSocketOptions.TCP_NODELAY, true);
            for (int i = 0; i < ECHO; i++) {
                request.put(i, (byte) i);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException, InterruptedException {
            client.close();
            server.close();
            listener.close();
            group.shutdownNow();
            if (!group.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(provider + " group did not terminate in 10 s");
            }
        }

        int roundTripAndWait() throws InterruptedException, ExecutionException {
            request.clear();
            while (request.hasRemaining()) {
                client.write(request).get();
            }
            serverBuf.clear();
            while (serverBuf.hasRemaining()) {
                if (server.read(serverBuf).get() < 0) {
                    throw new IllegalStateException("server side read end of stream");
                }
            }
            serverBuf.flip();
            while (serverBuf.hasRemaining()) {
                server.write(serverBuf).get();
            }
            reply.clear();
            while (reply.hasRemaining()) {
                if (client.read(reply).get() < 0) {
                    throw new IllegalStateException("client side read end of stream");
                }
            }
            return reply.get(ECHO - 1);
        }

        int chainAndWait() {
            begin(CHAIN);
            request.clear();
            client.write(request, null, clientWrite);
            await();
            return reply.get(ECHO - 1);
        }
    }

    /**
     * Future form, file: one 4 KiB positional read at a random aligned offset of the
     * page-cached file, {@code ch.read(buf, pos).get()} on the benchmark thread.
     */
    @Benchmark
    public int fileReadFuture(FileSide f) throws InterruptedException, ExecutionException {
        return f.readAndWait();
    }

    /**
     * Handler form, file: a chain of 32 such reads, each started by the previous read's
     * handler (on the provider's thread); the benchmark thread starts the first and parks
     * until the 32nd's handler wakes it. Reported per read.
     */
    @Benchmark
    @OperationsPerInvocation(CHAIN)
    public long fileReadHandler(FileSide f) {
        return f.chainAndWait();
    }

    /**
     * Future form, socket: one 12-byte echo round trip over loopback TCP, four operations
     * each waited for with {@code get()} on the benchmark thread: the client writes 12 bytes,
     * the server side reads them and writes them back, the client reads them.
     */
    @Benchmark
    public int echoFuture(SocketSide s) throws InterruptedException, ExecutionException {
        return s.roundTripAndWait();
    }

    /**
     * Handler form, socket: a chain of 32 such round trips, the same four operations in the
     * same order, each started by the previous one's handler on the group's thread; the
     * benchmark thread starts the first write and parks until the 32nd reply is read.
     * Reported per round trip.
     */
    @Benchmark
    @OperationsPerInvocation(CHAIN)
    public int echoHandler(SocketSide s) {
        return s.chainAndWait();
    }
}
