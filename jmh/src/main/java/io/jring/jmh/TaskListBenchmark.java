package io.jring.jmh;

import io.jring.TaskWorkKind;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkList;
import io.jring.tw.TaskWorkSink;
import io.jring.tw.TaskWorkTarget;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * Task-work list add/take for each strategy (DESIGN.md section 3, seeds 000 and 001).
 * <ul>
 * <li>{@code addThenRunAll}: one thread adds {@value #BATCH} items then runs the list, the
 *     uncontended cost per item.
 * <li>{@code contended}: a group of one adder thread and one consumer thread on one list,
 *     the adder re-adding items as soon as the consumer has run them. The {@code added} and
 *     {@code taken} counters are the items/s figures; the adder's invocation count also
 *     includes attempts that found its pool empty ({@code poolEmpty}).
 * </ul>
 * Run with {@code -prof gc}: adding is intrusive, so the target is <= 1 B/op.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class TaskListBenchmark {

    static final int BATCH = 32;
    /** Items the contended adder owns; each is re-added once the consumer ran it. */
    static final int POOL = 1024;

    static final TaskWorkTarget NO_RING = new TaskWorkTarget() {
        @Override
        public void beginTaskRun() {}

        @Override
        public void endTaskRun(int items) {}
    };

    private static final VarHandle IN_FLIGHT;

    static {
        try {
            IN_FLIGHT = MethodHandles.lookup().findVarHandle(Item.class, "inFlight", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A reusable item: in flight from add until the consumer ran it (release store), read acquire by the adder. */
    static final class Item extends TaskWork {
        @SuppressWarnings("unused")
        private boolean inFlight;

        @Override
        public TaskWorkTarget target() {
            return NO_RING;
        }

        @Override
        public void runTaskWork(boolean cancel) {
            IN_FLIGHT.setRelease(this, false);
        }

        boolean isInFlight() {
            return (boolean) IN_FLIGHT.getAcquire(this);
        }

        void markInFlight() {
            IN_FLIGHT.set(this, true);
        }
    }

    // ------------------------------------------------------------ single thread

    @State(Scope.Thread)
    public static class SingleThread {
        @Param({"LOCKED", "PRIORITY", "LLIST", "MPSC"})
        public TaskWorkKind kind;

        TaskWorkList list;
        final Item[] items = new Item[BATCH];
        int ran;
        TaskWorkSink sink;

        @Setup(Level.Trial)
        public void setUp() {
            list = TaskWorkList.create(kind);
            for (int i = 0; i < BATCH; i++) {
                items[i] = new Item();
            }
            sink = w -> {
                ran++;
                w.runTaskWork(false);
            };
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int addThenRunAll(SingleThread s) {
        TaskWorkList list = s.list;
        Item[] items = s.items;
        for (int i = 0; i < BATCH; i++) {
            list.add(items[i]);
        }
        list.runAll(s.sink);
        return s.ran;
    }

    // ------------------------------------------------------------ one adder, one consumer

    @State(Scope.Group)
    public static class Shared {
        @Param({"LOCKED", "PRIORITY", "LLIST", "MPSC"})
        public TaskWorkKind kind;

        TaskWorkList list;
        final Item[] pool = new Item[POOL];

        @Setup(Level.Trial)
        public void setUp() {
            list = TaskWorkList.create(kind);
            for (int i = 0; i < POOL; i++) {
                pool[i] = new Item();
            }
        }
    }

    /** Adder-side counters, per iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class AddCounters {
        public long added;
        public long poolEmpty;
        int cursor;
        int misses;

        @Setup(Level.Iteration)
        public void reset() {
            added = 0;
            poolEmpty = 0;
        }
    }

    /** Consumer-side counters, per iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class TakeCounters {
        public long taken;
        TaskWorkSink sink;

        @Setup(Level.Trial)
        public void setUp() {
            sink = w -> {
                taken++;
                w.runTaskWork(false);
            };
        }

        @Setup(Level.Iteration)
        public void reset() {
            taken = 0;
        }
    }

    @Benchmark
    @Group("contended")
    @GroupThreads(1)
    public void add(Shared s, AddCounters c) {
        Item it = s.pool[c.cursor];
        if (it.isInFlight()) {
            c.poolEmpty++; // items come back FIFO: the oldest is still queued
            if (++c.misses < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // oversubscribed: let the consumer have the core
            }
            return;
        }
        c.misses = 0;
        it.markInFlight();
        s.list.add(it);
        c.added++;
        if (++c.cursor == POOL) {
            c.cursor = 0;
        }
    }

    @Benchmark
    @Group("contended")
    @GroupThreads(1)
    public int take(Shared s, TakeCounters c) {
        return s.list.runAll(c.sink);
    }
}
