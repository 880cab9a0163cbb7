package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.core.CompletionQueue;
import io.jring.core.CqWait;
import io.jring.tw.TaskContext;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A thread waiting for CQEs against a poster on another thread ({@link CqWait} and
 * {@link CompletionQueue}, the code the ring's wait loop and its poster run): the waiter publishes
 * itself, then takes its last look at the CQ before it would sleep; the poster fills a
 * CQE, publishes the tail and wakes the waiters that are not itself. A lost wakeup is the
 * waiter seeing no CQE while the poster wakes nobody. Both slots: a thread waiting to reap,
 * and one waiting in submitAndWait beside it.
 * Result: poster (1 = woke the waiter, 0 = did not), waiter (1 = saw no CQE and would
 * sleep, 0 = saw it).
 */
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "waiter would sleep and is woken")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "poster published before the waiter showed up; the waiter sees the CQE")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "waiter sees the CQE and is woken too")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wakeup")
public abstract class CompletionWaitTest {
    private final CompletionQueue cq = new CompletionQueue(2);
    private final CqWait waiters = new CqWait();
    private final boolean submitSide;

    CompletionWaitTest(boolean submitSide) {
        this.submitSide = submitSide;
    }

    final void post(II_Result r) {
        cq.post(1L, 0, 0);
        r.r1 = cq.flush() && waiters.wakeIfOther() ? 1 : 0;
    }

    final void await(II_Result r) {
        waiters.set(submitSide, Waiters.shared());
        r.r2 = cq.readyForSleep() < 1 ? 1 : 0;
    }

    @JCStressTest
    @State
    public static class Reaper extends CompletionWaitTest {
        public Reaper() { super(false); }
        @Actor public void poster(II_Result r) { post(r); }
        @Actor public void waiter(II_Result r) { await(r); }
    }

    @JCStressTest
    @State
    public static class SubmitAndWait extends CompletionWaitTest {
        public SubmitAndWait() { super(true); }
        @Actor public void poster(II_Result r) { post(r); }
        @Actor public void waiter(II_Result r) { await(r); }
    }
}
