package io.jring.tool.echo;

import io.jring.tool.JringCommand;
import io.jring.tool.report.JsonReader;
import io.jring.tool.report.Latency;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mirrors {@link EchoBench}: a real run with the server in a child JVM, and the
 * alternation, failure handling and ratios of {@code --compare} on scripted trials.
 */
class EchoBenchTest {

    private static EchoBench parse(String... args) {
        ParseResult pr = JringCommand.commandLine().parseArgs(args);
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return (EchoBench) pr.commandSpec().userObject();
    }

    /** A trial of {@code rate} transactions/s over one second. */
    private static EchoTrial trial(long rate) {
        Histogram h = Latency.newHistogram();
        h.recordValue(20_000);
        return new EchoTrial(rate, 1_000_000_000L, h, 0, null, 900_000_000L, 800_000_000L);
    }

    @Test
    void startsTheServerInAChildJvmAndLoadsIt() {
        StringWriter out = new StringWriter();
        CommandLine cl = JringCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int rc = cl.execute("bench", "echo", "--impl=netty-epoll", "--connections=8", "--size=64",
                "--seconds=1", "--warmup=2", "--output-format=json");
        assertEquals(0, rc, out.toString());
        Map<String, Object> o = JsonReader.parseObject(out.toString().strip());
        assertEquals("netty-epoll", o.get("impl"));
        assertEquals(true, o.get("ok"));
        assertTrue((Double) o.get("ops_per_sec") > 0, out.toString());
    }

    @Test
    void compareAlternatesTheServersRoundByRound() throws Exception {
        EchoBench b = parse("bench", "echo", "--compare");
        List<EchoImpl> order = new ArrayList<>();
        b.measure(EchoComparison.NETTY.servers(), 2, (impl, label) -> {
            order.add(impl);
            return trial(100);
        });
        assertEquals(List.of(EchoImpl.NETTY_EPOLL, EchoImpl.NETTY_IO_URING, EchoImpl.JRING, EchoImpl.JRING_MULTISHOT,
                EchoImpl.NETTY_IO_URING, EchoImpl.JRING, EchoImpl.JRING_MULTISHOT, EchoImpl.NETTY_EPOLL), order);
    }

    @Test
    void compareGivesJringsRatiosToBothPeers() throws Exception {
        EchoBench b = parse("bench", "echo", "--compare");
        List<EchoResult> results = b.measure(EchoComparison.NETTY.servers(), 1, (impl, label) -> switch (impl) {
            case NETTY_EPOLL -> trial(100);
            case NETTY_IO_URING -> trial(200);
            case JRING -> trial(150);
            case JRING_MULTISHOT -> trial(300);
            case NIO2_JDK, NIO2_JRING -> throw new AssertionError(impl + " is not in --compare=netty");
        });
        List<String> human = b.humanLines(results);
        assertTrue(human.stream().anyMatch(l -> l.matches(" +netty-io_uring +200 +- +20\\.\\d+us( +20\\.\\d+us){4} +90% +80% +4\\.00ms")),
                human.toString());
        assertTrue(human.contains("  jring / netty-epoll:    1.50x trans/s, 0.67x srv CPU/tx"), human.toString());
        assertTrue(human.contains("  jring / netty-io_uring: 0.75x trans/s, 1.33x srv CPU/tx"), human.toString());
        Map<String, Object> jring = JsonReader.parseObject(b.jsonLines(results).get(2));
        assertEquals("jring", jring.get("impl"));
        assertEquals(1.5, jring.get("vs_netty_epoll"));
        assertEquals(0.75, jring.get("vs_netty_io_uring"));
        assertTrue(human.contains("  jring-multishot / netty-epoll:    3.00x trans/s, 0.33x srv CPU/tx"),
                human.toString());
        assertTrue(human.contains("  jring-multishot / jring:          2.00x trans/s, 0.50x srv CPU/tx"),
                human.toString());
        Map<String, Object> multishot = JsonReader.parseObject(b.jsonLines(results).get(3));
        assertEquals(1.5, multishot.get("vs_netty_io_uring"));
        assertEquals(2.0, multishot.get("vs_jring"));
    }

    @Test
    void compareNio2AlternatesTheProvidersAndGivesJringsRatiosToTheJdks() throws Exception {
        EchoBench b = parse("bench", "echo", "--compare=nio2");
        List<EchoImpl> order = new ArrayList<>();
        List<EchoResult> results = b.measure(b.compare.servers(), 2, (impl, label) -> {
            order.add(impl);
            return trial(impl == EchoImpl.NIO2_JRING ? 125 : 100);
        });
        assertEquals(List.of(EchoImpl.NIO2_JDK, EchoImpl.NIO2_JRING, EchoImpl.NIO2_JRING, EchoImpl.NIO2_JDK), order);
        List<String> human = b.humanLines(results);
        assertTrue(human.contains("  nio2-jring / nio2-jdk:       1.25x trans/s, 0.80x srv CPU/tx"), human.toString());
        assertEquals(4, human.size(), human.toString());
        List<String> json = b.jsonLines(results);
        Map<String, Object> jdk = JsonReader.parseObject(json.get(0));
        assertEquals("nio2-jdk", jdk.get("impl"));
        assertFalse(jdk.containsKey("vs_nio2_jring"));
        Map<String, Object> jring = JsonReader.parseObject(json.get(1));
        assertEquals(1.25, jring.get("vs_nio2_jdk"));
        assertEquals(0.8, jring.get("cpu_per_op_vs_nio2_jdk"));
    }

    @Test
    void aFailingServerIsReportedWithItsReasonAndSkippedInLaterRounds() throws Exception {
        EchoBench b = parse("bench", "echo", "--compare");
        List<EchoImpl> order = new ArrayList<>();
        List<EchoResult> results = b.measure(EchoComparison.NETTY.servers(), 3, (impl, label) -> {
            order.add(impl);
            if (impl == EchoImpl.JRING) {
                throw new IOException("the server exited with status 1 before listening");
            }
            return trial(100);
        });
        assertEquals(1, order.stream().filter(i -> i == EchoImpl.JRING).count(), order.toString());
        assertEquals(3, order.stream().filter(i -> i == EchoImpl.NETTY_EPOLL).count(), order.toString());
        List<String> human = b.humanLines(results);
        assertTrue(human.stream().anyMatch(l -> l.matches(" +jring +FAILED: the server exited with status 1 before listening")),
                human.toString());
        assertTrue(human.contains("  no ratios: the jring server failed"), human.toString());
        List<String> json = b.jsonLines(results);
        Map<String, Object> jring = JsonReader.parseObject(json.get(2));
        assertEquals(false, jring.get("ok"));
        assertEquals("the server exited with status 1 before listening", jring.get("error"));
        assertFalse(jring.containsKey("vs_netty_epoll"));
        assertEquals(true, JsonReader.parseObject(json.get(0)).get("ok"));
    }
}
