package io.jring.kernel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Runs one {@link RandomProgram} on one kind of ring, on the kernel twice and on jring, and
 * says whether jring agrees; classifies a difference by the switched patterns it needs, and
 * shrinks it (drops batches, SQEs and writes while it still differs) so that it reads as a
 * small scenario.
 *
 * <p>A difference is believed only when it survives a rerun of both sides with settles
 * {@link #CONFIRM_SCALE} times longer, so a slow moment of a loaded machine is not a finding.
 */
final class ProgramCheck {
    static final double CONFIRM_SCALE = 4;

    /** What a check found. */
    enum Kind { SAME, DIFFERENT, KERNEL_UNSTABLE }

    /** The verdict, with the runs behind it (the confirming runs for a difference). */
    record Verdict(Kind kind, String diff, ProgramRunner.Outcome kernel, ProgramRunner.Outcome jring,
            boolean confirmedOnRerun) {}

    private final Path dir;
    private final double quietScale;

    ProgramCheck(Path dir, double quietScale) {
        this.dir = dir;
        this.quietScale = quietScale;
    }

    ProgramRunner.Outcome kernel(RandomProgram p, int setup, double scale) {
        return ProgramRunner.run(p, setup, true, dir, quietScale * scale);
    }

    /** Null when the kernel gave the same outcome twice (and no error), else what differed. */
    String kernelInstability(RandomProgram p, int setup, ProgramRunner.Outcome first) {
        if (first.error() != null) {
            return "the kernel run failed: " + first.error();
        }
        if (!first.submits().equals(p.batchSizes())) {
            // An SQE the generator did not know fails at prep stopped a submit: the batches
            // are not what the rules were applied to.
            return "the kernel's submits " + first.submits() + " are not the batches " + p.batchSizes();
        }
        return OutcomeDiff.between(p, first, kernel(p, setup, 1));
    }

    /** Compares jring with a stable kernel outcome {@code kernel}. */
    Verdict against(RandomProgram p, int setup, ProgramRunner.Outcome kernel) {
        ProgramRunner.Outcome jring = ProgramRunner.run(p, setup, false, dir, quietScale);
        if (OutcomeDiff.between(p, kernel, jring) == null) {
            return new Verdict(Kind.SAME, null, kernel, jring, false);
        }
        ProgramRunner.Outcome k = kernel(p, setup, CONFIRM_SCALE);
        ProgramRunner.Outcome j = ProgramRunner.run(p, setup, false, dir, quietScale * CONFIRM_SCALE);
        String diff = OutcomeDiff.between(p, k, j);
        return diff == null ? new Verdict(Kind.SAME, null, k, j, true) : new Verdict(Kind.DIFFERENT, diff, k, j, false);
    }

    /** The whole check: kernel twice, then jring. */
    Verdict check(RandomProgram p, int setup) {
        ProgramRunner.Outcome k = kernel(p, setup, 1);
        String unstable = kernelInstability(p, setup, k);
        if (unstable != null) {
            return new Verdict(Kind.KERNEL_UNSTABLE, unstable, k, null, false);
        }
        return against(p, setup, k);
    }

    /**
     * The switched patterns behind a difference: a smallest set of the program's tags whose
     * SQEs, taken out together, make jring agree (each one left in alone still differs).
     * Empty when taking out every tagged SQE still differs: a difference no switch explains.
     * Cheap checks (one run each side): good enough to classify.
     */
    Set<FuzzFeature> causes(RandomProgram p, int setup) {
        Set<FuzzFeature> tags = p.tags();
        if (tags.isEmpty() || !agrees(without(p, tags), setup)) {
            return EnumSet.noneOf(FuzzFeature.class);
        }
        Set<FuzzFeature> out = EnumSet.copyOf(tags);
        for (FuzzFeature f : tags) {
            Set<FuzzFeature> rest = EnumSet.copyOf(out);
            rest.remove(f);
            if (agrees(without(p, rest), setup)) {
                out.remove(f);
            }
        }
        return out;
    }

    private static RandomProgram without(RandomProgram p, Set<FuzzFeature> tags) {
        RandomProgram out = p;
        for (FuzzFeature f : tags) {
            out = out.withoutTag(f);
        }
        return out;
    }

    private boolean agrees(RandomProgram p, int setup) {
        ProgramRunner.Outcome k = kernel(p, setup, 1);
        return OutcomeDiff.between(p, k, ProgramRunner.run(p, setup, false, dir, quietScale)) == null;
    }

    /**
     * A smaller program that still differs (and keeps an SQE of each of {@code causes}):
     * repeated passes that try to drop each batch, each SQE and each write, keeping every
     * drop after which the kernel is still stable and jring still differs. At most
     * {@code budget} checks.
     */
    RandomProgram shrink(RandomProgram p, int setup, Set<FuzzFeature> causes, int budget) {
        RandomProgram cur = p;
        int checks = 0;
        boolean progress = true;
        int hung = ProgramRunner.HUNG_CLOSES.get();
        while (progress && checks < budget && ProgramRunner.HUNG_CLOSES.get() == hung) {
            progress = false;
            for (int i = cur.steps.size() - 1; i >= 0 && checks < budget; i--) {
                List<RandomProgram> tries = new ArrayList<>();
                RandomProgram.Step step = cur.steps.get(i);
                if (step instanceof RandomProgram.Submit sub) {
                    if (sub.sqes().size() > 1) {
                        tries.add(cur.withoutStep(i));
                    }
                    for (int q = sub.sqes().size() - 1; q >= 0; q--) {
                        tries.add(cur.withoutSqe(i, q));
                    }
                } else if (step instanceof RandomProgram.Write) {
                    tries.add(cur.withoutStep(i));
                }
                for (RandomProgram t : tries) {
                    if (checks >= budget || !t.tags().containsAll(causes) || !t.keepsTheRules()
                            || ProgramRunner.HUNG_CLOSES.get() != hung) {
                        continue;
                    }
                    checks++;
                    if (check(t, setup).kind() == Kind.DIFFERENT) {
                        cur = t;
                        progress = true;
                        break;
                    }
                }
                i = Math.min(i, cur.steps.size());
            }
        }
        return cur;
    }
}
