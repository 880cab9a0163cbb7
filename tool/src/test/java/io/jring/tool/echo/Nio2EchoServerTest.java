package io.jring.tool.echo;

import io.jring.nio.JringAsynchronousChannelProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.BindException;
import java.net.Socket;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mirrors {@link Nio2EchoServer} on both providers, in this JVM (the surefire JVM has the
 * export the JDK's provider needs), with plain blocking sockets as clients.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Nio2EchoServerTest {

    private static EchoServerConfig config(EchoImpl impl, int threads) {
        return new EchoServerConfig("127.0.0.1", 0, impl, false, false, 0, threads);
    }

    @Test
    void eachImplRunsOnItsOwnProvider() {
        assertInstanceOf(JringAsynchronousChannelProvider.class, Nio2EchoServer.provider(EchoImpl.NIO2_JRING));
        assertEquals("sun.nio.ch.LinuxAsynchronousChannelProvider",
                Nio2EchoServer.provider(EchoImpl.NIO2_JDK).getClass().getName());
    }

    @ParameterizedTest
    @EnumSource(value = EchoImpl.class, names = {"NIO2_JDK", "NIO2_JRING"})
    void echoesSmallAndLargeMessagesOnSeveralConnections(EchoImpl impl) throws Exception {
        try (EchoServer server = EchoServer.start(config(impl, 2))) {
            assertTrue(server.address().getPort() > 0);
            try (Socket a = EchoClients.connect(server.address()); Socket b = EchoClients.connect(server.address());
                 Socket c = EchoClients.connect(server.address())) {
                for (int round = 0; round < 3; round++) {
                    EchoClients.assertEchoes(a, EchoClients.pattern(12, round));
                    EchoClients.assertEchoes(b, EchoClients.pattern(1024, round));
                    // Longer than the connection's buffer: several reads, and writes that may go short.
                    EchoClients.assertEchoes(c, EchoClients.pattern(3 * Nio2EchoServer.BUFFER_SIZE + 17, round));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = EchoImpl.class, names = {"NIO2_JDK", "NIO2_JRING"})
    void aClientsEndOfStreamClosesItsConnectionAndOthersGoOn(EchoImpl impl) throws Exception {
        try (EchoServer server = EchoServer.start(config(impl, 1));
             Socket stays = EchoClients.connect(server.address())) {
            try (Socket leaves = EchoClients.connect(server.address())) {
                EchoClients.assertEchoes(leaves, EchoClients.pattern(12, 1));
                leaves.shutdownOutput();
                assertEquals(-1, leaves.getInputStream().read(), "the server closes its side on EOF");
            }
            for (int i = 0; i < 10; i++) {
                try (Socket more = EchoClients.connect(server.address())) {
                    EchoClients.assertEchoes(more, EchoClients.pattern(12, i));
                }
            }
            EchoClients.assertEchoes(stays, EchoClients.pattern(100, 2));
        }
    }

    @ParameterizedTest
    @EnumSource(value = EchoImpl.class, names = {"NIO2_JDK", "NIO2_JRING"})
    void closeEndsTheConnectionsAndLeavesNoThreadBehind(EchoImpl impl) throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        Nio2EchoServer server = (Nio2EchoServer) EchoServer.start(config(impl, 2));
        try (Socket s = EchoClients.connect(server.address()); Socket t = EchoClients.connect(server.address())) {
            EchoClients.assertEchoes(s, EchoClients.pattern(12, 1));
            EchoClients.assertEchoes(t, EchoClients.pattern(12, 2));
            server.close();
            assertNull(server.awaitStopped());
            assertEquals(-1, s.getInputStream().read());
            assertEquals(-1, t.getInputStream().read());
        }
        List<Thread> groupThreads = server.threads();
        assertFalse(groupThreads.isEmpty());
        for (Thread g : groupThreads) {
            assertFalse(g.isAlive(), g + " is alive after close()");
        }
        // Whatever else the provider started (a timer, io-wq workers) ends too, within a bound.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Thread left : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(left)) {
                left.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                assertFalse(left.isAlive(), left + " was started by the server and is alive after close()");
            }
        }
        server.close();   // idempotent
    }

    @Test
    void aSecondServerOnThePortOfARunningOneFailsToStart() throws Exception {
        try (EchoServer first = EchoServer.start(config(EchoImpl.NIO2_JRING, 1))) {
            EchoServerConfig same = new EchoServerConfig("127.0.0.1", first.address().getPort(), EchoImpl.NIO2_JDK,
                    false, false, 0, 1);
            assertThrows(BindException.class, () -> EchoServer.start(same));
        }
    }
}
