package io.jring.tool.echo;

import io.jring.tool.report.Latency;
import io.jring.tool.report.Rounds;
import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * One server implementation's outcome over all its rounds: transactions/s (median and
 * spread, BENCHMARKS.md), round-trip latency and CPU use over all rounds, or why it failed.
 *
 * @param rate      transactions/s per round; null when failed
 * @param clientCpu share of a core the client's event loop used (1.0 = all of one); NaN if unknown
 * @param serverCpu share of a core the server process used; NaN if unknown
 * @param serverCpuNanosPerTransaction server CPU time per round trip: its cost, whichever side limited the rate
 * @param problem   null when every round measured; else why the impl has no figure
 */
public record EchoResult(EchoImpl impl, Rounds rate, RoundTripLatency latency, long transactions,
                         double clientCpu, double serverCpu, double serverCpuNanosPerTransaction, String problem) {

    public static EchoResult of(EchoImpl impl, List<EchoTrial> trials) {
        if (trials.isEmpty()) {
            throw new IllegalArgumentException("no trials of " + impl);
        }
        double[] rates = new double[trials.size()];
        Histogram all = Latency.newHistogram();
        long transactions = 0;
        long nanos = 0;
        double clientCpuNanos = 0;
        double serverCpuNanos = 0;
        for (int i = 0; i < rates.length; i++) {
            EchoTrial t = trials.get(i);
            rates[i] = t.transactionsPerSec();
            all.add(t.latency());
            transactions += t.transactions();
            nanos += t.nanos();
            clientCpuNanos += t.clientCpuNanos() < 0 ? Double.NaN : t.clientCpuNanos();
            serverCpuNanos += t.serverCpuNanos() < 0 ? Double.NaN : t.serverCpuNanos();
        }
        return new EchoResult(impl, Rounds.of(rates), RoundTripLatency.of(all), transactions, clientCpuNanos / nanos,
                serverCpuNanos / nanos, serverCpuNanos / transactions, null);
    }

    public static EchoResult failed(EchoImpl impl, String problem) {
        return new EchoResult(impl, null, null, 0, Double.NaN, Double.NaN, Double.NaN, problem);
    }

    public boolean isFailed() {
        return problem != null;
    }

    /** Median transactions/s; NaN when failed. */
    public double transactionsPerSec() {
        return isFailed() ? Double.NaN : rate.median();
    }

    /** This impl's transactions/s over {@code other}'s; NaN when either has no figure. */
    public double ratioTo(EchoResult other) {
        return transactionsPerSec() / other.transactionsPerSec();
    }

    /** This impl's server CPU time per round trip over {@code other}'s (below 1: cheaper); NaN when either is unknown. */
    public double cpuRatioTo(EchoResult other) {
        return serverCpuNanosPerTransaction / other.serverCpuNanosPerTransaction;
    }
}
