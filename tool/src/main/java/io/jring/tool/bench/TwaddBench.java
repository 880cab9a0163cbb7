package io.jring.tool.bench;

import io.jring.TaskWorkKind;
import io.jring.tool.report.Figures;
import io.jring.tool.report.JsonLine;
import io.jring.tool.report.LiveStatus;
import io.jring.tool.report.Rounds;
import io.jring.tool.report.Rotation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jring bench twadd}: items/s of task-work adds from N producer threads into one
 * owner, for each list strategy in the same run (seed 001). Kinds alternate within each
 * round, starting one kind later every round, and each kind reports the median of its
 * rounds, the spread and its ratio to LOCKED (Linux before seed 001).
 */
@Command(name = "twadd", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Task-work throughput: how fast producer threads hand work items to one owner thread.",
            "N producer threads add items to one owner, which runs them. Every task-work list strategy is measured "
                    + "in the same run, in alternating rounds, and the median of --rounds is reported."})
public final class TwaddBench implements Callable<Integer> {

    /** At least this many items per producer in flight (the floor). */
    static final int MIN_ITEMS = 256;

    @Option(names = "--producers", defaultValue = "2", paramLabel = "N|N,M,..|N..M",
            converter = Counts.Converter.class,
            description = "Producer thread counts to measure, e.g. 2, 1,2,4 or 1..4 (default ${DEFAULT-VALUE}).")
    Counts producers;

    @Mixin
    BenchOptions.Kind kinds = BenchOptions.Kind.compared("all");

    @Mixin
    BenchOptions.Seconds seconds = new BenchOptions.Seconds(3);

    @Mixin
    BenchOptions.Warmup warmup = new BenchOptions.Warmup(1);

    @Mixin
    BenchOptions.Rounds rounds = new BenchOptions.Rounds(3);

    @Option(names = "--items", defaultValue = "1024",
            description = "Items each producer owns and keeps in flight, >= " + MIN_ITEMS + " (default ${DEFAULT-VALUE}).")
    int items;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Spec
    CommandSpec spec;

    /** One strategy at one producer count, over all rounds. */
    public record Result(TaskWorkKind kind, int producers, Rounds rate, double vsLocked) {}

    @Override
    public Integer call() throws InterruptedException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        List<TaskWorkKind> ks = kinds.kinds();
        int seconds = this.seconds.value();
        int warmup = this.warmup.value();
        int rounds = this.rounds.value();
        long planned = TimeUnit.SECONDS.toNanos((long) (warmup + seconds) * rounds * ks.size()
                * producers.values().length + (long) warmup * ks.size());
        if (!output.isJson()) {
            out.printf("jring bench twadd: task-work adds into one owner; kinds %s; %d rounds x %d s (+%d s warmup)"
                            + " per kind, after one unmeasured run of each kind; %d items per producer%n",
                    ks, rounds, seconds, warmup, items);
            out.flush();
        }
        try (LiveStatus status = output.startStatus(out, planned)) {
            warmUp(status);
            for (int p : producers.values()) {
                List<Result> results = measure(p, status);
                for (String line : output.isJson() ? jsonLines(results) : humanLines(p, results)) {
                    status.println(out, line);
                }
            }
        }
        out.flush();
        return 0;
    }

    private void validate() {
        BenchOptions.validate(spec);
        BenchOptions.requireRange(spec.commandLine(), "--items", items, MIN_ITEMS, Long.MAX_VALUE);
    }

    /**
     * One unmeasured run of every kind first, so the first kind of round 1 does not pay for
     * compiling the code all kinds share (TaskContext, the owner loop, the producers).
     */
    private void warmUp(LiveStatus status) throws InterruptedException {
        if (warmup.value() == 0) {
            return;
        }
        for (TaskWorkKind k : kinds.kinds()) {
            TwaddTrial trial = new TwaddTrial(k, producers.max(), items);
            trial.run(0L, TimeUnit.SECONDS.toNanos(warmup.value()),
                    () -> status.phase("twadd " + k + " warm-up", "items/s", trial.ranCounter()));
        }
    }

    /** All rounds for one producer count: kinds alternate, each round starting one kind later. */
    List<Result> measure(int p, LiveStatus status) throws InterruptedException {
        List<TaskWorkKind> ks = kinds.kinds();
        int rounds = this.rounds.value();
        Map<TaskWorkKind, double[]> rates = new EnumMap<>(TaskWorkKind.class);
        for (TaskWorkKind k : ks) {
            rates.put(k, new double[rounds]);
        }
        Rotation.run(rounds, ks, (r, i, k) -> {
            TwaddTrial trial = new TwaddTrial(k, p, items);
            String label = "twadd " + k + " producers=" + p + " round " + (r + 1) + "/" + rounds;
            rates.get(k)[r] = trial.run(TimeUnit.SECONDS.toNanos(warmup.value()),
                    TimeUnit.SECONDS.toNanos(seconds.value()), () -> status.phase(label, "items/s", trial.ranCounter()));
        });
        double locked = rates.containsKey(TaskWorkKind.LOCKED)
                ? Rounds.of(rates.get(TaskWorkKind.LOCKED)).median() : Double.NaN;
        List<Result> out = new ArrayList<>();
        for (TaskWorkKind k : ks) {
            Rounds rr = Rounds.of(rates.get(k));
            out.add(new Result(k, p, rr, rr.median() / locked));
        }
        return out;
    }

    List<String> jsonLines(List<Result> results) {
        List<String> lines = new ArrayList<>();
        for (Result r : results) {
            JsonLine j = JsonLine.object()
                    .put("bench", "twadd")
                    .put("kind", r.kind().name())
                    .put("producers", r.producers())
                    .put("ops_per_sec", Math.round(r.rate().median()))
                    .put("spread", r.rate().spread())
                    .put("min", Math.round(r.rate().min()))
                    .put("max", Math.round(r.rate().max()))
                    .put("rounds", r.rate().count())
                    .put("seconds", seconds.value())
                    .put("items_per_producer", items)
                    .put("cores", Runtime.getRuntime().availableProcessors());
            if (!Double.isNaN(r.vsLocked())) {
                j.put("vs_locked", r.vsLocked());
            }
            lines.add(j.toString());
        }
        return lines;
    }

    List<String> humanLines(int p, List<Result> results) {
        int cores = Runtime.getRuntime().availableProcessors();
        int threads = p + 1;
        List<String> lines = new ArrayList<>();
        lines.add(String.format("producers=%d: %d threads on %d cores%s", p, threads, cores,
                threads > cores ? " (oversubscribed)" : ""));
        lines.add(String.format("  %-9s %14s %8s %10s   %s", "kind", "items/s", "spread", "vs LOCKED", "min .. max"));
        for (Result r : results) {
            lines.add(String.format("  %-9s %14s %8s %10s   %s .. %s", r.kind(), Figures.si(r.rate().median()),
                    Figures.percent(r.rate().spread()),
                    Double.isNaN(r.vsLocked()) ? "-" : Figures.fixed(r.vsLocked(), 2) + "x",
                    Figures.si(r.rate().min()), Figures.si(r.rate().max())));
        }
        return lines;
    }
}
