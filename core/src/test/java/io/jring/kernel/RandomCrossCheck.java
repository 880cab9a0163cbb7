package io.jring.kernel;

import io.jring.Setup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * A pass of random programs ({@link RandomPrograms}) over the kernel's io_uring and jring:
 * each program runs twice on the kernel per ring kind (a program whose two kernel runs
 * differ is dropped and written again, and counted), then on jring; a difference that
 * survives a slower rerun is a finding, classified by the switches it needs and, for the
 * first findings of each cause, shrunk. Programs run in parallel on a few threads (a run
 * mostly waits), each program's runs on one thread.
 */
final class RandomCrossCheck {
    static final int DEFER = Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN;
    /** Attempts at writing program i before giving up on it (each dropped one counts). */
    static final int ATTEMPTS = 4;
    /** Bound of one program's runs (kernel, jring, classification, shrink). */
    static final long PROGRAM_BOUND_SECONDS = 300;

    /** What to run; {@link #fromProperties} documents the system properties. */
    record Config(long seed, int from, int count, int attempt, Set<FuzzFeature> features, int[] setups, int threads,
            double quietScale, int shrinkPerCause) {
        /**
         * {@code jring.fuzz.seed} (default {@code defaultSeed}), {@code jring.fuzz.count},
         * {@code jring.fuzz.from} (first program index, 0), {@code jring.fuzz.program}
         * ({@code 17} or {@code 17.1}: only that program, that attempt),
         * {@code jring.fuzz.features} (ALL, NONE, FIXED or names; default FIXED),
         * {@code jring.fuzz.rings} (plain,defer), {@code jring.fuzz.threads} (3),
         * {@code jring.fuzz.quietScale} (1.0), {@code jring.fuzz.shrink} (findings shrunk
         * per cause, 2).
         */
        static Config fromProperties(long defaultSeed, int defaultCount) {
            long seed = Long.decode(System.getProperty("jring.fuzz.seed", Long.toString(defaultSeed)));
            int from = Integer.parseInt(System.getProperty("jring.fuzz.from", "0"));
            int count = Integer.parseInt(System.getProperty("jring.fuzz.count", Integer.toString(defaultCount)));
            int attempt = -1;
            String program = System.getProperty("jring.fuzz.program");
            if (program != null) {
                String[] parts = program.split("\\.");
                from = Integer.parseInt(parts[0]);
                count = 1;
                attempt = parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
            }
            Set<FuzzFeature> features = FuzzFeature.parse(System.getProperty("jring.fuzz.features", "FIXED"));
            int[] setups = Arrays.stream(System.getProperty("jring.fuzz.rings", "plain,defer").split(","))
                    .map(String::trim).mapToInt(r -> r.equalsIgnoreCase("defer") ? DEFER : 0).toArray();
            int threads = Integer.parseInt(System.getProperty("jring.fuzz.threads", "3"));
            double scale = Double.parseDouble(System.getProperty("jring.fuzz.quietScale", "1.0"));
            int shrink = Integer.parseInt(System.getProperty("jring.fuzz.shrink", "2"));
            return new Config(seed, from, count, attempt, features, setups, threads, scale, shrink);
        }
    }

    /** A confirmed difference. */
    record Finding(RandomProgram program, int setup, ProgramCheck.Verdict verdict, Set<FuzzFeature> causes,
            RandomProgram shrunk, ProgramCheck.Verdict shrunkVerdict) {
        /** The switches behind it ("A + B": each alone differs), or "unclassified" (none explains it). */
        String cause() {
            return causes.isEmpty() ? "unclassified"
                    : causes.stream().map(Enum::name).collect(Collectors.joining(" + "));
        }

        String report() {
            RandomProgram p = shrunk != null ? shrunk : program;
            ProgramCheck.Verdict v = shrunkVerdict != null ? shrunkVerdict : verdict;
            StringBuilder s = new StringBuilder("jring differs from the kernel on a ").append(ring(setup))
                    .append(" ring: ").append(program.id()).append(" (cause: ").append(cause()).append(")\n");
            s.append("  replay: mvn -o -q -pl core test -Dtest=RandomCrossCheckTest ").append(program.replay())
                    .append(" -Djring.fuzz.rings=").append(setup == DEFER ? "defer" : "plain").append('\n');
            if (shrunk != null) {
                s.append("  shrunk from ").append(program.size()).append(" to ").append(shrunk.size())
                        .append(" SQEs and writes:\n");
            }
            s.append(p.script());
            s.append("  differences:\n    ").append(v.diff().replace("\n", "\n    ")).append('\n');
            s.append("  ").append(v.kernel()).append("\n  ").append(v.jring()).append('\n');
            return s.toString();
        }
    }

    /** What a pass found. */
    record Summary(Config config, int programs, int dropped, int givenUp, int flaky, int hung, List<Finding> findings,
            List<String> notes, long millis) {
        /** Per switch (and "unclassified") and ring kind: the findings it is behind, alone or with others. */
        Map<String, Integer> byCause() {
            Map<String, Integer> out = new TreeMap<>();
            for (Finding f : findings) {
                String ring = " [" + ring(f.setup()) + "]";
                if (f.causes().isEmpty()) {
                    out.merge("unclassified" + ring, 1, Integer::sum);
                }
                f.causes().forEach(c -> out.merge(c.name() + ring, 1, Integer::sum));
                if (f.causes().size() > 1) {
                    out.merge("(of these, with two or more causes)" + ring, 1, Integer::sum);
                }
            }
            return out;
        }

        /** Distinct programs with a finding on some ring. */
        long differingPrograms() {
            return findings.stream().map(f -> f.program().index).distinct().count();
        }

        String report() {
            StringBuilder s = new StringBuilder("random cross-check: seed 0x").append(Long.toHexString(config.seed()))
                    .append(", programs ").append(config.from()).append("..").append(config.from() + config.count() - 1)
                    .append(" on ").append(Arrays.stream(config.setups()).mapToObj(RandomCrossCheck::ring)
                            .collect(Collectors.joining(" and "))).append(" rings, switches ")
                    .append(FuzzFeature.names(config.features())).append(": ").append(programs).append(" run, ")
                    .append(differingPrograms()).append(" differ; ").append(dropped)
                    .append(" dropped (two kernel runs differed), ").append(givenUp).append(" given up, ").append(flaky)
                    .append(" agreed only on a slower rerun, ").append(hung).append(" hung, ")
                    .append(ProgramRunner.HUNG_CLOSES.get()).append(" jring closes that did not return; ")
                    .append(millis / 1000.0).append(" s\n");
            byCause().forEach((cause, n) -> s.append("  ").append(n).append(" x ").append(cause).append('\n'));
            // The shrunk ones first: one per cause and ring kind reads best.
            findings.stream().sorted(Comparator.comparing(f -> f.shrunk() == null)).limit(12)
                    .forEach(f -> s.append(f.report()));
            if (Boolean.getBoolean("jring.fuzz.verbose")) {
                notes.forEach(u -> s.append(u).append('\n'));
            }
            return s.toString();
        }
    }

    static String ring(int setup) {
        return setup == DEFER ? "DEFER_TASKRUN" : setup == 0 ? "plain" : "setup 0x" + Integer.toHexString(setup);
    }

    private record ProgramResult(List<String> unstable, boolean givenUp, int flaky, List<Finding> findings) {}

    static Summary run(Config c, Path dir) throws InterruptedException {
        long start = System.nanoTime();
        ProgramCheck check = new ProgramCheck(dir, c.quietScale());
        Map<String, AtomicInteger> shrunkPerCause = new LinkedHashMap<>();
        AtomicInteger threadNo = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, c.threads()), r -> Thread.ofPlatform()
                .daemon().name("random-cross-check-" + threadNo.incrementAndGet()).unstarted(r));
        List<Future<ProgramResult>> futures = new ArrayList<>();
        for (int i = c.from(); i < c.from() + c.count(); i++) {
            int index = i;
            futures.add(pool.submit(() -> one(c, check, index, shrunkPerCause)));
        }
        List<String> unstable = new ArrayList<>();
        int givenUp = 0;
        int flaky = 0;
        int hung = 0;
        List<Finding> findings = new ArrayList<>();
        for (Future<ProgramResult> f : futures) {
            try {
                ProgramResult r = f.get(PROGRAM_BOUND_SECONDS, TimeUnit.SECONDS);
                unstable.addAll(r.unstable());
                givenUp += r.givenUp() ? 1 : 0;
                flaky += r.flaky();
                findings.addAll(r.findings());
            } catch (TimeoutException e) {
                hung++;
                f.cancel(true);
            } catch (ExecutionException e) {
                throw new IllegalStateException("the random cross-check failed to run a program", e.getCause());
            }
        }
        pool.shutdownNow();
        int dropped = (int) unstable.stream().filter(n -> n.startsWith("dropped")).count();
        return new Summary(c, c.count(), dropped, givenUp, flaky, hung, findings, unstable,
                (System.nanoTime() - start) / 1_000_000);
    }

    private static ProgramResult one(Config c, ProgramCheck check, int index, Map<String, AtomicInteger> shrunk) {
        if (ProgramRunner.HUNG_CLOSES.get() >= ProgramRunner.MAX_HUNG_CLOSES) {
            return new ProgramResult(List.of("skipped " + index + ": too many hung closes"), true, 0, List.of());
        }
        List<String> dropped = new ArrayList<>();
        int first = c.attempt() >= 0 ? c.attempt() : 0;
        int last = c.attempt() >= 0 ? c.attempt() : ATTEMPTS - 1;
        for (int attempt = first; attempt <= last; attempt++) {
            RandomProgram p = RandomPrograms.generate(c.seed(), index, attempt, c.features());
            Map<Integer, ProgramRunner.Outcome> kernel = new LinkedHashMap<>();
            boolean stable = true;
            for (int setup : c.setups()) {
                ProgramRunner.Outcome k = check.kernel(p, setup, 1);
                String unstable = check.kernelInstability(p, setup, k);
                if (unstable != null) {
                    dropped.add("dropped " + p.id() + " [" + ring(setup) + "]: " + unstable + "\n" + p.script());
                    stable = false;
                    break;
                }
                kernel.put(setup, k);
            }
            if (!stable) {
                continue;
            }
            int flaky = 0;
            List<Finding> findings = new ArrayList<>();
            for (int setup : c.setups()) {
                ProgramCheck.Verdict v = check.against(p, setup, kernel.get(setup));
                if (v.confirmedOnRerun()) {
                    flaky++;
                    dropped.add("agreed only on a slower rerun: " + p.id() + " [" + ring(setup) + "]\n"
                            + p.script());
                }
                if (v.kind() == ProgramCheck.Kind.DIFFERENT) {
                    findings.add(finding(c, check, p, setup, v, shrunk));
                }
            }
            return new ProgramResult(dropped, false, flaky, findings);
        }
        return new ProgramResult(dropped, true, 0, List.of());
    }

    private static Finding finding(Config c, ProgramCheck check, RandomProgram p, int setup, ProgramCheck.Verdict v,
            Map<String, AtomicInteger> shrunk) {
        boolean hung = v.jring().error() != null && v.jring().error().contains("did not return");
        if (hung) {
            // Each rerun would leave one more thread behind: the tags are the best guess.
            return new Finding(p, setup, v, p.tags(), null, null);
        }
        Set<FuzzFeature> causes = p.tags().isEmpty() ? EnumSet.noneOf(FuzzFeature.class) : check.causes(p, setup);
        Finding unshrunk = new Finding(p, setup, v, causes, null, null);
        AtomicInteger n;
        synchronized (shrunk) {
            n = shrunk.computeIfAbsent(unshrunk.cause() + setup, k -> new AtomicInteger());
        }
        if (n.getAndIncrement() >= c.shrinkPerCause()) {
            return unshrunk;
        }
        RandomProgram small = check.shrink(p, setup, causes, 120);
        ProgramCheck.Verdict sv = check.check(small, setup);
        return sv.kind() == ProgramCheck.Kind.DIFFERENT ? new Finding(p, setup, v, causes, small, sv) : unshrunk;
    }
}
