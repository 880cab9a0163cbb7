package io.jring.kernel;

import io.jring.SqeFlags;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A program of {@link RandomPrograms}: steps in the vocabulary of a {@link Scenario} (submit
 * a batch, write to a pipe or socket from the test thread, reap until quiet, register files)
 * without an expectation, since the kernel's run is the expectation. Knows where it came
 * from (seed, index, attempt, switches), so a failure names the command that replays it.
 * Immutable; the {@code without*} methods make the smaller programs a shrink tries.
 */
final class RandomProgram {
    sealed interface Step permits Submit, Write, Quiet, RegisterFiles {}

    /** Submits the batch. */
    record Submit(List<RandomSqe> sqes) implements Step {}

    /** A blocking write(2) of {@code bytes} bytes to a named descriptor. */
    record Write(String fd, int bytes) implements Step {}

    /** Reaps CQEs until none arrives for {@code millis} (times the run's quiet scale). */
    record Quiet(long millis) implements Step {}

    /** Registers the named descriptors as fixed files 0..n-1 ("-1": a sparse slot). */
    record RegisterFiles(List<String> fds) implements Step {}

    final long seed;
    final int index;
    final int attempt;
    final Set<FuzzFeature> features;
    final String fileContent;
    final int closables;
    final List<Step> steps;

    RandomProgram(long seed, int index, int attempt, Set<FuzzFeature> features, String fileContent, int closables,
            List<Step> steps) {
        this.seed = seed;
        this.index = index;
        this.attempt = attempt;
        this.features = features.isEmpty() ? EnumSet.noneOf(FuzzFeature.class) : EnumSet.copyOf(features);
        this.fileContent = fileContent;
        this.closables = closables;
        this.steps = List.copyOf(steps);
    }

    /** The same program with other steps (two settles in a row become one). */
    private RandomProgram with(List<Step> newSteps) {
        List<Step> out = new ArrayList<>();
        for (Step s : newSteps) {
            if (!(s instanceof Quiet && !out.isEmpty() && out.getLast() instanceof Quiet)) {
                out.add(s);
            }
        }
        return new RandomProgram(seed, index, attempt, features, fileContent, closables, out);
    }

    /** "seed 0x2a, program 17.0": the program's identity. */
    String id() {
        return "seed 0x" + Long.toHexString(seed) + ", program " + index + "." + attempt;
    }

    /** The system properties that replay exactly this program. */
    String replay() {
        return "-Djring.fuzz.seed=0x" + Long.toHexString(seed) + " -Djring.fuzz.program=" + index + "." + attempt
                + " -Djring.fuzz.features=" + FuzzFeature.names(features);
    }

    /** Every SQE, in submission order. */
    List<RandomSqe> sqes() {
        List<RandomSqe> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Submit sub) {
                out.addAll(sub.sqes());
            }
        }
        return out;
    }

    /** SQEs plus writes: what a shrink can remove. */
    int size() {
        return sqes().size() + (int) steps.stream().filter(s -> s instanceof Write).count();
    }

    /** The switched patterns of its SQEs. */
    Set<FuzzFeature> tags() {
        EnumSet<FuzzFeature> out = EnumSet.noneOf(FuzzFeature.class);
        sqes().forEach(s -> out.addAll(s.tags));
        return out;
    }

    /**
     * The user data of each link chain of two or more CQE-posting members, in chain order
     * (Linux issues and completes a chain's members one after another). Link timeouts are
     * left out: a link timeout and the request it times complete in either order.
     */
    List<List<Long>> chains() {
        List<List<Long>> out = new ArrayList<>();
        for (Step s : steps) {
            if (!(s instanceof Submit sub)) {
                continue;
            }
            List<Long> chain = new ArrayList<>();
            for (RandomSqe sqe : sub.sqes()) {
                if (sqe.op != RandomSqe.Op.LINK_TIMEOUT) {
                    chain.add(sqe.ud);
                }
                if (!sqe.links()) {
                    if (chain.size() > 1) {
                        out.add(List.copyOf(chain));
                    }
                    chain.clear();
                }
            }
            if (chain.size() > 1) {
                out.add(List.copyOf(chain));
            }
        }
        return out;
    }

    /**
     * True if every batch keeps the rules {@link RandomPrograms} writes by (a shrink can break
     * them): a LINK_TIMEOUT follows a linking SQE, an SQE Linux fails at prep ends its batch,
     * and no chain is open at the end of a batch unless {@link FuzzFeature#IO_WQ_CHAIN} is on.
     */
    boolean keepsTheRules() {
        boolean skipSeen = false;
        for (Step s : steps) {
            if (!(s instanceof Submit sub)) {
                continue;
            }
            List<RandomSqe> b = sub.sqes();
            for (int i = 0; i < b.size(); i++) {
                RandomSqe q = b.get(i);
                boolean last = i == b.size() - 1;
                skipSeen |= q.has(SqeFlags.CQE_SKIP_SUCCESS);
                boolean afterTimeout = i > 0 && b.get(i - 1).op == RandomSqe.Op.LINK_TIMEOUT;
                boolean badTimeout = q.op == RandomSqe.Op.LINK_TIMEOUT
                        && (i == 0 || !b.get(i - 1).links() || afterTimeout);
                boolean failsPrep = badTimeout || q.op == RandomSqe.Op.BAD_OPCODE || (q.sqeFlags & 0x80) != 0
                        || q.has(SqeFlags.IO_DRAIN) && skipSeen
                        || q.op == RandomSqe.Op.POLL_MULTISHOT && q.has(SqeFlags.CQE_SKIP_SUCCESS);
                if (failsPrep && !last || badTimeout && q.has(SqeFlags.IO_DRAIN)
                        || last && q.links() && !features.contains(FuzzFeature.IO_WQ_CHAIN)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The number of SQEs of each Submit step, in order. */
    List<Integer> batchSizes() {
        return steps.stream().filter(s -> s instanceof Submit).map(s -> ((Submit) s).sqes().size()).toList();
    }

    /** The program without the {@code sqe}-th SQE of step {@code step} (a Submit). */
    RandomProgram withoutSqe(int step, int sqe) {
        List<Step> copy = new ArrayList<>(steps);
        List<RandomSqe> batch = new ArrayList<>(((Submit) steps.get(step)).sqes());
        batch.remove(sqe);
        if (batch.isEmpty()) {
            copy.remove(step);
        } else {
            copy.set(step, new Submit(batch));
        }
        return with(copy);
    }

    /** The program without step {@code step}. */
    RandomProgram withoutStep(int step) {
        List<Step> copy = new ArrayList<>(steps);
        copy.remove(step);
        return with(copy);
    }

    /** The program without the SQEs tagged {@code feature}. */
    RandomProgram withoutTag(FuzzFeature feature) {
        List<Step> copy = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Submit sub) {
                List<RandomSqe> kept = sub.sqes().stream().filter(q -> !q.tags.contains(feature)).toList();
                if (!kept.isEmpty()) {
                    copy.add(new Submit(kept));
                }
            } else {
                copy.add(s);
            }
        }
        return with(copy);
    }

    /** The script in the form of {@link Scenario#script()}. */
    String script() {
        StringBuilder s = new StringBuilder();
        if (fileContent != null) {
            s.append("  file of ").append(fileContent.length()).append(" bytes\n");
        }
        for (Step step : steps) {
            switch (step) {
                case Submit sub -> {
                    s.append("  submit:\n");
                    for (RandomSqe sqe : sub.sqes()) {
                        s.append("    ").append(sqe).append('\n');
                    }
                }
                case Write w -> s.append("  write ").append(w.bytes()).append(" bytes to ").append(w.fd()).append('\n');
                case Quiet q -> s.append("  quiet for ").append(q.millis()).append(" ms\n");
                case RegisterFiles r -> s.append("  register files ").append(r.fds()).append('\n');
            }
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return id();
    }
}
