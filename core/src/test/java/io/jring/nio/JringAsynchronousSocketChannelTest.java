package io.jring.nio;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JringAsynchronousSocketChannel and its server channel: connect, accept, reads and writes, handlers' threads, addresses. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JringAsynchronousSocketChannelTest {
    private static JringAsynchronousChannelGroup group;

    @BeforeAll
    static void openGroup() {
        group = JringAsynchronousChannelGroup.open(2);
    }

    @AfterAll
    static void closeGroup() throws Exception {
        group.shutdownNow();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
    }

    /** A connected pair: [0] the client, [1] the accepted side. */
    static AsynchronousSocketChannel[] pair(AsynchronousChannelGroup group, AsynchronousServerSocketChannel server)
            throws Exception {
        var client = AsynchronousSocketChannel.open(group);
        var accepted = server.accept();
        client.connect(server.getLocalAddress()).get(30, TimeUnit.SECONDS);
        return new AsynchronousSocketChannel[] {client, accepted.get(30, TimeUnit.SECONDS)};
    }

    static AsynchronousServerSocketChannel listener(AsynchronousChannelGroup group) throws Exception {
        return AsynchronousServerSocketChannel.open(group).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void openThroughTheGroupGivesJringChannels() throws Exception {
        try (var server = AsynchronousServerSocketChannel.open(group); var client = AsynchronousSocketChannel.open(group)) {
            assertInstanceOf(JringAsynchronousServerSocketChannel.class, server);
            assertInstanceOf(JringAsynchronousSocketChannel.class, client);
            assertSame(group.provider(), client.provider());
            assertNull(client.getLocalAddress());
            assertNull(client.getRemoteAddress());
            assertNull(server.getLocalAddress());
        }
    }

    @Test
    void futureFormsEchoHeapAndDirectBuffers() throws Exception {
        try (var server = listener(group)) {
            var p = pair(group, server);
            try (var c = p[0]; var s = p[1]) {
                ByteBuffer out = ByteBuffer.wrap(ascii("xxhello")).position(2);
                assertEquals(5, c.write(out).get(30, TimeUnit.SECONDS));
                assertEquals(7, out.position());
                ByteBuffer in = ByteBuffer.allocateDirect(64).position(1);
                int n = 0;
                while (n < 5) {
                    n += s.read(in).get(30, TimeUnit.SECONDS);
                }
                assertEquals(6, in.position());
                byte[] got = new byte[5];
                in.get(1, got);
                assertArrayEquals(ascii("hello"), got);
                assertEquals(c.getLocalAddress(), s.getRemoteAddress());
                assertEquals(c.getRemoteAddress(), s.getLocalAddress());
                assertEquals(server.getLocalAddress(), c.getRemoteAddress());
            }
        }
    }

    @Test
    void handlersRunOnTheGroupsThreadsWithTheirAttachment() throws Exception {
        try (var server = listener(group)) {
            CompletableFuture<String> where = new CompletableFuture<>();
            server.accept("att", new CompletionHandler<>() {
                @Override
                public void completed(AsynchronousSocketChannel ch, String att) {
                    where.complete(Thread.currentThread().getName() + " " + att);
                    try {
                        ch.close();
                    } catch (Exception e) {
                        where.completeExceptionally(e);
                    }
                }

                @Override
                public void failed(Throwable exc, String att) {
                    where.completeExceptionally(exc);
                }
            });
            try (var c = AsynchronousSocketChannel.open(group)) {
                c.connect(server.getLocalAddress()).get(30, TimeUnit.SECONDS);
                String w = where.get(30, TimeUnit.SECONDS);
                assertTrue(w.startsWith("jring-nio-") && w.endsWith(" att"), w);
                // the accepted side closed: a read of the client ends with -1
                assertEquals(-1, c.read(ByteBuffer.allocate(8)).get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void connectRefusedFailsWithConnectExceptionAndClosesTheChannel() throws Exception {
        InetSocketAddress dead;
        try (var s = listener(group)) {
            dead = (InetSocketAddress) s.getLocalAddress();
        }
        var c = AsynchronousSocketChannel.open(group);
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> c.connect(dead).get(30, TimeUnit.SECONDS));
        assertInstanceOf(ConnectException.class, e.getCause());
        assertFalse(c.isOpen());
    }

    @Test
    void bindToTheWildcardThenIpv4AndIpv6Loopback() throws Exception {
        try (var server = AsynchronousServerSocketChannel.open(group).bind(null)) {
            var local = (InetSocketAddress) server.getLocalAddress();
            assertTrue(local.getAddress().isAnyLocalAddress(), local.toString());
            int port = local.getPort();
            for (InetAddress to : new InetAddress[] {InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1")}) {
                try (var c = AsynchronousSocketChannel.open(group)) {
                    var accepted = server.accept();
                    c.connect(new InetSocketAddress(to, port)).get(30, TimeUnit.SECONDS);
                    try (var s = accepted.get(30, TimeUnit.SECONDS)) {
                        var remote = (InetSocketAddress) c.getRemoteAddress();
                        assertEquals(to, remote.getAddress());
                        var peer = (InetSocketAddress) s.getRemoteAddress();
                        assertEquals(to instanceof Inet4Address, peer.getAddress() instanceof Inet4Address);
                        assertEquals(to instanceof Inet6Address, peer.getAddress() instanceof Inet6Address);
                    }
                }
            }
        }
    }

    @Test
    void largeAndSmallHeapTransfersArriveWholeAndInOrder() throws Exception {
        try (var server = listener(group)) {
            var p = pair(group, server);
            try (var c = p[0]; var s = p[1]) {
                byte[] data = new byte[300_000];
                new java.util.Random(7).nextBytes(data);
                var writer = CompletableFuture.runAsync(() -> {
                    try {
                        ByteBuffer out = ByteBuffer.wrap(data);
                        while (out.hasRemaining()) {   // partial writes: the rest goes in the next
                            c.write(out).get(30, TimeUnit.SECONDS);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                byte[] got = new byte[data.length];
                int n = 0;
                int[] sizes = {17, 100_000, 4096, 70_000};   // heap buffers below and above the inline bound
                for (int i = 0; n < got.length; i++) {
                    ByteBuffer in = ByteBuffer.allocate(Math.min(sizes[i % sizes.length], got.length - n));
                    int r = s.read(in).get(30, TimeUnit.SECONDS);
                    assertEquals(r, in.position());
                    System.arraycopy(in.array(), 0, got, n, r);
                    n += r;
                }
                writer.get(30, TimeUnit.SECONDS);
                assertArrayEquals(data, got);
            }
        }
    }
}
