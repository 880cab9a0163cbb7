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
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Two producers add one item each while the consumer runs the list; the arbiter (the next
 * consumer) takes what is left. Every item runs exactly once, and at least one add reports
 * the list non-empty (the list was drained when they started). Result: runs of a, runs of
 * b, add(a) returned true, add(b) returned true.
 */
@Outcome(id = {"1, 1, 1, 0", "1, 1, 0, 1"}, expect = ACCEPTABLE, desc = "each once, one adder wakes")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "each once, the consumer drained between the adds")
@Outcome(expect = FORBIDDEN, desc = "an item lost or run twice, or no adder told to wake")
public abstract class TaskWorkNoLossTest {

    private final TaskWorkList list;
    private final TaskWorkNode a = new TaskWorkNode(1, true);
    private final TaskWorkNode b = new TaskWorkNode(2, false);

    TaskWorkNoLossTest(TaskWorkKind kind) {
        list = TaskWorkList.create(kind);
        // Start from a drained list whose item is reused, as after a real run.
        list.add(a);
        list.runAll(w -> { });
    }

    final void addA(IIII_Result r) {
        r.r3 = list.add(a) ? 1 : 0;
    }

    final void addB(IIII_Result r) {
        r.r4 = list.add(b) ? 1 : 0;
    }

    final void consume() {
        list.runAll(w -> ((TaskWorkNode) w).runs++);
    }

    final void collect(IIII_Result r) {
        consume();
        r.r1 = a.runs;
        r.r2 = b.runs;
    }

    @JCStressTest
    @State
    public static class Locked extends TaskWorkNoLossTest {
        public Locked() { super(TaskWorkKind.LOCKED); }
        @Actor public void producer1(IIII_Result r) { addA(r); }
        @Actor public void producer2(IIII_Result r) { addB(r); }
        @Actor public void consumer() { consume(); }
        @Arbiter public void arbiter(IIII_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Priority extends TaskWorkNoLossTest {
        public Priority() { super(TaskWorkKind.PRIORITY); }
        @Actor public void producer1(IIII_Result r) { addA(r); }
        @Actor public void producer2(IIII_Result r) { addB(r); }
        @Actor public void consumer() { consume(); }
        @Arbiter public void arbiter(IIII_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Llist extends TaskWorkNoLossTest {
        public Llist() { super(TaskWorkKind.LLIST); }
        @Actor public void producer1(IIII_Result r) { addA(r); }
        @Actor public void producer2(IIII_Result r) { addB(r); }
        @Actor public void consumer() { consume(); }
        @Arbiter public void arbiter(IIII_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Mpsc extends TaskWorkNoLossTest {
        public Mpsc() { super(TaskWorkKind.MPSC); }
        @Actor public void producer1(IIII_Result r) { addA(r); }
        @Actor public void producer2(IIII_Result r) { addB(r); }
        @Actor public void consumer() { consume(); }
        @Arbiter public void arbiter(IIII_Result r) { collect(r); }
    }
}
