package io.jring.kernel;

import io.jring.Setup;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A scripted io_uring conversation and the CQEs Linux answers with: steps (submit a batch of
 * {@link SqeSpec}s, write to a pipe, register files, reap, check that nothing is pending) and
 * the expected CQE stream. The stream is a list of groups: groups come in order, CQEs inside
 * a group in any order, so "order is defined" is a list of one-CQE groups and "order is not
 * defined" is one group. Also the value each submit must return.
 *
 * <p>Run by {@link ScenarioRunner} against the kernel ({@link KernelRing}) and against jring.
 * Immutable once built.
 */
public final class Scenario {
    /** One step of the script. */
    sealed interface Step {}

    /** Submits the batch; the submit must return {@code expectedReturn}. */
    record Submit(List<SqeSpec> sqes, int expectedReturn) implements Step {}

    /** A blocking write(2) of ASCII data to a named descriptor, from the submitting thread. */
    record Write(String fd, String data) implements Step {}

    /** A blocking read(2) of exactly {@code count} bytes from a named descriptor (data is discarded). */
    record Read(String fd, int count) implements Step {}

    /** Waits for (and records) {@code count} CQEs before the next step. */
    record Reap(int count) implements Step {}

    /** Checks that no CQE arrives for {@code millis} (recording any that does). */
    record Quiet(long millis) implements Step {}

    /** Registers the named descriptors as fixed files 0..n-1 (a name "-1" is a sparse slot). */
    record RegisterFiles(List<String> fds) implements Step {}

    /** Closes a named descriptor. */
    record CloseFd(String fd) implements Step {}

    /**
     * Anything else a scenario does between submits (register a buffer ring, add buffers,
     * check its head): the action returns null, or what went wrong.
     */
    record Custom(String text, java.util.function.BiFunction<RingDriver, ScenarioEnv, String> action)
            implements Step {}

    final String name;
    final String mirrors;
    final String fileContent;
    final List<Step> steps;
    final List<List<CqeSpec>> expected;
    final int[] ringKinds;

    private Scenario(Builder b) {
        this.name = b.name;
        this.mirrors = b.mirrors;
        this.fileContent = b.fileContent;
        this.steps = List.copyOf(b.steps);
        this.expected = List.copyOf(b.expected);
        this.ringKinds = b.ringKinds;
    }

    public String name() {
        return name;
    }

    /** The total number of CQEs expected. */
    int expectedCount() {
        return expected.stream().mapToInt(List::size).sum();
    }

    /** True if the order of the whole stream is defined (every group holds one CQE). */
    boolean fullyOrdered() {
        return expected.stream().allMatch(g -> g.size() == 1);
    }

    /** Setup flags of the rings this scenario runs on. */
    int[] ringKinds() {
        return ringKinds.clone();
    }

    @Override
    public String toString() {
        return name;
    }

    /** The script as text, for failure messages. */
    String script() {
        StringBuilder s = new StringBuilder();
        for (Step step : steps) {
            switch (step) {
                case Submit sub -> {
                    s.append("  submit (expect ").append(sub.expectedReturn()).append("):\n");
                    for (SqeSpec sqe : sub.sqes()) {
                        s.append("    ").append(sqe).append('\n');
                    }
                }
                case Write w -> s.append("  write \"").append(w.data()).append("\" to ").append(w.fd()).append('\n');
                case Read r -> s.append("  read ").append(r.count()).append(" from ").append(r.fd()).append('\n');
                case Reap r -> s.append("  reap ").append(r.count()).append('\n');
                case Quiet q -> s.append("  quiet for ").append(q.millis()).append(" ms\n");
                case RegisterFiles r -> s.append("  register files ").append(r.fds()).append('\n');
                case CloseFd c -> s.append("  close ").append(c.fd()).append('\n');
                case Custom c -> s.append("  ").append(c.text()).append('\n');
            }
        }
        return s.toString();
    }

    public static Builder named(String name, String mirrors) {
        return new Builder(name, mirrors);
    }

    /** Builds a scenario step by step. */
    public static final class Builder {
        private final String name;
        private final String mirrors;
        private String fileContent;
        private final List<Step> steps = new ArrayList<>();
        private final List<List<CqeSpec>> expected = new ArrayList<>();
        private int[] ringKinds = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN};

        private Builder(String name, String mirrors) {
            this.name = name;
            this.mirrors = mirrors;
        }

        /** The scenario's temp file ("file") starts with these ASCII bytes. */
        public Builder file(String content) {
            this.fileContent = content;
            return this;
        }

        /** Only on rings with these setup flags (default: plain and DEFER_TASKRUN). */
        public Builder rings(int... setupFlags) {
            this.ringKinds = setupFlags.clone();
            return this;
        }

        /** Submits these SQEs; the submit must consume all of them. */
        public Builder submit(SqeSpec... sqes) {
            return submitExpecting(sqes.length, sqes);
        }

        public Builder submitExpecting(int expectedReturn, SqeSpec... sqes) {
            steps.add(new Submit(Arrays.asList(sqes), expectedReturn));
            return this;
        }

        public Builder write(String fd, String data) {
            steps.add(new Write(fd, data));
            return this;
        }

        public Builder read(String fd, int count) {
            steps.add(new Read(fd, count));
            return this;
        }

        public Builder reap(int count) {
            steps.add(new Reap(count));
            return this;
        }

        /** Nothing arrives for a short while ({@link ScenarioRunner#QUIET}). */
        public Builder quiet() {
            steps.add(new Quiet(ScenarioRunner.QUIET.toMillis()));
            return this;
        }

        /** Nothing arrives for {@code millis}: also lets ASYNC requests settle in io-wq. */
        public Builder quiet(long millis) {
            steps.add(new Quiet(millis));
            return this;
        }

        public Builder registerFiles(String... fds) {
            steps.add(new RegisterFiles(List.of(fds)));
            return this;
        }

        public Builder close(String fd) {
            steps.add(new CloseFd(fd));
            return this;
        }

        /** A step of the scenario's own ({@link Custom}). */
        public Builder step(String text, java.util.function.BiFunction<RingDriver, ScenarioEnv, String> action) {
            steps.add(new Custom(text, action));
            return this;
        }

        /** These CQEs come next, in this order. */
        public Builder expect(CqeSpec... cqes) {
            for (CqeSpec c : cqes) {
                expected.add(List.of(c));
            }
            return this;
        }

        /** These CQEs come next, in any order among themselves. */
        public Builder expectAnyOrder(CqeSpec... cqes) {
            expected.add(List.of(cqes));
            return this;
        }

        public Scenario build() {
            return new Scenario(this);
        }
    }
}
