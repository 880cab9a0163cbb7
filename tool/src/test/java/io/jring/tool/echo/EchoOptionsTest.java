package io.jring.tool.echo;

import io.jring.tool.JringCommand;
import io.jring.tool.bench.OutputFormat;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options of {@link EchoServerCommand}, {@link EchoBench} and their shared {@link EchoServerOptions}. */
class EchoOptionsTest {

    @SuppressWarnings("unchecked")
    private static <T> T parse(String... args) {
        ParseResult pr = JringCommand.commandLine().parseArgs(args);
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return (T) pr.commandSpec().userObject();
    }

    /** Runs a command that must be refused before doing anything; returns its error output. */
    private static String refused(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertEquals(2, cl.execute(args), err.toString());
        return err.toString();
    }

    @Test
    void echoServerDefaultsToJringOnAFreeLoopbackPort() {
        EchoServerCommand c = parse("echo-server");
        assertEquals(0, c.port);
        assertEquals("127.0.0.1", c.server.host);
        assertEquals(EchoImpl.JRING, c.server.impl);
        assertFalse(c.server.async);
        assertFalse(c.server.legacyAsync);
        assertEquals(0, c.server.maxUnbound);
        assertEquals(1, c.server.threads);
        assertFalse(c.ignoreStdin);
    }

    @Test
    void echoServerTakesEveryOption() {
        EchoServerCommand c = parse("echo-server", "--host=::1", "--port=7007", "--impl=netty-io_uring", "--async",
                "--legacy-async", "--max-unbound=20", "--threads=2", "--ignore-stdin");
        assertEquals(7007, c.port);
        assertEquals("::1", c.server.host);
        assertEquals(EchoImpl.NETTY_IO_URING, c.server.impl);
        assertTrue(c.server.async && c.server.legacyAsync && c.ignoreStdin);
        assertEquals(20, c.server.maxUnbound);
        assertEquals(2, c.server.threads);
    }

    @Test
    void implNamesAreCaseAndSeparatorInsensitive() {
        assertEquals(EchoImpl.NETTY_EPOLL, EchoImpl.of("Netty_Epoll"));
        assertEquals(EchoImpl.NETTY_IO_URING, EchoImpl.of("netty-io-uring"));
        assertEquals(EchoImpl.JRING, EchoImpl.of("JRING"));
        assertThrows(CommandLine.ParameterException.class, () -> parse("echo-server", "--impl=nio"));
    }

    @Test
    void legacyAsyncImpliesAsyncRecvs() {
        EchoServerCommand c = parse("echo-server", "--legacy-async");
        EchoServerConfig config = c.server.config(EchoImpl.JRING, 0);
        assertTrue(config.async());
        assertTrue(config.legacyAsync());
        assertFalse(((EchoServerCommand) parse("echo-server")).server.config(EchoImpl.JRING, 0).async());
    }

    @Test
    void benchEchoDefaultsMatchTheIssue() {
        EchoBench b = parse("bench", "echo");
        assertEquals(1000, b.connections);
        assertEquals(12, b.size);
        assertEquals(10, b.seconds.value());
        assertEquals(2, b.warmup.value());
        assertNull(b.port);
        assertNull(b.compare);
        assertEquals(1, b.roundCount());
        assertEquals(EchoImpl.JRING, b.server.impl);
        assertEquals(OutputFormat.normal, b.output.format());
        assertEquals(0, b.thinkMicros);
        assertEquals(EchoBench.ThinkDistribution.EXPONENTIAL, b.think);
    }

    @Test
    void thinkTimesAreExponentialUnlessFixedIsAsked() {
        assertEquals(EchoBench.ThinkDistribution.FIXED, ((EchoBench) parse("bench", "echo", "--think=fixed")).think);
        assertEquals(EchoBench.ThinkDistribution.EXPONENTIAL,
                ((EchoBench) parse("bench", "echo", "--think=exp", "--think-us=50000")).think);
        assertTrue(refused("bench", "echo", "--think=gaussian").contains("--think must be exponential or fixed"));
    }

    @Test
    void compareRunsThreeAlternatingRoundsUnlessTold() {
        assertEquals(3, ((EchoBench) parse("bench", "echo", "--compare")).roundCount());
        assertEquals(5, ((EchoBench) parse("bench", "echo", "--compare", "--rounds=5")).roundCount());
        assertEquals(2, ((EchoBench) parse("bench", "echo", "--rounds=2")).roundCount());
        assertEquals(3, ((EchoBench) parse("bench", "echo", "--compare=nio2")).roundCount());
    }

    @Test
    void compareWithoutASetComparesWithNettyAndNio2ComparesTheProviders() {
        assertEquals(EchoComparison.NETTY, ((EchoBench) parse("bench", "echo", "--compare")).compare);
        assertEquals(EchoComparison.NETTY, ((EchoBench) parse("bench", "echo", "--compare", "--rounds=1")).compare);
        EchoBench nio2 = parse("bench", "echo", "--compare=NIO2", "--rounds=1");
        assertEquals(List.of(EchoImpl.NIO2_JDK, EchoImpl.NIO2_JRING), nio2.compare.servers());
        assertEquals(List.of(EchoImpl.NIO2_JDK), nio2.compare.peersOf(EchoImpl.NIO2_JRING));
        assertTrue(refused("bench", "echo", "--compare=epoll").contains("--compare takes netty or nio2, got 'epoll'"));
    }

    @Test
    void benchEchoPassesServerOptionsThrough() {
        EchoBench b = parse("bench", "echo", "--impl=jring", "--async", "--max-unbound=20", "--threads=2",
                "--size=1024", "--connections=10", "--seconds=3", "--warmup=1", "--output-format=json");
        assertEquals(List.of("echo-server", "--host=127.0.0.1", "--port=0", "--impl=jring", "--threads=2", "--async",
                "--max-unbound=20"), b.server.serverArgs(EchoImpl.JRING));
        assertEquals(List.of("echo-server", "--host=127.0.0.1", "--port=0", "--impl=netty-epoll", "--threads=2",
                "--async", "--max-unbound=20"), b.server.serverArgs(EchoImpl.NETTY_EPOLL));
        assertEquals(1024, b.size);
        assertEquals(OutputFormat.json, b.output.format());
    }

    @Test
    void passedThroughArgsParseBackToTheSameServer() {
        EchoBench b = parse("bench", "echo", "--legacy-async", "--max-unbound=20");
        List<String> args = b.server.serverArgs(EchoImpl.JRING);
        EchoServerCommand c = parse(args.toArray(String[]::new));
        assertEquals(b.server.config(EchoImpl.JRING, 0), c.server.config(c.server.impl, c.port));
    }

    @Test
    void badValuesAreRefusedWithTheReason() {
        assertTrue(refused("bench", "echo", "--connections=0").contains("--connections must be"));
        assertTrue(refused("bench", "echo", "--size=0").contains("--size must be"));
        assertTrue(refused("bench", "echo", "--seconds=0").contains("--seconds must be"));
        assertTrue(refused("bench", "echo", "--port=70000").contains("--port must be"));
        assertTrue(refused("bench", "echo", "--compare", "--port=7007").contains("leave out --port"));
        assertTrue(refused("bench", "echo", "--compare=nio2", "--port=7007").contains("leave out --port"));
        assertTrue(refused("bench", "echo", "--threads=0").contains("--threads must be"));
        assertTrue(refused("echo-server", "--max-unbound=-1").contains("--max-unbound must be"));
        assertTrue(refused("echo-server", "--host=localhost").contains("--host must be an IP address"));
        assertTrue(refused("echo-server", "--port=-1").contains("--port must be"));
    }
}
