package io.jring.tool.echo;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mirrors {@link JringMultishotEchoServer}: one multishot recv per connection into a buffer
 * ring, with plain blocking sockets as clients.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JringMultishotEchoServerTest {
    private static EchoServer start() throws InterruptedException, IOException {
        return EchoServer.start(EchoServerConfig.loopback(EchoImpl.JRING_MULTISHOT));
    }

    @Test
    void echoesOnThreeConnectionsAtOnce() throws Exception {
        try (EchoServer server = start();
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
    void messagesSpanningManyRingBuffersComeBackWholeAndInOrder() throws Exception {
        try (EchoServer server = start(); Socket s = EchoClients.connect(server.address())) {
            EchoClients.assertEchoes(s, EchoClients.pattern(3 * JringMultishotEchoServer.BUFFER_SIZE + 17, 5));
            EchoClients.assertEchoes(s, EchoClients.pattern(200_000, 6));
        }
    }

    /** Several messages sent before any echo is read: each recv CQE's buffer waits its turn to be sent. */
    @Test
    void pipelinedMessagesAreEchoedInOrder() throws Exception {
        try (EchoServer server = start(); Socket s = EchoClients.connect(server.address())) {
            OutputStream out = s.getOutputStream();
            byte[] all = new byte[0];
            for (int i = 0; i < 50; i++) {
                byte[] m = EchoClients.pattern(100 + i, i);
                out.write(m);
                byte[] grown = new byte[all.length + m.length];
                System.arraycopy(all, 0, grown, 0, all.length);
                System.arraycopy(m, 0, grown, all.length, m.length);
                all = grown;
            }
            out.flush();
            assertArrayEquals(all, EchoClients.readFully(s.getInputStream(), all.length));
        }
    }

    @Test
    void aClientsEndOfStreamClosesItsConnectionAndOthersGoOn() throws Exception {
        try (EchoServer server = start(); Socket stays = EchoClients.connect(server.address())) {
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

    @ParameterizedTest(name = "size={0} connections={1}")
    @CsvSource({"12,200", "300000,4"})
    void servesTheBenchLoad(int size, int connections) throws Exception {
        try (EchoServer server = start()) {
            StringWriter out = new StringWriter();
            CommandLine cl = JringCommand.commandLine();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(out));
            int rc = cl.execute("bench", "echo", "--port=" + server.address().getPort(), "--impl=jring-multishot",
                    "--connections=" + connections, "--size=" + size, "--seconds=1", "--warmup=0", "--output-format=json");
            assertEquals(0, rc, out.toString());
            Map<String, Object> o = JsonReader.parseObject(out.toString().strip());
            assertEquals(true, o.get("ok"), out.toString());
            assertTrue((Double) o.get("ops_per_sec") > 0, out.toString());
        }
    }

    @Test
    void closeStopsTheServerCleanly() throws Exception {
        EchoServer server = start();
        try (Socket s = EchoClients.connect(server.address())) {
            EchoClients.assertEchoes(s, EchoClients.pattern(12, 9));
            server.close();
            assertNull(server.awaitStopped(), "stopped by close, not by a failure");
            assertEquals(-1, s.getInputStream().read());
        }
    }
}
