package io.jring.tool.echo;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mirrors {@link JringEchoServer}: the engine's echo server with plain blocking sockets as
 * clients. Needs the engine's socket ops, provided buffers and multishot accept (issue 4).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JringEchoServerTest {

    private static EchoServerConfig config(boolean async, boolean legacyAsync, int maxUnbound) {
        return new EchoServerConfig("127.0.0.1", 0, EchoImpl.JRING, async, legacyAsync, maxUnbound, 1);
    }

    @ParameterizedTest(name = "async={0} legacyAsync={1} maxUnbound={2}")
    @CsvSource({"false,false,0", "true,false,20", "true,true,20"})
    void echoesOnThreeConnectionsAtOnce(boolean async, boolean legacyAsync, int maxUnbound) throws Exception {
        try (EchoServer server = EchoServer.start(config(async, legacyAsync, maxUnbound));
             Socket a = EchoClients.connect(server.address());
             Socket b = EchoClients.connect(server.address());
             Socket c = EchoClients.connect(server.address())) {
            for (int round = 0; round < 5; round++) {
                EchoClients.assertEchoes(a, EchoClients.pattern(12, round));
                EchoClients.assertEchoes(b, EchoClients.pattern(1024, round));
                EchoClients.assertEchoes(c, EchoClients.pattern(12, round + 7));
            }
        }
    }

    @Test
    void aMessageLongerThanOneProvidedBufferComesBackWhole() throws Exception {
        try (EchoServer server = EchoServer.start(EchoServerConfig.loopback(EchoImpl.JRING));
             Socket s = EchoClients.connect(server.address())) {
            EchoClients.assertEchoes(s, EchoClients.pattern(3 * JringEchoServer.BUFFER_SIZE + 17, 5));
            EchoClients.assertEchoes(s, EchoClients.pattern(200_000, 6));
        }
    }

    @Test
    void aClientsEndOfStreamClosesItsConnectionAndOthersGoOn() throws Exception {
        try (EchoServer server = EchoServer.start(EchoServerConfig.loopback(EchoImpl.JRING));
             Socket stays = EchoClients.connect(server.address())) {
            try (Socket leaves = EchoClients.connect(server.address())) {
                EchoClients.assertEchoes(leaves, EchoClients.pattern(12, 1));
                leaves.shutdownOutput();
                assertEquals(-1, leaves.getInputStream().read(), "the server closes its side on EOF");
            }
            for (int i = 0; i < 20; i++) {
                try (Socket more = EchoClients.connect(server.address())) {
                    EchoClients.assertEchoes(more, EchoClients.pattern(12, i));
                }
            }
            EchoClients.assertEchoes(stays, EchoClients.pattern(100, 2));
        }
    }

    /** The bench's load on many connections; the large size makes recvs span buffers and sends go short. */
    @ParameterizedTest(name = "size={0} connections={1}")
    @CsvSource({"12,200", "300000,4"})
    void servesTheBenchLoad(int size, int connections) throws Exception {
        try (EchoServer server = EchoServer.start(EchoServerConfig.loopback(EchoImpl.JRING))) {
            StringWriter out = new StringWriter();
            CommandLine cl = JringCommand.commandLine();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(out));
            int rc = cl.execute("bench", "echo", "--port=" + server.address().getPort(), "--impl=jring",
                    "--connections=" + connections, "--size=" + size, "--seconds=1", "--warmup=0", "--output-format=json");
            assertEquals(0, rc, out.toString());
            Map<String, Object> o = JsonReader.parseObject(out.toString().strip());
            assertEquals(true, o.get("ok"), out.toString());
            assertTrue((Double) o.get("ops_per_sec") > 0, out.toString());
        }
    }

    @Test
    void closeStopsTheServerCleanly() throws Exception {
        EchoServer server = EchoServer.start(EchoServerConfig.loopback(EchoImpl.JRING));
        assertTrue(server.address().getPort() > 0);
        try (Socket s = EchoClients.connect(server.address())) {
            EchoClients.assertEchoes(s, EchoClients.pattern(12, 9));
            server.close();
            assertNull(server.awaitStopped(), "stopped by close, not by a failure");
            assertEquals(-1, s.getInputStream().read());
        }
    }
}
