package io.jring.tool.echo;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mirrors {@link EchoLoad} through {@code jring bench echo --port}: the client against the
 * Netty servers running in this JVM, and against a server that echoes wrongly.
 */
class EchoLoadTest {

    private record Run(int rc, String out) {}

    private static Run bench(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int rc = cl.execute(args);
        return new Run(rc, out.toString());
    }

    private static Map<String, Object> onlyJsonLine(Run r) {
        List<String> lines = r.out().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), r.out());
        return JsonReader.parseObject(lines.getFirst());
    }

    /** Both transports; the large size makes the echo arrive in many reads, each checked. */
    @ParameterizedTest(name = "{0} size={1} connections={2}")
    @CsvSource({"netty-epoll,12,50", "netty-io_uring,300000,4"})
    void loadsARunningServerAndReportsRateAndPercentiles(String label, int size, int connections) throws Exception {
        EchoImpl impl = EchoImpl.of(label);
        try (EchoServer server = EchoServer.start(EchoServerConfig.loopback(impl))) {
            Run r = bench("bench", "echo", "--port=" + server.address().getPort(), "--impl=" + label,
                    "--connections=" + connections, "--size=" + size, "--seconds=1", "--warmup=0", "--output-format=json");
            assertEquals(0, r.rc(), r.out());
            Map<String, Object> o = onlyJsonLine(r);
            assertEquals("echo", o.get("bench"));
            assertEquals(label, o.get("impl"));
            assertEquals((double) connections, o.get("connections"));
            assertEquals((double) size, o.get("size"));
            assertEquals(true, o.get("ok"));
            assertTrue((Double) o.get("ops_per_sec") > 0, r.out());
            @SuppressWarnings("unchecked")
            Map<String, Object> lat = (Map<String, Object>) o.get("lat_ns");
            assertEquals(List.of("p50", "p90", "p99", "p999", "max"), List.copyOf(lat.keySet()));
            assertTrue((Double) lat.get("p50") > 0 && (Double) lat.get("p50") <= (Double) lat.get("p99"), r.out());
            assertTrue((Double) lat.get("p99") <= (Double) lat.get("max"), r.out());
        }
    }

    @Test
    void aWrongEchoFailsTheRunWithTheReason() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = Thread.ofPlatform().daemon().start(() -> echoWithOneByteFlipped(listener));
            Run r = bench("bench", "echo", "--port=" + listener.getLocalPort(), "--impl=netty-epoll",
                    "--connections=1", "--size=12", "--seconds=1", "--warmup=0", "--output-format=json");
            assertEquals(1, r.rc(), r.out());
            Map<String, Object> o = onlyJsonLine(r);
            assertEquals(false, o.get("ok"));
            assertTrue(((String) o.get("error")).contains("the echo differs from the request"), r.out());
            listener.close();
            server.join(5_000);
        }
    }

    @Test
    void aServerThatNeverAnswersGivesNoRateButAReason() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Run r = bench("bench", "echo", "--port=" + listener.getLocalPort(), "--impl=jring",
                    "--connections=3", "--seconds=1", "--warmup=0");
            assertEquals(1, r.rc(), r.out());
            assertTrue(r.out().contains("server: jring at 127.0.0.1:" + listener.getLocalPort()), r.out());
            assertTrue(r.out().lines().anyMatch(l -> l.matches(" +server +trans/s +spread +p50 +p90 +p99 +p99\\.9 +max +cli CPU +srv CPU +srv CPU/tx")), r.out());
            assertTrue(r.out().lines().anyMatch(l -> l.matches(" +jring +FAILED: no round trip completed in \\d+ ms.*")), r.out());
        }
    }

    private static void echoWithOneByteFlipped(ServerSocket listener) {
        try (Socket s = listener.accept()) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[12];
            int n = in.read(buf);
            buf[n - 1] ^= 1;
            out.write(buf, 0, n);
            out.flush();
            in.read();
        } catch (IOException e) {
            // The test closed the listener or the client went away: done either way.
        }
    }
}
