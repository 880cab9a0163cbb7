package io.jring.kernel;

import io.jring.Errno;
import io.jring.IoUringException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs a {@link Scenario} on one ring (kernel or jring) and records what happened: the value
 * of every submit and the CQE stream, then compares that with the scenario's expectation.
 * Every wait is bounded; after the expected number of CQEs it watches a short quiet period
 * so that an extra CQE shows up as a difference.
 */
final class ScenarioRunner {
    /** Bound of one wait; far above what a passing run needs. */
    static final Duration WAIT = Duration.ofSeconds(2);
    /** How long "nothing more arrives" is watched (absence checks only). */
    static final Duration QUIET = Duration.ofMillis(20);

    private ScenarioRunner() {}

    /** What one run produced. {@code error} is null unless a step threw or a wait ran out. */
    record Outcome(String ring, List<Integer> submits, List<CqeSpec> cqes, String error) {
        @Override
        public String toString() {
            return ring + ": submits " + submits + ", CQEs " + cqes + (error == null ? "" : ", error: " + error);
        }
    }

    /** Runs {@code scenario} on a fresh ring from {@code rings} (setup flags -> driver) with fresh resources. */
    static Outcome run(Scenario scenario, int setupFlags, IntFunction<RingDriver> rings, Path dir) {
        List<Integer> submits = new ArrayList<>();
        List<CqeSpec> cqes = new ArrayList<>();
        String error = null;
        String ringName = "?";
        try (ScenarioEnv env = new ScenarioEnv(dir, scenario.fileContent)) {
            try (RingDriver ring = rings.apply(setupFlags)) {
                ringName = ring.name();
                error = runSteps(scenario, ring, env, submits, cqes);
                if (error == null) {
                    while (cqes.size() < scenario.expectedCount()) {
                        CqeSpec c = ring.waitCqe(WAIT);
                        if (c == null) {
                            error = "only " + cqes.size() + " of " + scenario.expectedCount() + " CQEs within " + WAIT;
                            break;
                        }
                        cqes.add(c);
                    }
                    quiet(ring, cqes, QUIET);
                }
            } catch (IoUringException e) {
                error = "threw " + Errno.name(e.errno()) + ": " + e.getMessage();
            }
        }
        return new Outcome(ringName, List.copyOf(submits), List.copyOf(cqes), error);
    }

    private static String runSteps(Scenario scenario, RingDriver ring, ScenarioEnv env, List<Integer> submits,
            List<CqeSpec> cqes) {
        for (Scenario.Step step : scenario.steps) {
            switch (step) {
                case Scenario.Submit s -> {
                    for (SqeSpec spec : s.sqes()) {
                        SqeWriter sqe = ring.nextSqe();
                        if (sqe == null) {
                            return "SQ full";
                        }
                        spec.writeTo(sqe, env);
                    }
                    submits.add(ring.submit());
                }
                case Scenario.Write w -> env.write(w.fd(), w.data());
                case Scenario.Read r -> env.read(r.fd(), r.count());
                case Scenario.Reap r -> {
                    for (int i = 0; i < r.count(); i++) {
                        CqeSpec c = ring.waitCqe(WAIT);
                        if (c == null) {
                            return "reap: only " + i + " of " + r.count() + " CQEs within " + WAIT;
                        }
                        cqes.add(c);
                    }
                }
                case Scenario.Quiet q -> quiet(ring, cqes, Duration.ofMillis(q.millis()));
                case Scenario.RegisterFiles r -> {
                    int[] fds = r.fds().stream().mapToInt(n -> n.equals("-1") ? -1 : env.fd(n)).toArray();
                    ring.registerFiles(fds);
                }
                case Scenario.CloseFd c -> env.close(c.fd());
                case Scenario.Custom c -> {
                    String problem = c.action().apply(ring, env);
                    if (problem != null) {
                        return c.text() + ": " + problem;
                    }
                }
            }
        }
        return null;
    }

    /** Records whatever arrives within {@code quiet} (nothing, when all is well). */
    private static void quiet(RingDriver ring, List<CqeSpec> cqes, Duration quiet) {
        ring.settle();
        for (int extra = 0; extra < 16; extra++) {
            CqeSpec c = ring.waitCqe(quiet);
            if (c == null) {
                return;
            }
            cqes.add(c);
        }
    }

    /** Null if {@code outcome} is what {@code scenario} expects, else what differs. */
    static String mismatch(Scenario scenario, Outcome outcome) {
        List<Integer> wantSubmits = scenario.steps.stream()
                .filter(s -> s instanceof Scenario.Submit)
                .map(s -> ((Scenario.Submit) s).expectedReturn())
                .toList();
        List<String> problems = new ArrayList<>();
        if (outcome.error() != null) {
            problems.add(outcome.error());
        }
        if (!wantSubmits.equals(outcome.submits()) && outcome.error() == null) {
            problems.add("submits returned " + outcome.submits() + ", expected " + wantSubmits);
        }
        if (!matches(scenario.expected, outcome.cqes())) {
            problems.add("CQEs " + outcome.cqes() + ", expected " + describe(scenario.expected));
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** The stream is the groups in order, each group's CQEs in any order. */
    static boolean matches(List<List<CqeSpec>> groups, List<CqeSpec> stream) {
        int total = groups.stream().mapToInt(List::size).sum();
        if (total != stream.size()) {
            return false;
        }
        int at = 0;
        Comparator<CqeSpec> order = Comparator.comparingLong(CqeSpec::userData)
                .thenComparingInt(CqeSpec::res).thenComparingInt(CqeSpec::flags);
        for (List<CqeSpec> group : groups) {
            List<CqeSpec> want = new ArrayList<>(group);
            List<CqeSpec> got = new ArrayList<>(stream.subList(at, at + group.size()));
            want.sort(order);
            got.sort(order);
            if (!want.equals(got)) {
                return false;
            }
            at += group.size();
        }
        return true;
    }

    static String describe(List<List<CqeSpec>> groups) {
        StringBuilder s = new StringBuilder("[");
        for (List<CqeSpec> g : groups) {
            if (s.length() > 1) {
                s.append(", ");
            }
            if (g.size() == 1) {
                s.append(g.get(0));
            } else {
                s.append("any order of ").append(g);
            }
        }
        return s.append(']').toString();
    }
}
