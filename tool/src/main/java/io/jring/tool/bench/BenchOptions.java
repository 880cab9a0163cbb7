package io.jring.tool.bench;

import io.jring.TaskWorkKind;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.util.List;

/**
 * The options several benches take, each declared once here with its allowed range, and
 * mixed into a bench with that bench's default, e.g.
 * {@code @Mixin BenchOptions.Seconds seconds = new BenchOptions.Seconds(5);}. A picocli
 * mixin brings all of its options and the benches take different sets of these, so each
 * option is a mixin of its own. {@link #validate} checks every one a bench mixes in, so no
 * bench can leave one out; a bench's own options use {@link #requireRange} for the same
 * one-line message.
 */
public final class BenchOptions {
    private BenchOptions() {}

    /** A shared option that knows its allowed values. */
    interface Checked {
        void check(CommandLine cl);
    }

    /**
     * Checks every shared option {@code bench} mixes in: picocli's usage error (exit 2)
     * naming the first one out of range and its range.
     */
    public static void validate(CommandSpec bench) {
        for (CommandSpec mixin : bench.mixins().values()) {
            if (mixin.userObject() instanceof Checked c) {
                c.check(bench.commandLine());
            }
        }
    }

    /** Usage error {@code "--name must be min..max, got v"} ({@code ">= min"} for max = Long.MAX_VALUE). */
    public static void requireRange(CommandLine cl, String option, long value, long min, long max) {
        if (value < min || value > max) {
            String range = max == Long.MAX_VALUE ? ">= " + min : min + ".." + max;
            throw new ParameterException(cl, option + " must be " + range + ", got " + value);
        }
    }

    /** {@code --seconds}: the measured window of each run. */
    public static final class Seconds implements Checked {
        @Option(names = "--seconds", paramLabel = "<seconds>",
                description = "Measured seconds per run (default ${DEFAULT-VALUE}).")
        int value;

        public Seconds(int defaultSeconds) {
            value = defaultSeconds;
        }

        public int value() {
            return value;
        }

        @Override
        public void check(CommandLine cl) {
            requireRange(cl, "--seconds", value, 1, Long.MAX_VALUE);
        }
    }

    /** {@code --warmup}: unmeasured time before each measured window. */
    public static final class Warmup implements Checked {
        @Option(names = "--warmup", paramLabel = "<warmup>",
                description = "Unmeasured seconds before each measured run (default ${DEFAULT-VALUE}).")
        int value;

        public Warmup(int defaultSeconds) {
            value = defaultSeconds;
        }

        public int value() {
            return value;
        }

        @Override
        public void check(CommandLine cl) {
            requireRange(cl, "--warmup", value, 0, Long.MAX_VALUE);
        }
    }

    /** {@code --rounds}: how many rounds of alternating runs give each configuration's median. */
    public static final class Rounds implements Checked {
        @Option(names = "--rounds", paramLabel = "<rounds>",
                description = "Rounds, each running every configuration once, alternating; the median of the rounds "
                        + "is reported (default ${DEFAULT-VALUE}).")
        int value;

        private final int min;

        public Rounds(int defaultRounds) {
            this(defaultRounds, 1);
        }

        /** With a floor above 1, for a bench whose figures are medians and ranges of several. */
        public Rounds(int defaultRounds, int min) {
            this.value = defaultRounds;
            this.min = min;
        }

        public int value() {
            return value;
        }

        @Override
        public void check(CommandLine cl) {
            requireRange(cl, "--rounds", value, min, Long.MAX_VALUE);
        }
    }

    /**
     * {@code --kind}: the task-work list strategy of the ring, or, for a bench that compares
     * strategies, the set it compares ({@code all} or a list).
     */
    public static final class Kind implements Checked {
        @Option(names = "--kind", paramLabel = "<kind>[,<kind>..]", converter = KindSet.Converter.class,
                description = "Task-work list strategy: MPSC, LOCKED, PRIORITY or LLIST; a bench that compares "
                        + "strategies takes a list of them, or all (default ${DEFAULT-VALUE}).")
        KindSet kinds;

        private final boolean one;

        private Kind(KindSet defaultKinds, boolean one) {
            this.kinds = defaultKinds;
            this.one = one;
        }

        /** For a bench that runs one ring of one strategy. */
        public static Kind one(TaskWorkKind defaultKind) {
            return new Kind(new KindSet(List.of(defaultKind)), true);
        }

        /** For a bench that compares strategies: {@code "all"}, {@code "PRIORITY,LOCKED"}... */
        public static Kind compared(String defaultKinds) {
            return new Kind(KindSet.parse(defaultKinds), false);
        }

        /** The strategies chosen, in {@link TaskWorkKind} order. */
        public List<TaskWorkKind> kinds() {
            return kinds.kinds();
        }

        /** The one strategy of a {@link #one} bench. */
        public TaskWorkKind single() {
            return kinds.kinds().getFirst();
        }

        @Override
        public void check(CommandLine cl) {
            if (kinds.kinds().isEmpty()) {
                throw new ParameterException(cl, "--kind selects no strategy");
            }
            if (one && kinds.kinds().size() != 1) {
                throw new ParameterException(cl, "--kind must be one of " + List.of(TaskWorkKind.values())
                        + " (this bench runs one ring), got " + kinds);
            }
        }
    }

    /** {@code --anchor}: whether the kernel's own figure is measured alongside (tool/anchors/). */
    public static final class Anchor {
        /** {@code auto}: measure it when gcc and liburing are there; {@code off}: do not. */
        public enum Mode { auto, off }

        @Option(names = "--anchor", paramLabel = "auto|off",
                description = "Also measure the kernel's own io_uring doing the same right before jring's run, and print "
                        + "the ratio of the two. It needs gcc and liburing; auto measures it when they are installed "
                        + "(default ${DEFAULT-VALUE}).")
        Mode mode = Mode.auto;

        public Mode mode() {
            return mode;
        }

        public boolean isOn() {
            return mode != Mode.off;
        }
    }
}
