package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.iowq.IoWork;
import io.jring.iowq.IoWq;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * io-wq's idle workers against enqueues ({@link IoWq}, the engine's own): two threads queue
 * an item each while the account's one worker finishes the previous trial's items and goes
 * idle on the free list (its park). The account's monitor orders the worker's "nothing to
 * take, I am free" with an enqueue's "a free worker: wake it", and the unpark's permit
 * covers a wake before the park. A lost wakeup is an item still queued long after its
 * enqueue: the workers' idle timeout (minutes) is far longer than the arbiter's wait, so it
 * cannot hide one. Bounded work (a worker per item), unbound work (a worker is added only
 * when one blocks) and hashed work (one key: the items run one after the other).
 * Result: first item ran, second item ran (1 = within 10 s).
 */
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both items ran")
@Outcome(expect = FORBIDDEN, desc = "an item stayed queued: its worker slept through the enqueue")
public abstract class IoWqWakeTest {
    private static final long WAIT_NANOS = 10_000_000_000L;

    private final IoWq wq;
    private final Item a;
    private final Item b;

    IoWqWakeTest(IoWq wq, boolean bounded, long hashKey) {
        this.wq = wq;
        this.a = new Item(bounded, hashKey);
        this.b = new Item(bounded, hashKey);
    }

    static IoWq pool(String name, int maxBounded) {
        return new IoWq("jcstress-" + name, maxBounded, 1, Duration.ofMinutes(5));
    }

    final void first() {
        wq.enqueue(a);
    }

    final void second() {
        wq.enqueue(b);
    }

    final void check(II_Result r) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!(a.ran && b.ran) && System.nanoTime() - deadline < 0) {
            Thread.yield();
        }
        r.r1 = a.ran ? 1 : 0;
        r.r2 = b.ran ? 1 : 0;
    }

    static final class Item implements IoWork {
        private final boolean bounded;
        private final long hashKey;
        /** Set by the worker that ran it, read by the arbiter. */
        volatile boolean ran;

        Item(boolean bounded, long hashKey) {
            this.bounded = bounded;
            this.hashKey = hashKey;
        }

        @Override
        public void runInWorker() {
            ran = true;
        }

        @Override
        public void cancelQueued() {
        }

        @Override
        public boolean isBoundedWork() {
            return bounded;
        }

        @Override
        public long hashKey() {
            return hashKey;
        }
    }

    @JCStressTest
    @State
    public static class Bounded extends IoWqWakeTest {
        private static final IoWq WQ = pool("b", 1);
        public Bounded() { super(WQ, true, 0L); }
        @Actor public void enqueue1() { first(); }
        @Actor public void enqueue2() { second(); }
        @Arbiter public void arbiter(II_Result r) { check(r); }
    }

    @JCStressTest
    @State
    public static class Unbound extends IoWqWakeTest {
        private static final IoWq WQ = pool("u", 1);
        public Unbound() { super(WQ, false, 0L); }
        @Actor public void enqueue1() { first(); }
        @Actor public void enqueue2() { second(); }
        @Arbiter public void arbiter(II_Result r) { check(r); }
    }

    @JCStressTest
    @State
    public static class Hashed extends IoWqWakeTest {
        private static final IoWq WQ = pool("h", 2);
        public Hashed() { super(WQ, true, 42L); }
        @Actor public void enqueue1() { first(); }
        @Actor public void enqueue2() { second(); }
        @Arbiter public void arbiter(II_Result r) { check(r); }
    }
}
