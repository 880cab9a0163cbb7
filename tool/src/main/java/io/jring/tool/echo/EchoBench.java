package io.jring.tool.echo;

import io.jring.tool.bench.BenchOptions;
import io.jring.tool.bench.OutputOptions;
import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.Latency;
import io.jring.tool.report.LiveStatus;
import io.jring.tool.report.Rotation;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench echo}: transactions/s and round-trip latency of an echo server under
 * many connections with one request in flight each (seed 003). Without {@code --port} it
 * starts the server itself in a child JVM; with {@code --compare} it alternates jring and
 * Netty's two transports and gives jring's ratios to each, with {@code --compare=nio2} one
 * NIO.2 server on the JDK's provider and on jring's.
 */
@Command(name = "echo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Echo server benchmark: transactions per second and latency under many connections.",
            "Each connection keeps one --size request in flight: send, read the echo back, check it, send again."
                    + " The client runs on Netty's epoll transport with one event-loop thread. Without --port,"
                    + " the server (--impl) runs in a child JVM started for the run."})
public final class EchoBench implements Callable<Integer> {

    static final int MAX_SIZE = 1 << 20;

    @Option(names = "--connections", defaultValue = "1000", description = "Connections, each with one request in flight (default ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--size", defaultValue = "12", description = "Bytes per request (default ${DEFAULT-VALUE}).")
    int size;

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(10);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(2);

    @Option(names = "--port", paramLabel = "PORT",
            description = "Load a server already listening on --host:PORT (--impl then only names it); default: start one.")
    Integer port;

    @Option(names = "--compare", arity = "0..1", fallbackValue = "netty", paramLabel = "netty|nio2",
            converter = EchoComparison.Converter.class,
            description = "Run servers alternately, --rounds times (3 unless --rounds is given), and give ratios of"
                    + " trans/s and of server CPU per round trip. netty (the default): netty-epoll, netty-io_uring,"
                    + " jring and jring-multishot, jring's ratios to Netty's; nio2: nio2-jdk and nio2-jring, the same"
                    + " NIO.2 server on jring's provider against the JDK's.")
    EchoComparison compare;

    /** Without --compare one server runs once; with it, three rounds unless --rounds says otherwise. */
    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(1);

    @Option(names = "--think-us", paramLabel = "US", defaultValue = "0",
            description = "Pause of each connection between an echo and its next request, in microseconds "
                    + "(default 0: send at once). Long pauses give mostly idle connections, where async recvs cost the most.")
    long thinkMicros;

    /** How think times are drawn. */
    enum ThinkDistribution { EXPONENTIAL, FIXED }

    @Option(names = "--think", paramLabel = "DIST", defaultValue = "exponential",
            converter = ThinkConverter.class,
            description = "How --think-us is applied: exponential (each pause drawn with mean --think-us, "
                    + "connections independent: the default) or fixed (every pause exactly --think-us).")
    ThinkDistribution think;

    static final class ThinkConverter implements ITypeConverter<ThinkDistribution> {
        @Override
        public ThinkDistribution convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "exponential", "exp" -> ThinkDistribution.EXPONENTIAL;
                case "fixed" -> ThinkDistribution.FIXED;
                default -> throw new TypeConversionException(
                        "--think must be exponential or fixed, got '" + value + "'");
            };
        }
    }

    @Option(names = "--server-java-opts", paramLabel = "OPTS", defaultValue = "",
            description = "Extra JVM options of the server's child JVM, e.g. \"-XX:StartFlightRecording=filename=echo.jfr\".")
    String serverJavaOpts;

    @Mixin
    EchoServerOptions server = new EchoServerOptions();

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        List<EchoImpl> impls = compare != null ? compare.servers() : List.of(server.impl());
        int n = roundCount();
        if (!output.isJson()) {
            printHeader(out, impls, n);
        }
        List<EchoResult> results;
        long planned = TimeUnit.SECONDS.toNanos((long) (warmup.value() + seconds.value()) * n * impls.size());
        try (LiveStatus status = output.startStatus(out, planned)) {
            results = measure(impls, n, (impl, label) -> runTrial(impl, label, status));
            for (String line : output.isJson() ? jsonLines(results) : humanLines(results)) {
                status.println(out, line);
            }
        }
        out.flush();
        return results.stream().anyMatch(EchoResult::isFailed) ? 1 : 0;
    }

    private void validate() {
        server.validate(spec.commandLine());
        BenchOptions.requireRange(spec.commandLine(), "--connections", connections, 1, 60_000);
        BenchOptions.requireRange(spec.commandLine(), "--size", size, 1, MAX_SIZE);
        BenchOptions.validate(spec);
        if (port != null) {
            BenchOptions.requireRange(spec.commandLine(), "--port", port, 1, 65535);
        }
        if (port != null && compare != null) {
            throw new ParameterException(spec.commandLine(),
                    "--compare starts the servers it compares; leave out --port (it loads one running server)");
        }
    }

    int roundCount() {
        return compare != null && !spec.commandLine().getParseResult().hasMatchedOption("--rounds") ? 3 : rounds.value();
    }

    /**
     * Every impl once per round, each round starting one impl later so none always runs
     * first (BENCHMARKS.md: alternate). An impl that fails once is reported failed and
     * skipped from then on.
     */
    List<EchoResult> measure(List<EchoImpl> impls, int n, TrialRunner runner) throws InterruptedException {
        Map<EchoImpl, List<EchoTrial>> trials = new EnumMap<>(EchoImpl.class);
        Map<EchoImpl, String> problems = new EnumMap<>(EchoImpl.class);
        Rotation.run(n, impls, (r, i, impl) -> {
            if (problems.containsKey(impl)) {
                return;
            }
            String label = "echo " + impl + " c=" + connections + " size=" + size
                    + (n > 1 ? " round " + (r + 1) + "/" + n : "");
            try {
                trials.computeIfAbsent(impl, k -> new ArrayList<>()).add(runner.run(impl, label));
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                problems.put(impl, e.getMessage() != null ? e.getMessage() : e.toString());
            }
        });
        List<EchoResult> results = new ArrayList<>();
        for (EchoImpl impl : impls) {
            results.add(problems.containsKey(impl) ? EchoResult.failed(impl, problems.get(impl))
                    : EchoResult.of(impl, trials.get(impl)));
        }
        return results;
    }

    /** One run: the server (started here unless --port), the load, warmup, the measured window. */
    private EchoTrial runTrial(EchoImpl impl, String label, LiveStatus status)
            throws IOException, InterruptedException, TrialFailed {
        ServerProcess child = port == null
                ? ServerProcess.start(server.serverArgs(impl), ServerProcess.splitOptions(serverJavaOpts)) : null;
        try {
            InetSocketAddress address = child != null ? child.address()
                    : new InetSocketAddress(InetAddress.getByName(server.host()), port);
            EchoTrial trial;
            try (EchoLoad load = EchoLoad.connect(address, connections, size)) {
                load.thinkTime(thinkMicros * 1000L, think == ThinkDistribution.EXPONENTIAL);
                status.phase(label, "trans/s", load::transactions);
                load.start();
                TimeUnit.SECONDS.sleep(warmup.value());
                long serverCpu0 = child != null ? child.cpuNanos() : -1L;
                EchoLoad.Mark start = load.mark();
                TimeUnit.SECONDS.sleep(seconds.value());
                EchoLoad.Mark end = load.mark();
                long serverCpu1 = child != null ? child.cpuNanos() : -1L;
                trial = EchoTrial.between(start, end, serverCpu0 < 0 || serverCpu1 < 0 ? -1L : serverCpu1 - serverCpu0);
            } catch (IOException e) {
                throw new TrialFailed(e.getMessage() + (child != null ? "; " + child.diagnostics() : ""));
            }
            if (trial.problem() != null) {
                throw new TrialFailed(trial.problem() + (child != null ? "; " + child.diagnostics() : ""));
            }
            return trial;
        } finally {
            if (child != null) {
                child.close();
            }
        }
    }

    private void printHeader(PrintWriter out, List<EchoImpl> impls, int n) {
        out.printf("jring bench echo: %d connections x %d B, one request in flight each; %d s measured after %d s warmup%s%n",
                connections, size, seconds.value(), warmup.value(),
                n > 1 ? ", " + n + " rounds alternating, median" : "");
        out.printf("  client: Netty epoll, 1 event-loop thread%s; server: %s%n", thinkMicros == 0 ? ""
                : ", think " + (think == ThinkDistribution.EXPONENTIAL ? "exponential, mean " : "fixed ")
                        + thinkMicros + " us", port != null
                ? impls.getFirst() + " at " + server.host() + ":" + port
                : String.join(", ", impls.stream().map(EchoImpl::label).toList()) + " in a child JVM per run ("
                        + String.join(" ", server.passedThrough()) + ")");
        out.flush();
    }

    List<String> humanLines(List<EchoResult> results) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("  %-15s %10s %7s %9s %9s %9s %9s %9s %8s %8s %10s", "server", "trans/s", "spread",
                "p50", "p90", "p99", "p99.9", "max", "cli CPU", "srv CPU", "srv CPU/tx"));
        for (EchoResult r : results) {
            if (r.isFailed()) {
                lines.add(String.format("  %-15s FAILED: %s", r.impl(), r.problem()));
                continue;
            }
            String[] lat = r.latency().cells();
            lines.add(String.format("  %-15s %10s %7s %9s %9s %9s %9s %9s %8s %8s %10s", r.impl(),
                    Figures.si(r.transactionsPerSec()), r.rate().count() > 1 ? Figures.percent(r.rate().spread()) : "-",
                    lat[0], lat[1], lat[2], lat[3], lat[4], share(r.clientCpu()), share(r.serverCpu()),
                    Double.isNaN(r.serverCpuNanosPerTransaction()) ? "-"
                            : Latency.time(Math.round(r.serverCpuNanosPerTransaction()))));
        }
        if (compare != null) {
            for (EchoComparison.Ratios ratios : compare.ratios()) {
                EchoResult r = find(results, ratios.mine());
                if (r.isFailed()) {
                    lines.add("  no ratios: the " + ratios.mine() + " server failed");
                    continue;
                }
                for (EchoImpl peer : ratios.peers()) {
                    EchoResult other = find(results, peer);
                    lines.add(String.format("  %s / %-15s %s", ratios.mine(), peer + ":", other.isFailed()
                            ? "n/a (" + peer + " failed)"
                            : Figures.fixed(r.ratioTo(other), 2) + "x trans/s, " + ratio(r.cpuRatioTo(other))
                                    + " srv CPU/tx"));
                }
            }
        }
        return lines;
    }

    List<String> jsonLines(List<EchoResult> results) {
        List<String> lines = new ArrayList<>();
        for (EchoResult r : results) {
            JsonLine j = JsonLine.object()
                    .put("bench", "echo")
                    .put("impl", r.impl().label())
                    .put("connections", connections)
                    .put("size", size)
                    .put("seconds", seconds.value())
                    .put("warmup", warmup.value())
                    .put("async", server.async || server.legacyAsync)
                    .put("legacy_async", server.legacyAsync)
                    .put("max_unbound", server.maxUnbound)
                    .put("threads", server.threads)
                    .put("cores", Runtime.getRuntime().availableProcessors())
                    .put("ok", !r.isFailed());
            if (r.isFailed()) {
                j.put("error", r.problem());
            } else {
                j.put("ops_per_sec", Math.round(r.transactionsPerSec()))
                        .put("rounds", r.rate().count())
                        .put("spread", r.rate().spread())
                        .put("min", Math.round(r.rate().min()))
                        .put("max", Math.round(r.rate().max()))
                        .put("transactions", r.transactions())
                        .put("lat_of", "round_trip")
                        .put("lat_ns", r.latency().toJson())
                        .put("client_cpu", r.clientCpu())
                        .put("server_cpu", r.serverCpu())
                        .put("server_cpu_ns_per_op", Math.rint(r.serverCpuNanosPerTransaction()));
                for (EchoImpl peer : compare != null ? compare.peersOf(r.impl()) : List.<EchoImpl>of()) {
                    String name = peer.label().replace('-', '_');
                    j.put("vs_" + name, r.ratioTo(find(results, peer)))
                            .put("cpu_per_op_vs_" + name, r.cpuRatioTo(find(results, peer)));
                }
            }
            lines.add(j.toString());
        }
        return lines;
    }

    /** A ratio as "1.23x", "-" when unknown. */
    private static String ratio(double r) {
        return Double.isNaN(r) ? "-" : Figures.fixed(r, 2) + "x";
    }

    /** A share of one core as a percentage, "-" when unknown. */
    private static String share(double fraction) {
        return Double.isNaN(fraction) ? "-" : Math.round(fraction * 100) + "%";
    }

    private static EchoResult find(List<EchoResult> results, EchoImpl impl) {
        return results.stream().filter(r -> r.impl() == impl).findFirst().orElseThrow();
    }

    /** One measured run of a server; an exception says why it has no figure. */
    @FunctionalInterface
    interface TrialRunner {
        EchoTrial run(EchoImpl impl, String label) throws Exception;
    }

    /** A run that produced no valid measurement; the message says why. */
    static final class TrialFailed extends Exception {
        TrialFailed(String message) {
            super(message);
        }
    }
}
