package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.TaskWorkKind;
import io.jring.tw.HelperWaker;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A helper that borrowed an away owner's run token ({@link TaskContext#tryHelp}, as a
 * thread waiting on a shared ring does) against a producer adding work for that owner. A
 * producer that finds the token borrowed leaves the work to the helper; the helper, after it
 * gives the token back, must see work that came after its last look and tell someone (the
 * rings' waiters, the away watcher), as the owner does when it leaves the engine. Lost: work
 * left behind with the owner away and nobody told.
 * Result (arbiter): work left pending (1) or not (0); helpers of the work's ring told (1) or not (0).
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the helper ran both items")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the helper ran both items; a wake was spent")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "work left behind, the ring's waiters were told")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "work left behind and nobody told")
@State
public class TaskContextHelpTest {
    private final TaskContext ctx = Waiters.newContext();
    private final Ring ring = new Ring();
    private final Item first = new Item(ring);
    private final Item second = new Item(ring);

    public TaskContextHelpTest() {
        ctx.rings().addWaker(ring);
        ctx.addTaskWork(first, TaskWorkKind.MPSC);   // the owner is away: its ring is told
        ring.told = 0;
    }

    @Actor
    public void helper() {
        ctx.tryHelp(false);
    }

    @Actor
    public void producer() {
        ctx.addTaskWork(second, TaskWorkKind.MPSC);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = ctx.hasPendingWork() ? 1 : 0;
        r.r2 = ring.told > 0 ? 1 : 0;
    }

    /** The shared ring the work is for: counts the wakes of its waiters. */
    static final class Ring implements TaskWorkTarget, HelperWaker {
        /** Incremented by either actor, read by the arbiter (ordered by jcstress). */
        volatile int told;

        @Override
        public void beginTaskRun() {
        }

        @Override
        public void endTaskRun(int items) {
        }

        @Override
        public synchronized void wakeHelpers() {
            told++;
        }
    }

    static final class Item extends TaskWork {
        private final Ring ring;

        Item(Ring ring) {
            this.ring = ring;
        }

        @Override
        public TaskWorkTarget target() {
            return ring;
        }

        @Override
        public void runTaskWork(boolean cancel) {
        }
    }
}
