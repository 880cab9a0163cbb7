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
 * No item lost or run twice, FIFO per producer, and add's "was empty" answer never loses a
 * wake. On a list its owner has just drained, a producer adds items 1 then 2 while the owner
 * adds item 3 and runs the list; the arbiter (the next run, after a wake) takes what is left.
 * So two producers race on the push (1 against 3), two items of one producer must keep their
 * order, and a push races with the take.
 *
 * <p>Wake accounting: an item the owner's run left behind was added after that run last
 * found the list empty, so its add must have returned true, unless an earlier item of the
 * same producer was left behind too (then that one's add did). At least one add returns true
 * in any case, since the list started drained.
 *
 * <p>Items 1 and 2 are completion work: PRIORITY must keep them in order as well (the first
 * fits the 1/3 cap, the second does not). Two actors, not three, so that the test runs on
 * two CPUs: jcstress never oversubscribes. Result: the run order as digits (132 = 1, 3, 2),
 * and 1 if the wake accounting holds.
 */
@Outcome(id = {"123, 1", "132, 1", "312, 1"}, expect = ACCEPTABLE,
        desc = "each once, 1 before 2, wakes right")
@Outcome(expect = FORBIDDEN,
        desc = "lost, run twice, out of producer order, or a left item nobody woke for")
public abstract class TaskWorkOrderTest {

    private final TaskWorkList list;
    private final TaskWorkNode one = new TaskWorkNode(1, true);
    private final TaskWorkNode two = new TaskWorkNode(2, true);
    private final TaskWorkNode three = new TaskWorkNode(3, false);

    /** Run order as decimal digits: written by the owner actor, then the arbiter. */
    private int order;
    /** What each add returned: written by the adding actor, read by the arbiter. */
    private boolean wake1;
    private boolean wake2;
    private boolean wake3;

    TaskWorkOrderTest(TaskWorkKind kind) {
        list = TaskWorkList.create(kind);
        // Start from a drained list whose item is reused, as after a real run.
        list.add(one);
        list.runAll(w -> { });
    }

    final void produce() {
        wake1 = list.add(one);
        wake2 = list.add(two);
    }

    final void addOwnAndRun() {
        wake3 = list.add(three);
        list.runAll(w -> order = order * 10 + ((TaskWorkNode) w).id);
    }

    final void collect(II_Result r) {
        boolean[] left = new boolean[4];
        list.runAll(w -> {
            left[((TaskWorkNode) w).id] = true;
            order = order * 10 + ((TaskWorkNode) w).id;
        });
        boolean woken = !left[3] && (left[1] ? wake1 : !left[2] || wake2);
        r.r1 = order;
        r.r2 = woken && (wake1 || wake2 || wake3) ? 1 : 0;
    }

    @JCStressTest
    @State
    public static class Locked extends TaskWorkOrderTest {
        public Locked() { super(TaskWorkKind.LOCKED); }
        @Actor public void producer() { produce(); }
        @Actor public void owner() { addOwnAndRun(); }
        @Arbiter public void arbiter(II_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Priority extends TaskWorkOrderTest {
        public Priority() { super(TaskWorkKind.PRIORITY); }
        @Actor public void producer() { produce(); }
        @Actor public void owner() { addOwnAndRun(); }
        @Arbiter public void arbiter(II_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Llist extends TaskWorkOrderTest {
        public Llist() { super(TaskWorkKind.LLIST); }
        @Actor public void producer() { produce(); }
        @Actor public void owner() { addOwnAndRun(); }
        @Arbiter public void arbiter(II_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Mpsc extends TaskWorkOrderTest {
        public Mpsc() { super(TaskWorkKind.MPSC); }
        @Actor public void producer() { produce(); }
        @Actor public void owner() { addOwnAndRun(); }
        @Arbiter public void arbiter(II_Result r) { collect(r); }
    }
}
