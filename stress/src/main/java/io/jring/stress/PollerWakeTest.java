package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.TaskWorkKind;
import io.jring.poll.Poller;
import io.jring.poll.PollerRef;
import io.jring.tw.TaskContext;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An owner about to sleep in its {@link Poller} (epoll_wait, because it has armed polls)
 * against a producer adding task work ({@link TaskContext#wakeSleeper}'s choice): an unpark
 * does not end an epoll_wait, so a producer that finds the owner SLEEPING must write the
 * poller's eventfd whenever the owner sleeps there. The owner marks the poller sleeping,
 * publishes SLEEPING and re-checks its list; the producer pushes, reads the state and, if
 * SLEEPING, reads the poller's mark. Lost: the owner would enter epoll_wait and no eventfd
 * write was made. Contexts (each with an epoll fd and an eventfd) are reused between trials.
 * Result: producer (1 = wrote the eventfd, 0 = did not), owner (1 = saw no work and would
 * sleep in epoll, 0 = saw the work).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "owner would sleep in epoll and the eventfd wakes it")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "owner sees the work before sleeping")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "owner sees the work, the eventfd is written too")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "lost wakeup: epoll_wait with no eventfd write")
@State
public class PollerWakeTest {
    /** Contexts whose trial is over (the arbiter put them back), ready for another. */
    private static final ConcurrentLinkedQueue<TaskContext> IDLE = new ConcurrentLinkedQueue<>();
    /** Pollers are file descriptors: a run that needs more than this many at once is a test bug. */
    private static final int MAX_CONTEXTS = 4096;
    private static final AtomicInteger CREATED = new AtomicInteger();

    private final TaskContext ctx;
    private final Poller poller;
    private final long writesBefore;
    private final TaskWorkNode item = new TaskWorkNode(1, false);
    /**
     * Ballast: jcstress keeps the trials of an epoch within its footprint limit by their heap
     * size, so heavy trials keep the descriptors in use to a few thousand.
     */
    @SuppressWarnings("unused")
    private final byte[] ballast = new byte[64 * 1024];

    public PollerWakeTest() {
        TaskContext c = IDLE.poll();
        if (c == null) {
            if (CREATED.incrementAndGet() > MAX_CONTEXTS) {
                throw new IllegalStateException("more than " + MAX_CONTEXTS + " trials at once");
            }
            c = Waiters.newContext();
            c.enter();             // the owner is inside its wait loop: token held
            PollerRef.retain(c);
        }
        ctx = c;
        poller = PollerRef.ifOpen(c);
        writesBefore = poller.wakeWrites();
    }

    @Actor
    public void producer(II_Result r) {
        ctx.addTaskWork(item, TaskWorkKind.MPSC);
        r.r1 = poller.wakeWrites() != writesBefore ? 1 : 0;
    }

    @Actor
    public void owner(II_Result r) {
        poller.markSleeping();
        ctx.prepareToSleep();
        r.r2 = ctx.hasPendingWork() ? 0 : 1;
    }

    /** Back to "inside, awake, nothing pending" for the next trial. */
    @Arbiter
    public void reset() {
        ctx.wakeUpFromSleep();
        poller.clearSleeping();
        ctx.runTaskWork(false);
        IDLE.add(ctx);
    }
}
