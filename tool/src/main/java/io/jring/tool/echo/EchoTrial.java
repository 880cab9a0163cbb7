package io.jring.tool.echo;

import org.HdrHistogram.Histogram;

/**
 * One measured window of the load against one server: what {@link EchoLoad} counted
 * between two marks, and the CPU time client and server used meanwhile. On a 2-core
 * machine each side has one core: a side near 100% of it is what limits the rate.
 *
 * @param latency        round-trip times in ns recorded in the window
 * @param errors         connections that failed (closed by the server, a wrong echo...) so far
 * @param clientCpuNanos CPU time of the client's event-loop thread in the window; -1 if unknown
 * @param serverCpuNanos CPU time of the whole server process in the window; -1 if unknown
 */
public record EchoTrial(long transactions, long nanos, Histogram latency, long errors, String firstError,
                        long clientCpuNanos, long serverCpuNanos) {

    /** The window between two marks of the same load; {@code serverCpuNanos} measured by the caller. */
    static EchoTrial between(EchoLoad.Mark start, EchoLoad.Mark end, long serverCpuNanos) {
        long clientCpu = start.loopCpuNanos() < 0 || end.loopCpuNanos() < 0 ? -1L
                : end.loopCpuNanos() - start.loopCpuNanos();
        return new EchoTrial(end.transactions() - start.transactions(), end.nanos() - start.nanos(),
                end.latencySincePrevious(), end.errors(), end.firstError(), clientCpu, serverCpuNanos);
    }

    public double transactionsPerSec() {
        return nanos <= 0 ? 0.0 : transactions * 1e9 / nanos;
    }

    /** Why the trial does not count, or null when it is a valid measurement. */
    public String problem() {
        if (errors > 0) {
            return errors + " connection(s) failed, first: " + firstError;
        }
        if (transactions == 0) {
            return "no round trip completed in " + nanos / 1_000_000 + " ms: the server accepts but does not echo";
        }
        return null;
    }
}
