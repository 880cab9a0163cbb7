package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.TaskWorkKind;
import io.jring.tw.TaskWorkList;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The PRIORITY list's 1/3 cap (seed 000, {@code prior_nr * 3 <= nr} before each add) under
 * racing adders. One producer adds normal item 1 and then completion item 2; the other adds
 * completion item 3; the arbiter runs the list. Whatever the interleaving, exactly one of
 * the two completions fits the cap (the first one added: 0 <= nr), the other is held back
 * behind item 1, so the run is 2 1 3 or 3 1 2. Two completions ahead of item 1 (a broken
 * cap), or none (no priority at all), is forbidden; so is any add but the first reporting
 * the list's transition from empty. Result: the run order as digits, and how many adds
 * returned true.
 */
@JCStressTest
@State
@Outcome(id = {"213, 1", "312, 1"}, expect = ACCEPTABLE, desc = "one completion ahead, the other capped")
@Outcome(expect = FORBIDDEN, desc = "cap broken, priority ignored, item lost or run twice, or a wrong wake count")
public class PriorityCapTest {

    private final TaskWorkList list = TaskWorkList.create(TaskWorkKind.PRIORITY);
    private final TaskWorkNode one = new TaskWorkNode(1, false);
    private final TaskWorkNode two = new TaskWorkNode(2, true);
    private final TaskWorkNode three = new TaskWorkNode(3, true);

    /** What each add returned: written by the adding actor, read by the arbiter. */
    private boolean wake1;
    private boolean wake2;
    private boolean wake3;

    @Actor
    public void normalThenCompletion() {
        wake1 = list.add(one);
        wake2 = list.add(two);
    }

    @Actor
    public void completion() {
        wake3 = list.add(three);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        int[] order = new int[1];
        list.runAll(w -> order[0] = order[0] * 10 + ((TaskWorkNode) w).id);
        r.r1 = order[0];
        r.r2 = (wake1 ? 1 : 0) + (wake2 ? 1 : 0) + (wake3 ? 1 : 0);
    }
}
