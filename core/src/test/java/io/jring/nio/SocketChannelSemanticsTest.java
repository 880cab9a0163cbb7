package io.jring.nio;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AcceptPendingException;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.InterruptedByTimeoutException;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.ReadPendingException;
import java.nio.channels.WritePendingException;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.jring.nio.JringAsynchronousSocketChannelTest.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The java.nio.channels contract at its edges: pending, timeouts, shutdown, close, cancel, options, misuse. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SocketChannelSemanticsTest {
    private static AsynchronousChannelGroup group;

    /**
     * jring's group; with {@code -Djring.test.jdkSockets=true} (and
     * {@code JDK_JAVA_OPTIONS=--add-exports=java.base/sun.nio.ch=ALL-UNNAMED}) a group of the
     * JDK's own provider, which jring's META-INF/services entry otherwise replaces: the check
     * that these tests assert the JDK's behaviour (they pass on both).
     */
    @BeforeAll
    static void openGroup() throws Exception {
        if (Boolean.getBoolean("jring.test.jdkSockets")) {
            var jdk = (AsynchronousChannelProvider) Class.forName("sun.nio.ch.DefaultAsynchronousChannelProvider")
                    .getMethod("create").invoke(null);
            group = jdk.openAsynchronousChannelGroup(2, Thread::new);
        } else {
            group = JringAsynchronousChannelGroup.open(2);
        }
    }

    @AfterAll
    static void closeGroup() throws Exception {
        group.shutdownNow();
        assertTrue(group.awaitTermination(60, TimeUnit.SECONDS));
    }

    private static AsynchronousServerSocketChannel listener() throws Exception {
        return JringAsynchronousSocketChannelTest.listener(group);
    }

    private static AsynchronousSocketChannel[] pair(AsynchronousServerSocketChannel server) throws Exception {
        return JringAsynchronousSocketChannelTest.pair(group, server);
    }

    /** A handler that completes a future (with the thread's name checked by some tests). */
    static final class Outcome<V> extends CompletableFuture<V> implements CompletionHandler<V, Object> {
        @Override
        public void completed(V result, Object attachment) {
            complete(result);
        }

        @Override
        public void failed(Throwable exc, Object attachment) {
            completeExceptionally(exc);
        }
    }

    private static Throwable failure(Future<?> f) {
        return assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS)).getCause();
    }

    @Test
    void readTimeoutFailsWithInterruptedByTimeoutAndRefusesFurtherReads() throws Exception {
        try (var server = listener()) {
            var p = pair(server);
            try (var c = p[0]; var s = p[1]) {
                var o = new Outcome<Integer>();
                long t0 = System.nanoTime();
                c.read(ByteBuffer.allocate(8), 100, TimeUnit.MILLISECONDS, null, o);
                assertInstanceOf(InterruptedByTimeoutException.class, failure(o));
                assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(90));
                assertThrows(IllegalStateException.class, () -> c.read(ByteBuffer.allocate(8)));
                // writing is still allowed
                assertEquals(2, c.write(ByteBuffer.wrap(ascii("ok"))).get(30, TimeUnit.SECONDS));
                assertEquals(2, s.read(ByteBuffer.allocate(8)).get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void readWithATimeoutThatDoesNotFireDeliversTheData() throws Exception {
        try (var server = listener()) {
            var p = pair(server);
            try (var c = p[0]; var s = p[1]) {
                var o = new Outcome<Integer>();
                c.read(ByteBuffer.allocate(8), 30, TimeUnit.SECONDS, null, o);
                s.write(ByteBuffer.wrap(ascii("abc"))).get(30, TimeUnit.SECONDS);
                assertEquals(3, o.get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void oneReadAndOneWriteOutstandingAtATime() throws Exception {
        try (var server = listener()) {
            var p = pair(server);
            try (var c = p[0]; var s = p[1]) {
                Future<Integer> r = c.read(ByteBuffer.allocate(8));
                assertThrows(ReadPendingException.class, () -> c.read(ByteBuffer.allocate(8)));
                // fill the socket buffers so that a write stays pending
                c.setOption(StandardSocketOptions.SO_SNDBUF, 4096);
                Future<Integer> w;
                do {
                    w = c.write(ByteBuffer.allocateDirect(1 << 20));
                    try {
                        w.get(200, TimeUnit.MILLISECONDS);
                        w = null;
                    } catch (java.util.concurrent.TimeoutException pending) {
                        break;
                    }
                } while (true);
                assertThrows(WritePendingException.class, () -> c.write(ByteBuffer.allocate(8)));
                s.write(ByteBuffer.wrap(ascii("x"))).get(30, TimeUnit.SECONDS);
                assertEquals(1, r.get(30, TimeUnit.SECONDS));
                c.close();
                assertInstanceOf(AsynchronousCloseException.class, failure(w));
            }
        }
    }

    @Test
    void shutdownInputReadsMinusOneAndShutdownOutputEndsThePeersStream() throws Exception {
        try (var server = listener()) {
            var p = pair(server);
            try (var c = p[0]; var s = p[1]) {
                c.shutdownInput();
                assertEquals(-1, c.read(ByteBuffer.allocate(8)).get(30, TimeUnit.SECONDS));
                var scat = new Outcome<Long>();
                c.read(new ByteBuffer[] {ByteBuffer.allocate(4)}, 0, 1, 0, TimeUnit.SECONDS, null, scat);
                assertEquals(-1L, scat.get(30, TimeUnit.SECONDS));
                c.shutdownOutput();
                assertInstanceOf(ClosedChannelException.class, failure(c.write(ByteBuffer.wrap(ascii("x")))));
                assertEquals(-1, s.read(ByteBuffer.allocate(8)).get(30, TimeUnit.SECONDS));
                assertTrue(c.toString().contains("ishut") && c.toString().contains("oshut"), c.toString());
            }
        }
    }

    @Test
    void emptyBuffersCompleteAtOnceWithZero() throws Exception {
        try (var server = listener()) {
            var p = pair(server);
            try (var c = p[0]; var s = p[1]) {
                assertEquals(0, c.read(ByteBuffer.allocate(0)).get(30, TimeUnit.SECONDS));
                assertEquals(0, c.write(ByteBuffer.allocate(0)).get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void scatteringAndGatheringMoveEachBuffersPositionInOrder() throws Exception {
        try (var server = listener()) {
            var p = pair(server);
            try (var c = p[0]; var s = p[1]) {
                ByteBuffer[] out = {ByteBuffer.allocate(0), ByteBuffer.wrap(ascii("hel")), ByteBuffer.allocateDirect(4)};
                out[2].put(ascii("lo!!")).flip().limit(2);
                var w = new Outcome<Long>();
                c.write(out, 0, 3, 0, TimeUnit.SECONDS, null, w);
                assertEquals(5L, w.get(30, TimeUnit.SECONDS));
                assertEquals(3, out[1].position());
                assertEquals(2, out[2].position());
                ByteBuffer[] in = {ByteBuffer.allocate(2), ByteBuffer.allocateDirect(2), ByteBuffer.allocate(8)};
                long n = 0;
                while (n < 5) {
                    var r = new Outcome<Long>();
                    s.read(in, 0, 3, 0, TimeUnit.SECONDS, null, r);
                    n += r.get(30, TimeUnit.SECONDS);
                }
                assertEquals(2, in[0].position());
                assertEquals(2, in[1].position());
                assertEquals(1, in[2].position());
                assertArrayEquals(ascii("he"), in[0].array());
                assertEquals('l', in[1].get(0));
                assertEquals('o', in[2].get(0));
                assertThrows(IndexOutOfBoundsException.class,
                        () -> s.read(in, 2, 2, 0, TimeUnit.SECONDS, null, new Outcome<Long>()));
            }
        }
    }

    @Test
    void closeFailsPendingReadsAndAcceptsWithAsynchronousCloseException() throws Exception {
        var server = listener();
        var p = pair(server);
        var r = p[0].read(ByteBuffer.allocate(8));
        var a = server.accept();
        p[0].close();
        server.close();
        assertInstanceOf(AsynchronousCloseException.class, failure(r));
        assertInstanceOf(AsynchronousCloseException.class, failure(a));
        assertEquals(-1, p[1].read(ByteBuffer.allocate(8)).get(30, TimeUnit.SECONDS));
        p[1].close();
        assertFalse(p[0].isOpen());
        assertInstanceOf(ClosedChannelException.class, failure(p[0].read(ByteBuffer.allocate(8))));
        assertInstanceOf(ClosedChannelException.class, failure(p[0].write(ByteBuffer.allocate(8))));
        assertInstanceOf(ClosedChannelException.class, failure(server.accept()));
        assertThrows(ClosedChannelException.class, () -> p[0].getLocalAddress());
        assertThrows(ClosedChannelException.class, () -> p[0].setOption(StandardSocketOptions.TCP_NODELAY, true));
        p[0].close();   // a second close does nothing
    }

    @Test
    void cancelledReadFutureRefusesFurtherReads() throws Exception {
        try (var server = listener()) {
            var p = pair(server);
            try (var c = p[0]; var s = p[1]) {
                Future<Integer> r = c.read(ByteBuffer.allocate(8));
                assertTrue(r.cancel(false));
                assertThrows(CancellationException.class, r::get);
                assertThrows(IllegalStateException.class, () -> c.read(ByteBuffer.allocate(8)));
                assertTrue(c.isOpen());
                assertEquals(1, c.write(ByteBuffer.wrap(ascii("y"))).get(30, TimeUnit.SECONDS));
                // a forceful cancel closes the channel
                Future<Integer> r2 = s.read(ByteBuffer.allocate(8));
                assertEquals(1, r2.get(30, TimeUnit.SECONDS));
                Future<Integer> r3 = s.read(ByteBuffer.allocate(8));
                assertTrue(r3.cancel(true));
                assertFalse(s.isOpen());
            }
        }
    }

    @Test
    void cancelledAcceptFutureRefusesFurtherAccepts() throws Exception {
        try (var server = listener()) {
            Future<AsynchronousSocketChannel> a = server.accept();
            assertTrue(a.cancel(false));
            assertThrows(RuntimeException.class, server::accept);
            assertTrue(server.isOpen());
        }
        try (var server = listener()) {
            assertTrue(server.accept().cancel(true));
            assertFalse(server.isOpen());
        }
    }

    @Test
    void misuseThrowsTheJdksExceptions() throws Exception {
        try (var server = AsynchronousServerSocketChannel.open(group); var c = AsynchronousSocketChannel.open(group)) {
            assertThrows(NotYetBoundException.class, server::accept);
            assertThrows(NotYetConnectedException.class, () -> c.read(ByteBuffer.allocate(1)));
            assertThrows(NotYetConnectedException.class, () -> c.write(ByteBuffer.allocate(1)));
            assertThrows(NotYetConnectedException.class, c::shutdownInput);
            assertThrows(IllegalArgumentException.class, () -> c.read(ByteBuffer.allocate(1).asReadOnlyBuffer()));
            assertThrows(NullPointerException.class, () -> c.read(ByteBuffer.allocate(1), null, null));
            assertThrows(java.nio.channels.UnsupportedAddressTypeException.class,
                    () -> c.connect(new java.net.SocketAddress() { }));
            assertThrows(java.nio.channels.UnresolvedAddressException.class,
                    () -> c.connect(InetSocketAddress.createUnresolved("nowhere.invalid", 80)));
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            assertThrows(AlreadyBoundException.class, () -> server.bind(null));
            server.accept();
            assertThrows(AcceptPendingException.class, server::accept);
            c.connect(server.getLocalAddress()).get(30, TimeUnit.SECONDS);
            assertThrows(AlreadyConnectedException.class, () -> c.connect(server.getLocalAddress()));
            assertThrows(AlreadyBoundException.class, () -> c.bind(null));
        }
    }

    @Test
    void socketOptionsAsTheJdkSetsAndReadsThem() throws Exception {
        try (var c = AsynchronousSocketChannel.open(group); var server = AsynchronousServerSocketChannel.open(group)) {
            assertEquals(false, c.getOption(StandardSocketOptions.SO_REUSEADDR));
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertEquals(true, c.getOption(StandardSocketOptions.TCP_NODELAY));
            c.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            assertEquals(true, c.getOption(StandardSocketOptions.SO_KEEPALIVE));
            c.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            assertEquals(true, c.getOption(StandardSocketOptions.SO_REUSEADDR));
            c.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            assertEquals(true, c.getOption(StandardSocketOptions.SO_REUSEPORT));
            c.setOption(StandardSocketOptions.SO_RCVBUF, 65536);
            assertTrue(c.getOption(StandardSocketOptions.SO_RCVBUF) >= 65536);   // Linux doubles it
            c.setOption(StandardSocketOptions.SO_SNDBUF, 32768);
            assertTrue(c.getOption(StandardSocketOptions.SO_SNDBUF) >= 32768);
            if (c instanceof JringAsynchronousSocketChannel) {   // beyond the JDK's set
                assertEquals(-1, c.getOption(StandardSocketOptions.SO_LINGER));
                c.setOption(StandardSocketOptions.SO_LINGER, 5);
                assertEquals(5, c.getOption(StandardSocketOptions.SO_LINGER));
                c.setOption(StandardSocketOptions.SO_LINGER, -1);
                assertEquals(-1, c.getOption(StandardSocketOptions.SO_LINGER));
            }
            assertEquals(true, server.getOption(StandardSocketOptions.SO_REUSEADDR));   // listeners start with it on
            assertThrows(IllegalArgumentException.class, () -> c.setOption(StandardSocketOptions.SO_RCVBUF, -1));
            assertThrows(IllegalArgumentException.class, () -> c.setOption(StandardSocketOptions.TCP_NODELAY, null));
            assertThrows(UnsupportedOperationException.class, () -> c.getOption(StandardSocketOptions.IP_TOS));
            assertThrows(UnsupportedOperationException.class,
                    () -> server.setOption(StandardSocketOptions.TCP_NODELAY, true));
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            assertEquals(true, server.getOption(StandardSocketOptions.SO_REUSEADDR));
            assertTrue(c.supportedOptions().contains(StandardSocketOptions.SO_SNDBUF));
            assertTrue(server.supportedOptions().contains(StandardSocketOptions.SO_RCVBUF));
        }
    }
}
