package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.TaskWorkKind;
import io.jring.core.LocalWorkList;
import io.jring.tw.TaskContext;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A DEFER_TASKRUN ring's lazy wake ({@link LocalWorkList}, DESIGN.md section 3): the owner,
 * about to sleep for one more completion, arms the countdown and re-checks the ring's local
 * list; a producer adds a completion (lazy: it wakes the owner only when it takes the
 * countdown to zero) or a link's work (not lazy: it wakes an armed owner at once). A lost
 * wakeup is the owner seeing the list empty while the producer does not wake it.
 * Result: producer (1 = woke the owner, 0 = did not), owner (1 = saw no work and would
 * sleep, 0 = saw the work).
 */
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "owner would sleep and is woken")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "owner sees the work before sleeping")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "owner sees the work and is woken too")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wakeup")
public abstract class DeferTaskrunWakeTest {
    private final TaskContext owner = TaskContext.detached();
    private final LocalWorkList local;
    private final TaskWorkNode item = new TaskWorkNode(1, true);
    private final boolean lazy;

    DeferTaskrunWakeTest(TaskWorkKind kind, boolean lazy) {
        this.local = new LocalWorkList(kind);
        this.lazy = lazy;
    }

    final void produce(II_Result r) {
        long before = owner.wakeups();
        local.add(item, lazy, owner);
        r.r1 = owner.wakeups() != before ? 1 : 0;
    }

    final void sleep(II_Result r) {
        local.arm(1);
        r.r2 = local.isEmpty() ? 1 : 0;
    }

    @JCStressTest
    @State
    public static class Lazy extends DeferTaskrunWakeTest {
        public Lazy() { super(TaskWorkKind.MPSC, true); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }

    @JCStressTest
    @State
    public static class NotLazy extends DeferTaskrunWakeTest {
        public NotLazy() { super(TaskWorkKind.MPSC, false); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }

    @JCStressTest
    @State
    public static class LazyLlist extends DeferTaskrunWakeTest {
        public LazyLlist() { super(TaskWorkKind.LLIST, true); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }
}
