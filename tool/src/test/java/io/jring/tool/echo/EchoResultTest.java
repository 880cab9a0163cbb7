package io.jring.tool.echo;

import io.jring.tool.report.Latency;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stats math of the echo bench: {@link EchoTrial}, {@link EchoResult}, {@link RoundTripLatency}. */
class EchoResultTest {

    /** A histogram holding 1..n microseconds once each. */
    private static Histogram micros(int n) {
        Histogram h = Latency.newHistogram();
        for (int i = 1; i <= n; i++) {
            h.recordValue(i * 1_000L);
        }
        return h;
    }

    private static EchoTrial trial(long transactions, double seconds) {
        return new EchoTrial(transactions, (long) (seconds * 1e9), micros(100), 0, null, -1, -1);
    }

    @Test
    void transactionsPerSecondIsRoundTripsOverTheMeasuredTime() {
        assertEquals(50_000.0, trial(250_000, 5.0).transactionsPerSec(), 1e-6);
        assertEquals(0.0, new EchoTrial(10, 0, micros(1), 0, null, -1, -1).transactionsPerSec());
    }

    @Test
    void aTrialBetweenTwoMarksCountsOnlyTheWindow() {
        EchoLoad.Mark start = new EchoLoad.Mark(1_000, 2_000_000_000L, micros(5), 0, null, 500_000_000L);
        EchoLoad.Mark end = new EchoLoad.Mark(101_000, 4_000_000_000L, micros(100), 0, null, 2_300_000_000L);
        EchoTrial t = EchoTrial.between(start, end, 1_500_000_000L);
        assertEquals(100_000, t.transactions());
        assertEquals(2_000_000_000L, t.nanos());
        assertEquals(50_000.0, t.transactionsPerSec(), 1e-6);
        assertEquals(100, t.latency().getTotalCount());
        assertEquals(1_800_000_000L, t.clientCpuNanos());
        assertEquals(1_500_000_000L, t.serverCpuNanos());
        assertNull(t.problem());
    }

    @Test
    void aTrialWithFailedConnectionsOrNoRoundTripHasAProblem() {
        assertTrue(new EchoTrial(5, 1_000_000_000L, micros(5), 2, "reset", -1, -1).problem().contains("2 connection(s) failed, first: reset"));
        assertTrue(new EchoTrial(0, 1_000_000_000L, micros(0), 0, null, -1, -1).problem().contains("no round trip"));
    }

    @Test
    void percentilesComeFromTheHistogram() {
        RoundTripLatency l = RoundTripLatency.of(micros(1000));
        assertEquals(500_000, l.p50(), 500_000 * 0.001);
        assertEquals(900_000, l.p90(), 900_000 * 0.001);
        assertEquals(990_000, l.p99(), 990_000 * 0.001);
        assertEquals(999_000, l.p999(), 999_000 * 0.001);
        assertEquals(1_000_000, l.max(), 1_000_000 * 0.001);
        assertEquals(1000, l.count());
        assertEquals(List.of("p50", "p90", "p99", "p999", "max"),
                io.jring.tool.report.JsonReader.parseObject(l.toJson().toString()).keySet().stream().toList());
    }

    @Test
    void aResultIsTheMedianOfItsRoundsWithLatencyOverAllOfThem() {
        EchoResult r = EchoResult.of(EchoImpl.NETTY_EPOLL, List.of(trial(300, 1.0), trial(100, 1.0), trial(200, 1.0)));
        assertEquals(200.0, r.transactionsPerSec(), 1e-9);
        assertEquals(1.0, r.rate().spread(), 1e-9);
        assertEquals(600, r.transactions());
        assertEquals(300, r.latency().count());
        assertTrue(!r.isFailed());
        assertTrue(Double.isNaN(r.serverCpu()), "unknown in one trial: unknown");
    }

    @Test
    void cpuSharesAreOverAllRoundsAndServerCostIsPerTransaction() {
        EchoTrial a = new EchoTrial(1_000, 1_000_000_000L, micros(10), 0, null, 900_000_000L, 500_000_000L);
        EchoTrial b = new EchoTrial(3_000, 1_000_000_000L, micros(10), 0, null, 1_000_000_000L, 700_000_000L);
        EchoResult r = EchoResult.of(EchoImpl.JRING, List.of(a, b));
        assertEquals(0.95, r.clientCpu(), 1e-9);
        assertEquals(0.6, r.serverCpu(), 1e-9);
        assertEquals(300_000.0, r.serverCpuNanosPerTransaction(), 1e-6);
    }

    @Test
    void ratiosAreJringOverThePeerAndNaNWhenEitherFailed() {
        EchoResult jring = EchoResult.of(EchoImpl.JRING, List.of(trial(150, 1.0)));
        EchoResult epoll = EchoResult.of(EchoImpl.NETTY_EPOLL, List.of(trial(100, 1.0)));
        EchoResult broken = EchoResult.failed(EchoImpl.NETTY_IO_URING, "kernel too old");
        assertEquals(1.5, jring.ratioTo(epoll), 1e-9);
        assertTrue(Double.isNaN(jring.ratioTo(broken)));
        assertTrue(Double.isNaN(broken.ratioTo(jring)));
        assertEquals("kernel too old", broken.problem());
    }
}
