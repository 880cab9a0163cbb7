package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.TaskWorkKind;
import io.jring.core.LocalWorkList;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkBatch;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A batch add ({@link LocalWorkList#addBatch}, the MSG_RING sender's one publication of a
 * submit's messages, issue 20) against a DEFER_TASKRUN owner about to sleep. On a list its
 * owner has just drained, a producer adds item 1 alone, then items 2 and 3 as one batch;
 * the owner arms the countdown for three completions, re-checks the list and, if it finds
 * work, runs it (a wait loop's next pass); the arbiter (the run after a wake) takes the rest.
 *
 * <p>Checked: every item runs exactly once and in the producer's order, across the owner's
 * run and the arbiter's (a batch's items never overtake an earlier add nor each other); no
 * lost wakeup: an owner that saw the list empty is woken, since the three items cover its
 * countdown, and the batch, counted whole, is what wakes it. Result: run order as digits,
 * producer (1 = woke the owner), owner (1 = saw no work and would sleep).
 */
@Outcome(id = "123, 1, 1", expect = ACCEPTABLE, desc = "owner would sleep and the batch wakes it")
@Outcome(id = "123, 0, 0", expect = ACCEPTABLE, desc = "owner sees the work before sleeping")
@Outcome(id = "123, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "owner sees the work and is woken too")
@Outcome(expect = FORBIDDEN, desc = "lost wakeup, an item lost or run twice, or out of order")
public abstract class BatchAddWakeTest {
    private final TaskContext owner = TaskContext.detached();
    private final LocalWorkList local;
    private final TaskWorkNode one = new TaskWorkNode(1, true);
    private final TaskWorkNode two = new TaskWorkNode(2, true);
    private final TaskWorkNode three = new TaskWorkNode(3, true);
    private final TaskWorkBatch batch = new TaskWorkBatch();

    /** Run order as decimal digits: written by the owner actor, then the arbiter. */
    private int order;
    /** Items run more than once (a sink saw an item twice): owner actor, then arbiter. */
    private int twice;

    BatchAddWakeTest(TaskWorkKind kind) {
        local = new LocalWorkList(kind);
        // Start from a drained list whose item is reused, as after a real run.
        local.add(one, true, owner);
        local.list().runAll(w -> { });
    }

    private void run(TaskWork w) {
        TaskWorkNode n = (TaskWorkNode) w;
        if (n.runs++ > 0) {
            twice++;
        }
        order = order * 10 + n.id;
    }

    final void produce(III_Result r) {
        long before = owner.wakeups();
        local.add(one, true, owner);
        batch.append(two);
        batch.append(three);
        local.addBatch(batch, true, owner);
        batch.clear();
        r.r2 = owner.wakeups() != before ? 1 : 0;
    }

    final void armAndCheck(III_Result r) {
        local.arm(3);
        boolean empty = local.isEmpty();
        r.r3 = empty ? 1 : 0;
        if (!empty) {
            local.list().runAll(this::run);
        }
    }

    final void collect(III_Result r) {
        local.list().runAll(this::run);
        r.r1 = twice == 0 ? order : -order;
    }

    @JCStressTest
    @State
    public static class Mpsc extends BatchAddWakeTest {
        public Mpsc() { super(TaskWorkKind.MPSC); }
        @Actor public void producer(III_Result r) { produce(r); }
        @Actor public void owner(III_Result r) { armAndCheck(r); }
        @Arbiter public void arbiter(III_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Llist extends BatchAddWakeTest {
        public Llist() { super(TaskWorkKind.LLIST); }
        @Actor public void producer(III_Result r) { produce(r); }
        @Actor public void owner(III_Result r) { armAndCheck(r); }
        @Arbiter public void arbiter(III_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Locked extends BatchAddWakeTest {
        public Locked() { super(TaskWorkKind.LOCKED); }
        @Actor public void producer(III_Result r) { produce(r); }
        @Actor public void owner(III_Result r) { armAndCheck(r); }
        @Arbiter public void arbiter(III_Result r) { collect(r); }
    }

    @JCStressTest
    @State
    public static class Priority extends BatchAddWakeTest {
        public Priority() { super(TaskWorkKind.PRIORITY); }
        @Actor public void producer(III_Result r) { produce(r); }
        @Actor public void owner(III_Result r) { armAndCheck(r); }
        @Arbiter public void arbiter(III_Result r) { collect(r); }
    }
}
