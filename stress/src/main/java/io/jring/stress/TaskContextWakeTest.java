package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.TaskWorkKind;
import io.jring.tw.TaskContext;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The owner's sleep protocol in {@link TaskContext} itself (DESIGN.md sections 3 and 4), not
 * only the lists: the owner, holding its run token, publishes SLEEPING and re-checks its
 * lists; a producer adds task work and wakes the owner if the push made the list non-empty
 * and the owner published SLEEPING. A lost wakeup is the owner seeing no work (so it would
 * park) while the producer does not wake it.
 * Result: producer (1 = woke the owner, 0 = did not), owner (1 = saw no work and would park,
 * 0 = saw the work).
 */
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "owner would park and is woken")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "owner sees the work before sleeping")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "owner sees the work and is woken too")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wakeup")
public abstract class TaskContextWakeTest {
    private final TaskContext ctx;
    private final TaskWorkKind kind;
    private final TaskWorkNode item = new TaskWorkNode(1, false);

    TaskContextWakeTest(TaskWorkKind kind) {
        this.kind = kind;
        this.ctx = TaskContext.detached();
        // The owner is inside the engine (token held), as in a wait loop after running its work.
        ctx.enter();
    }

    final void produce(II_Result r) {
        long before = ctx.wakeups();
        ctx.addTaskWork(item, kind);
        r.r1 = ctx.wakeups() != before ? 1 : 0;
    }

    final void sleep(II_Result r) {
        ctx.prepareToSleep();
        r.r2 = ctx.hasPendingWork() ? 0 : 1;
    }

    @JCStressTest
    @State
    public static class Mpsc extends TaskContextWakeTest {
        public Mpsc() { super(TaskWorkKind.MPSC); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }

    @JCStressTest
    @State
    public static class Llist extends TaskContextWakeTest {
        public Llist() { super(TaskWorkKind.LLIST); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }

    @JCStressTest
    @State
    public static class Locked extends TaskContextWakeTest {
        public Locked() { super(TaskWorkKind.LOCKED); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }
}
