package io.jring.nio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Socket channels and their groups: the provider found on the class path, the default group, executor groups, shutdown. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SocketGroupsTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void jringIsTheProviderOnTheClassPathAndItsDefaultGroupServesChannelsWithoutAGroup() throws Exception {
        assertInstanceOf(JringAsynchronousChannelProvider.class, AsynchronousChannelProvider.provider());
        try (var server = AsynchronousServerSocketChannel.open().bind(LOOPBACK);
             var client = AsynchronousSocketChannel.open()) {
            assertInstanceOf(JringAsynchronousServerSocketChannel.class, server);
            assertInstanceOf(JringAsynchronousSocketChannel.class, client);
            var accepted = server.accept();
            client.connect(server.getLocalAddress()).get(30, TimeUnit.SECONDS);
            try (var s = accepted.get(30, TimeUnit.SECONDS)) {
                assertEquals(3, client.write(ByteBuffer.wrap(new byte[] {1, 2, 3})).get(30, TimeUnit.SECONDS));
                assertEquals(3, s.read(ByteBuffer.allocate(8)).get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void anExecutorGroupRunsHandlersOnItsExecutor() throws Exception {
        AtomicInteger made = new AtomicInteger();
        ExecutorService pool = Executors.newCachedThreadPool(r -> new Thread(r, "handler-pool-" + made.incrementAndGet()));
        AsynchronousChannelGroup group = AsynchronousChannelGroup.withThreadPool(pool);
        assertInstanceOf(JringAsynchronousChannelGroup.class, group);
        try (var server = AsynchronousServerSocketChannel.open(group).bind(LOOPBACK);
             var client = AsynchronousSocketChannel.open(group)) {
            CompletableFuture<String> where = new CompletableFuture<>();
            server.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                @Override
                public void completed(AsynchronousSocketChannel ch, Void v) {
                    where.complete(Thread.currentThread().getName());
                    try {
                        ch.close();
                    } catch (java.io.IOException e) {
                        where.completeExceptionally(e);
                    }
                }

                @Override
                public void failed(Throwable exc, Void v) {
                    where.completeExceptionally(exc);
                }
            });
            client.connect(server.getLocalAddress()).get(30, TimeUnit.SECONDS);
            assertTrue(where.get(30, TimeUnit.SECONDS).startsWith("handler-pool-"), where.get());
        }
        group.shutdown();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
        assertTrue(pool.isShutdown(), "a terminated group shuts its executor down");
    }

    @Test
    void aShutDownGroupRefusesNewChannelsAndTerminatesWhenItsLastChannelCloses() throws Exception {
        var group = JringAsynchronousChannelGroup.open(1);
        var server = AsynchronousServerSocketChannel.open(group).bind(LOOPBACK);
        group.shutdown();
        assertTrue(group.isShutdown());
        assertThrows(ShutdownChannelGroupException.class, () -> AsynchronousSocketChannel.open(group));
        assertFalse(group.awaitTermination(100, TimeUnit.MILLISECONDS), "a channel is still open");
        server.close();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
        assertTrue(group.isTerminated());
    }

    @Test
    void shutdownNowClosesOpenChannelsAndFailsTheirPendingOperations() throws Exception {
        // The client's peer lives in another group: closing it would end the pending read with
        // end of stream (-1), not with the close this test is about.
        var other = JringAsynchronousChannelGroup.open(1);
        var group = JringAsynchronousChannelGroup.open(2);
        try (var remoteServer = AsynchronousServerSocketChannel.open(other).bind(LOOPBACK)) {
            var server = AsynchronousServerSocketChannel.open(group).bind(LOOPBACK);
            var client = AsynchronousSocketChannel.open(group);
            var accepted = remoteServer.accept();
            client.connect(remoteServer.getLocalAddress()).get(30, TimeUnit.SECONDS);
            try (var peer = accepted.get(30, TimeUnit.SECONDS)) {
                var read = client.read(ByteBuffer.allocate(8));
                var nextAccept = server.accept();
                group.shutdownNow();
                assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
                for (var f : new java.util.concurrent.Future<?>[] {read, nextAccept}) {
                    var e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
                    assertInstanceOf(AsynchronousCloseException.class, e.getCause());
                }
                assertFalse(client.isOpen());
                assertFalse(server.isOpen());
                assertTrue(peer.isOpen(), "a channel of another group stays open");
            }
        }
        other.shutdownNow();
        assertTrue(other.awaitTermination(60, TimeUnit.SECONDS));
    }
}
