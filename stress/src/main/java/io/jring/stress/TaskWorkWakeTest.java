package io.jring.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.jring.TaskWorkKind;
import io.jring.tw.TaskWorkList;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The sleep/wake handshake (DESIGN.md section 3) on a list the owner has just drained. The
 * producer adds an item and, if add returned true and the owner's sleeping flag is set,
 * wakes it. The owner sets the flag, then re-checks {@code isEmpty} before it would park.
 * A lost wakeup is the owner seeing the list empty while the producer does not wake it.
 * Result: producer (0 add returned false, 1 true but not sleeping, 2 woke the owner),
 * owner (1 saw the list empty and would park, 0 saw the item).
 */
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "owner parks and is woken")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "owner sees the item before sleeping")
@Outcome(id = "2, 0", expect = ACCEPTABLE_INTERESTING,
        desc = "both: owner sees the item, spurious wake")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wakeup")
@Outcome(expect = FORBIDDEN, desc = "add to a drained list must return true")
public abstract class TaskWorkWakeTest {

    private final TaskWorkList list;
    private final TaskWorkNode item = new TaskWorkNode(1, false);

    /** The owner's sleep flag: written by the owner, read by the producer, both volatile. */
    private volatile boolean sleeping;

    TaskWorkWakeTest(TaskWorkKind kind) {
        list = TaskWorkList.create(kind);
        list.add(item);
        list.runAll(w -> { });
    }

    final void produce(II_Result r) {
        r.r1 = !list.add(item) ? 0 : sleeping ? 2 : 1;
    }

    final void sleep(II_Result r) {
        sleeping = true;
        r.r2 = list.isEmpty() ? 1 : 0;
    }

    @JCStressTest
    @State
    public static class Locked extends TaskWorkWakeTest {
        public Locked() { super(TaskWorkKind.LOCKED); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }

    @JCStressTest
    @State
    public static class Priority extends TaskWorkWakeTest {
        public Priority() { super(TaskWorkKind.PRIORITY); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }

    @JCStressTest
    @State
    public static class Llist extends TaskWorkWakeTest {
        public Llist() { super(TaskWorkKind.LLIST); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }

    @JCStressTest
    @State
    public static class Mpsc extends TaskWorkWakeTest {
        public Mpsc() { super(TaskWorkKind.MPSC); }
        @Actor public void producer(II_Result r) { produce(r); }
        @Actor public void owner(II_Result r) { sleep(r); }
    }
}
