package io.jring.tool.echo;

import io.jring.nio.JringAsynchronousChannelProvider;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The echo server written once against NIO.2 and run on the JDK's provider
 * ({@code nio2-jdk}: epoll and a thread pool) or on jring's ({@code nio2-jring}: rings),
 * nothing else swapped (issue 21). A group of {@code --threads} threads; an accept is
 * always pending on the listener; each connection has one direct buffer and one operation
 * in flight: a read, then writes until the buffer is written out, then the next read. The
 * handlers run on the group's threads, which start the next operation themselves.
 *
 * <p>Both providers are named explicitly, since with jring's jar on the class path
 * {@link AsynchronousChannelProvider#provider()} is jring's. The JDK's is
 * {@code sun.nio.ch.DefaultAsynchronousChannelProvider}, reachable with
 * {@value #JDK_PROVIDER_FLAG} (the server's child JVM gets it from {@link ServerProcess},
 * the tool's jar from its manifest).
 */
final class Nio2EchoServer implements EchoServer {

    /** Bytes per connection's buffer; a longer message is echoed in several read/write steps. */
    static final int BUFFER_SIZE = 64 * 1024;
    /** How long close() waits for the group's threads to end. */
    static final long STOP_TIMEOUT_SECONDS = 5;
    static final String JDK_PROVIDER_FLAG = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";

    private final AsynchronousChannelGroup group;
    private final AsynchronousServerSocketChannel listener;
    private final InetSocketAddress address;
    /** Every thread the group's factory made, so close() can wait until each has ended. */
    private final List<Thread> threads;
    /** Open connections; added by the accept handler, removed when a connection closes. */
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Written once before {@link #stopped} counts down, read after it. */
    private volatile Throwable stopReason;
    /** Set by close() from any thread; handlers read it to stop accepting. */
    private volatile boolean stopping;
    private final CompletionHandler<AsynchronousSocketChannel, Void> onAccept = new Accepted();

    private Nio2EchoServer(AsynchronousChannelGroup group, AsynchronousServerSocketChannel listener,
                           List<Thread> threads) throws IOException {
        this.group = group;
        this.listener = listener;
        this.address = (InetSocketAddress) listener.getLocalAddress();
        this.threads = threads;
    }

    static Nio2EchoServer start(EchoServerConfig config) throws IOException {
        AsynchronousChannelProvider provider = provider(config.impl());
        List<Thread> threads = new CopyOnWriteArrayList<>();
        AsynchronousChannelGroup group = provider.openAsynchronousChannelGroup(config.threads(),
                threadFactory(config.impl(), threads));
        Nio2EchoServer server;
        try {
            AsynchronousServerSocketChannel listener = provider.openAsynchronousServerSocketChannel(group);
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(InetAddress.getByName(config.host()), config.port()),
                    NettyEchoServer.BACKLOG);
            server = new Nio2EchoServer(group, listener, threads);
        } catch (IOException | RuntimeException e) {
            group.shutdownNow();
            throw e;
        }
        server.accept();
        return server;
    }

    /** The provider {@code impl} runs on: jring's, or the JDK's own. */
    static AsynchronousChannelProvider provider(EchoImpl impl) {
        return switch (impl) {
            case NIO2_JRING -> JringAsynchronousChannelProvider.instance();
            case NIO2_JDK -> jdkProvider();
            default -> throw new IllegalArgumentException(impl + " is not an NIO.2 server");
        };
    }

    private static AsynchronousChannelProvider jdkProvider() {
        try {
            return (AsynchronousChannelProvider) Class.forName("sun.nio.ch.DefaultAsynchronousChannelProvider")
                    .getMethod("create").invoke(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the JDK's AsynchronousChannelProvider is not accessible; run the JVM with "
                    + JDK_PROVIDER_FLAG, e);
        } catch (ClassNotFoundException | NoSuchMethodException | InvocationTargetException e) {
            throw new IllegalStateException("this JDK has no sun.nio.ch.DefaultAsynchronousChannelProvider.create(): "
                    + e, e);
        }
    }

    private static ThreadFactory threadFactory(EchoImpl impl, List<Thread> made) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "jring-echo-" + impl.label() + "-" + n.incrementAndGet());
            made.add(t);
            return t;
        };
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public Throwable awaitStopped() throws InterruptedException {
        stopped.await();
        return stopReason;
    }

    /** The threads the group has made so far (all of them have ended once close() returns). */
    List<Thread> threads() {
        return List.copyOf(threads);
    }

    /**
     * Closes the listener and every connection (their pending operations fail with
     * AsynchronousCloseException, which the handlers take as the end), then shuts the group
     * down and waits for its threads.
     */
    @Override
    public void close() {
        stop(null);
        try {
            group.shutdownNow();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_SECONDS);
            if (group.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                for (Thread t : threads) {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                }
            }
        } catch (IOException e) {
            // shutdownNow closes channels, which are closed already; nothing is left to release.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops serving, once: {@code reason} null for close(), else the failure that ends the server. */
    private void stop(Throwable reason) {
        synchronized (this) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        closeQuietly(listener);
        for (Connection c : connections) {
            c.close();
        }
        stopReason = reason;
        stopped.countDown();
    }

    private void accept() {
        try {
            listener.accept(null, onAccept);
        } catch (RuntimeException e) {
            // The listener was closed (or the group shut down) under us.
            stop(stopping ? null : e);
        }
    }

    /** Starts each accepted connection and puts the next accept in flight. */
    private final class Accepted implements CompletionHandler<AsynchronousSocketChannel, Void> {
        @Override
        public void completed(AsynchronousSocketChannel channel, Void unused) {
            accept();
            Connection c = new Connection(channel);
            connections.add(c);
            // close() may have run between the accept and the add: it did not see this one.
            if (stopping) {
                c.close();
                return;
            }
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                c.close();
                return;
            }
            c.read();
        }

        @Override
        public void failed(Throwable failure, Void unused) {
            // Closing the listener fails its pending accept: the end, not a failure.
            stop(stopping || !listener.isOpen() ? null : failure);
        }
    }

    /**
     * One connection's echo loop. Only one operation is in flight at a time, and the
     * provider orders a completion handler after the operation that started it, so the
     * buffer needs no other guard.
     */
    private final class Connection {
        private final AsynchronousSocketChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);

        private final CompletionHandler<Integer, Void> afterRead = new CompletionHandler<>() {
            @Override
            public void completed(Integer n, Void unused) {
                if (n < 0) {
                    close();   // the client's end of stream
                    return;
                }
                buffer.flip();
                write();
            }

            @Override
            public void failed(Throwable failure, Void unused) {
                close();
            }
        };

        private final CompletionHandler<Integer, Void> afterWrite = new CompletionHandler<>() {
            @Override
            public void completed(Integer n, Void unused) {
                if (buffer.hasRemaining()) {
                    write();
                } else {
                    read();
                }
            }

            @Override
            public void failed(Throwable failure, Void unused) {
                close();
            }
        };

        Connection(AsynchronousSocketChannel channel) {
            this.channel = channel;
        }

        void read() {
            buffer.clear();
            try {
                channel.read(buffer, null, afterRead);
            } catch (RuntimeException e) {
                close();   // closed by close() or a shut-down group meanwhile
            }
        }

        private void write() {
            try {
                channel.write(buffer, null, afterWrite);
            } catch (RuntimeException e) {
                close();
            }
        }

        void close() {
            connections.remove(this);
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // A close that fails leaves nothing to do: the channel is unusable either way.
        }
    }
}
