package io.jring.tool.udp;

import io.jring.tool.bench.BenchOptions;
import io.jring.tool.bench.OutputOptions;
import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.LiveStatus;
import io.jring.tool.report.Rotation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench udp}: a UDP echo server on jring (multishot RECVMSG into a buffer ring,
 * SENDMSG to each sender) against one on a JDK DatagramChannel, in the same run, alternated
 * round by round, under the same load ({@link UdpLoad}). Gives each round's echoes/s, the
 * echoes per server CPU second, and jring's ratios (median and range over the rounds).
 */
@Command(name = "udp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "UDP echo benchmark: jring (multishot RECVMSG + SENDMSG) against a JDK DatagramChannel server.",
            "One load thread keeps --clients datagrams of --size bytes in flight, one per socket; the servers "
                    + "run alternately, --rounds times, each on a thread of its own in this JVM."})
public final class UdpEchoBench implements Callable<Integer> {

    /** The two servers, in the order of the first round. */
    enum Impl { JDK, JRING }

    @Option(names = "--clients", defaultValue = "64", description = "Client sockets, one datagram in flight each (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--size", defaultValue = "12", description = "Bytes per datagram (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--ipv6", description = "Over ::1 instead of 127.0.0.1.")
    boolean ipv6;

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(5);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(2);

    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(5);

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    /** One trial: echoes in the window, its length, the server thread's CPU time in it, datagrams sent again. */
    record Trial(Impl impl, int round, long echoes, long nanos, long serverCpuNanos, long resent, String notes) {
        double perSec() {
            return echoes * 1e9 / nanos;
        }

        double perCpuSec() {
            return serverCpuNanos <= 0 ? 0 : echoes * 1e9 / serverCpuNanos;
        }
    }

    @Override
    public Integer call() throws Exception {
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--clients", clients, 1, 4096);
        BenchOptions.requireRange(spec.commandLine(), "--size", size, 1, 1400);
        PrintWriter out = spec.commandLine().getOut();
        int n = rounds.value();
        List<Impl> impls = List.of(Impl.values());
        Map<Impl, List<Trial>> trials = new EnumMap<>(Impl.class);
        long planned = TimeUnit.SECONDS.toNanos((long) (warmup.value() + seconds.value()) * n * impls.size());
        try (LiveStatus status = output.startStatus(out, planned)) {
            Rotation.run(n, impls, (r, i, impl) -> {
                Trial t = trial(impl, r, status, "udp " + impl + " c=" + clients + " size=" + size
                        + " round " + (r + 1) + "/" + n);
                trials.computeIfAbsent(impl, k -> new ArrayList<>()).add(t);
                status.println(out, output.isJson() ? json(t).toString() : human(t));
            });
            for (String line : summary(trials)) {
                status.println(out, line);
            }
        }
        out.flush();
        return 0;
    }

    private Trial trial(Impl impl, int round, LiveStatus status, String label) throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.ofLiteral(ipv6 ? "::1" : "127.0.0.1"), 0);
        try (UdpEchoServer server = impl == Impl.JDK ? new JdkUdpEchoServer(bind) : new JringUdpEchoServer(bind)) {
            server.start("jring-udp-" + impl.name().toLowerCase(java.util.Locale.ROOT));
            try (UdpLoad load = new UdpLoad(server.address(), clients, size)) {
                status.phase(label, "echoes/s", load::echoes);
                load.start();
                TimeUnit.SECONDS.sleep(warmup.value());
                long e0 = load.echoes();
                long c0 = server.cpuNanos();
                long t0 = System.nanoTime();
                TimeUnit.SECONDS.sleep(seconds.value());
                long e1 = load.echoes();
                long c1 = server.cpuNanos();
                long t1 = System.nanoTime();
                if (server.failure != null) {
                    throw new IllegalStateException("the " + impl + " server failed", server.failure);
                }
                return new Trial(impl, round, e1 - e0, t1 - t0, c0 < 0 || c1 < 0 ? -1 : c1 - c0, load.resent(),
                        server.diagnostics());
            }
        }
    }

    private String human(Trial t) {
        return String.format(java.util.Locale.ROOT, "round %d %-5s %s echoes/s, %s per server CPU s, %d resent%s",
                t.round() + 1, t.impl(), Figures.si(t.perSec()), Figures.si(t.perCpuSec()), t.resent(),
                t.notes().isEmpty() ? "" : " (server: " + t.notes() + ")");
    }

    private JsonLine json(Trial t) {
        return JsonLine.object().put("bench", "udp").put("impl", t.impl().name()).put("round", t.round() + 1)
                .put("clients", clients).put("size", size).put("echoes", t.echoes())
                .put("ops_per_sec", Math.round(t.perSec())).put("ops_per_cpu_sec", Math.round(t.perCpuSec()))
                .put("resent", t.resent());
    }

    /** jring's ratio to the JDK server per round (the same round's two trials), median and range. */
    private List<String> summary(Map<Impl, List<Trial>> trials) {
        List<Trial> jdk = trials.get(Impl.JDK);
        List<Trial> jring = trials.get(Impl.JRING);
        int n = Math.min(jdk.size(), jring.size());
        double[] wall = new double[n];
        double[] cpu = new double[n];
        for (int i = 0; i < n; i++) {
            wall[i] = jring.get(i).perSec() / jdk.get(i).perSec();
            cpu[i] = jdk.get(i).perCpuSec() == 0 ? 0 : jring.get(i).perCpuSec() / jdk.get(i).perCpuSec();
        }
        if (output.isJson()) {
            return List.of(JsonLine.object().put("bench", "udp").put("summary", true)
                    .put("ratio_median", median(wall)).put("ratio_min", min(wall)).put("ratio_max", max(wall))
                    .put("cpu_ratio_median", median(cpu)).put("cpu_ratio_min", min(cpu)).put("cpu_ratio_max", max(cpu))
                    .toString());
        }
        return List.of(String.format(java.util.Locale.ROOT,
                "jring / JDK DatagramChannel over %d rounds: echoes/s %.2fx (%.2f-%.2f), per server CPU s %.2fx "
                        + "(%.2f-%.2f)", n, median(wall), min(wall), max(wall), median(cpu), min(cpu), max(cpu)));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n == 0 ? 0 : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
