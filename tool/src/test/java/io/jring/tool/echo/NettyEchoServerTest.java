package io.jring.tool.echo;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.Socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link NettyEchoServer} on both transports, with plain blocking sockets as clients. */
class NettyEchoServerTest {

    @ParameterizedTest
    @EnumSource(value = EchoImpl.class, names = {"NETTY_EPOLL", "NETTY_IO_URING"})
    void echoesSmallAndLargeMessagesOnSeveralConnections(EchoImpl impl) throws Exception {
        try (EchoServer server = EchoServer.start(EchoServerConfig.loopback(impl))) {
            assertTrue(server.address().getPort() > 0);
            try (Socket a = EchoClients.connect(server.address()); Socket b = EchoClients.connect(server.address());
                 Socket c = EchoClients.connect(server.address())) {
                for (int round = 0; round < 3; round++) {
                    EchoClients.assertEchoes(a, EchoClients.pattern(12, round));
                    EchoClients.assertEchoes(b, EchoClients.pattern(1024, round));
                    EchoClients.assertEchoes(c, EchoClients.pattern(200_000, round));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = EchoImpl.class, names = {"NETTY_EPOLL", "NETTY_IO_URING"})
    void closeStopsTheServerAndItsConnections(EchoImpl impl) throws Exception {
        EchoServer server = EchoServer.start(EchoServerConfig.loopback(impl));
        try (Socket s = EchoClients.connect(server.address())) {
            EchoClients.assertEchoes(s, EchoClients.pattern(12, 1));
            server.close();
            assertNull(server.awaitStopped());
            assertEquals(-1, s.getInputStream().read());
        }
    }
}
