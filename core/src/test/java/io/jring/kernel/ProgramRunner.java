package io.jring.kernel;

import io.jring.Fds;
import io.jring.OpenFlags;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a {@link RandomProgram} on a fresh kernel or jring ring with fresh descriptors
 * ({@link ScenarioEnv}) and records the value of each submit and every CQE in arrival order.
 * A {@code Quiet} step reaps until no CQE has come for its time (times {@code quietScale}),
 * which is how a program waits for io-wq, timers and wakeups without knowing how many CQEs
 * they make.
 *
 * <p>The descriptors a CLOSE closes ({@code c0}, {@code c1}...) are duplicates of /dev/null
 * at numbers reserved for the run (far above what the process uses), so a CLOSE can never
 * close, nor the end of the run close again, a descriptor some other code got since.
 */
final class ProgramRunner {
    static final int F_DUPFD_CLOEXEC = 1030;
    /** Reserved descriptor numbers: slot s owns [BASE + s * PER_SLOT, BASE + (s + 1) * PER_SLOT). */
    static final int RESERVED_BASE = 12_000;
    static final int PER_SLOT = 16;
    static final int SLOTS = 256;
    /** A bound on CQEs per run: a multishot request posting without end is a difference, not a hang. */
    static final int MAX_CQES = 4096;

    /** How long a ring's close() may take. */
    static final Duration CLOSE_BOUND = Duration.ofSeconds(10);
    /** Closes that did not return, in this JVM. */
    static final AtomicInteger HUNG_CLOSES = new AtomicInteger();
    /**
     * After this many, jring runs are refused: each hung close leaves a thread behind that may
     * spin, and a shared machine should not pay for more than a few.
     */
    static final int MAX_HUNG_CLOSES = 4;

    /** Free slots; a run that never returns (a hang) keeps its slot. */
    private static final ConcurrentLinkedQueue<Integer> FREE_SLOTS = new ConcurrentLinkedQueue<>();

    static {
        for (int s = 0; s < SLOTS; s++) {
            FREE_SLOTS.add(s);
        }
    }

    private ProgramRunner() {}

    /** What one run produced; {@code error} is null unless a step threw or a limit was hit. */
    record Outcome(String ring, List<Integer> submits, List<CqeSpec> cqes, String error) {
        @Override
        public String toString() {
            return ring + ": submits " + submits + ", CQEs " + cqes + (error == null ? "" : ", error: " + error);
        }
    }

    static Outcome run(RandomProgram program, int setupFlags, boolean kernel, Path dir, double quietScale) {
        if (!kernel && HUNG_CLOSES.get() >= MAX_HUNG_CLOSES) {
            return new Outcome("jring", List.of(), List.of(), "not run: " + HUNG_CLOSES.get()
                    + " jring closes did not return in this JVM");
        }
        List<Integer> submits = new ArrayList<>();
        List<CqeSpec> cqes = new ArrayList<>();
        String error = null;
        Integer slot = FREE_SLOTS.poll();
        if (slot == null) {
            throw new IllegalStateException("no reserved descriptor slot left");
        }
        int[] closables = new int[program.closables];
        try (ScenarioEnv env = new ScenarioEnv(dir, program.fileContent)) {
            for (int i = 0; i < closables.length; i++) {
                closables[i] = reserve(RESERVED_BASE + slot * PER_SLOT + i);
            }
            Run run = new Run(env, closables);
            ProgramRing ring = null;
            try {
                ring = ProgramRing.open(kernel, setupFlags);
                run.ring = ring;
                error = run.steps(program, submits, cqes, quietScale);
            } catch (RuntimeException e) {
                error = "threw " + e;
            } finally {
                String closeError = ring == null ? null : close(ring);
                error = error != null ? error : closeError;
            }
        } finally {
            for (int fd : closables) {
                if (fd > 0) {
                    try {
                        Fds.close(fd);
                    } catch (RuntimeException ignored) {
                        // closed by the program's CLOSE
                    }
                }
            }
            FREE_SLOTS.add(slot);
        }
        return new Outcome(kernel ? "kernel" : "jring", List.copyOf(submits), List.copyOf(cqes), error);
    }

    /**
     * Closes {@code ring} on a helper thread, waiting at most {@link #CLOSE_BOUND}: a close that
     * does not return is a finding (its thread is left behind, and {@link #HUNG_CLOSES} counts
     * it so that a pass can stop before such threads pile up). Null if it closed.
     */
    private static String close(ProgramRing ring) {
        Thread t = Thread.ofPlatform().daemon().name("random-program-close").start(ring::close);
        try {
            if (t.join(CLOSE_BOUND)) {
                return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        HUNG_CLOSES.incrementAndGet();
        return "close() did not return within " + CLOSE_BOUND.toSeconds() + " s";
    }

    /** A duplicate of /dev/null at exactly {@code number}. */
    private static int reserve(int number) {
        int fd = Fds.open(Path.of("/dev/null"), OpenFlags.RDONLY, 0);
        try {
            int dup = FsCalls.fcntl(SysCallContext.current(), fd, F_DUPFD_CLOEXEC, number);
            if (dup != number) {
                if (dup >= 0) {
                    Fds.close(dup);
                }
                throw new IllegalStateException("descriptor " + number + " is taken (got " + dup + ")");
            }
            return dup;
        } finally {
            Fds.close(fd);
        }
    }

    /** One run's resources: the names of the program resolved to this run's descriptors and ring. */
    private static final class Run implements RandomSqe.Target {
        private final ScenarioEnv env;
        private final int[] closables;
        private ProgramRing ring;

        Run(ScenarioEnv env, int[] closables) {
            this.env = env;
            this.closables = closables;
        }

        @Override
        public int fd(String name) {
            if (name.length() > 1 && name.charAt(0) == 'c' && Character.isDigit(name.charAt(1))) {
                return closables[Integer.parseInt(name.substring(1))];
            }
            return env.fd(name);
        }

        @Override
        public ScenarioEnv env() {
            return env;
        }

        @Override
        public void prepMsgRingToSelf(SqeWriter sqe, int len, long data, int msgFlags, int cqeFlags) {
            ring.prepMsgRingToSelf(sqe, len, data, msgFlags, cqeFlags);
        }

        String steps(RandomProgram program, List<Integer> submits, List<CqeSpec> cqes, double quietScale) {
            for (RandomProgram.Step step : program.steps) {
                try {
                    switch (step) {
                        case RandomProgram.Submit s -> {
                            for (RandomSqe sqe : s.sqes()) {
                                SqeWriter w = ring.nextSqe();
                                if (w == null) {
                                    return "SQ full";
                                }
                                sqe.writeTo(w, this);
                            }
                            submits.add(ring.submit());
                        }
                        case RandomProgram.Write w -> env.write(w.fd(), "x".repeat(w.bytes()));
                        case RandomProgram.Quiet q -> {
                            Duration window = Duration.ofNanos((long) (q.millis() * 1_000_000L * quietScale));
                            for (CqeSpec c = ring.waitCqe(window); c != null; c = ring.waitCqe(window)) {
                                cqes.add(c);
                                if (cqes.size() >= MAX_CQES) {
                                    return "more than " + MAX_CQES + " CQEs";
                                }
                            }
                        }
                        case RandomProgram.RegisterFiles r -> ring.registerFiles(
                                r.fds().stream().mapToInt(n -> n.equals("-1") ? -1 : fd(n)).toArray());
                    }
                } catch (RuntimeException | OutOfMemoryError e) {
                    return step.getClass().getSimpleName().toLowerCase() + " threw " + e;
                }
            }
            return null;
        }
    }
}
