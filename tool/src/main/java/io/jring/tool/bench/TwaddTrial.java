package io.jring.tool.bench;

import io.jring.TaskWorkKind;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * One timed run of {@code jring bench twadd} for one strategy: N producer threads add task
 * work to ONE owner's {@link TaskContext}, which runs it (seed 001's workload). The owner
 * follows the engine's wait loop: run everything pending, and when nothing is left publish
 * SLEEPING, re-check, park. Adders wake it when their push made the list non-empty.
 *
 * <p>Nothing is allocated in steady state: each producer owns a fixed pool of items and
 * re-adds an item once the owner has run it (the owner hands it back with a release store
 * of its {@code inFlight} flag). A producer whose next item is still in flight spins, then
 * yields, until it comes back.
 */
final class TwaddTrial {

    /** What the items post into: no ring, so beginning and ending a run do nothing. */
    static final TaskWorkTarget NO_RING = new TaskWorkTarget() {
        @Override
        public void beginTaskRun() {}

        @Override
        public void endTaskRun(int items) {}
    };

    /** Spin hints before a producer with no free item yields its core. */
    private static final int SPINS = 64;

    private final TaskWorkKind kind;
    private final int producers;
    private final int itemsPerProducer;

    private volatile TaskContext ownerContext;
    /** Producers stop adding; then the owner is stopped. Written by the controller. */
    private volatile boolean stopProducers;
    private volatile boolean stopOwner;

    /**
     * Items the owner has run. Written only by the owner (setOpaque, once per run of its
     * lists); read opaque by the controller and the status line.
     */
    @SuppressWarnings("unused")
    private long ran;

    private volatile Throwable failure;

    private static final VarHandle RAN;
    private static final VarHandle IN_FLIGHT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            RAN = l.findVarHandle(TwaddTrial.class, "ran", long.class);
            IN_FLIGHT = l.findVarHandle(Item.class, "inFlight", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    TwaddTrial(TaskWorkKind kind, int producers, int itemsPerProducer) {
        this.kind = kind;
        this.producers = producers;
        this.itemsPerProducer = itemsPerProducer;
    }

    /** A producer's reusable piece of task work. */
    static final class Item extends TaskWork {
        /**
         * True from the producer's add until the owner has run the item. Set plain by the
         * producer before {@code addTaskWork} (whose push publishes it); cleared by the
         * owner with setRelease as the item's last touch; read by the producer with
         * getAcquire, so a reused item never races with the run that handed it back.
         */
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

    long ran() {
        return (long) RAN.getOpaque(this);
    }

    LongSupplier ranCounter() {
        return this::ran;
    }

    /**
     * Starts the owner and producers, lets them run {@code warmupNanos}, measures the owner's
     * run rate over {@code measureNanos}, stops everything and returns items/s.
     * {@code onMeasure} is called once the threads run (to point the status line at them).
     */
    double run(long warmupNanos, long measureNanos, Runnable onMeasure) throws InterruptedException {
        CountDownLatch ownerReady = new CountDownLatch(1);
        Thread owner = Thread.ofPlatform().name("twadd-owner").unstarted(() -> runOwner(ownerReady));
        Thread[] adders = new Thread[producers];
        owner.start();
        try {
            ownerReady.await();
            if (failure != null) {
                throw new IllegalStateException("twadd owner failed", failure);
            }
            for (int i = 0; i < producers; i++) {
                Item[] pool = new Item[itemsPerProducer];
                for (int j = 0; j < pool.length; j++) {
                    pool[j] = new Item();
                }
                adders[i] = Thread.ofPlatform().name("twadd-producer-" + i).start(() -> runProducer(pool));
            }
            onMeasure.run();
            TimeUnit.NANOSECONDS.sleep(warmupNanos);
            long c0 = ran();
            long t0 = System.nanoTime();
            TimeUnit.NANOSECONDS.sleep(measureNanos);
            long c1 = ran();
            long t1 = System.nanoTime();
            return (c1 - c0) * 1e9 / (t1 - t0);
        } finally {
            stopProducers = true;
            for (Thread a : adders) {
                if (a != null) {
                    a.join();
                }
            }
            stopOwner = true;
            LockSupport.unpark(owner);
            owner.join();
            if (failure != null) {
                throw new IllegalStateException("twadd " + kind + " failed", failure);
            }
        }
    }

    private void runOwner(CountDownLatch ready) {
        TaskContext ctx = TaskContext.current();
        ownerContext = ctx;
        ready.countDown();
        ctx.enter();
        try {
            long n = 0;
            while (!stopOwner) {
                int k = ctx.runTaskWork(false);
                if (k > 0) {
                    n += k;
                    RAN.setOpaque(this, n);
                    continue;
                }
                // The engine's sleep protocol: publish SLEEPING, re-check, park.
                ctx.prepareToSleep();
                if (!ctx.hasPendingWork() && !stopOwner) {
                    LockSupport.park(this);
                }
                ctx.wakeUpFromSleep();
            }
            // Producers have stopped: run what they left so no item stays queued.
            n += ctx.runTaskWork(false);
            RAN.setOpaque(this, n);
        } catch (Throwable t) {
            failure = t;
        } finally {
            ctx.exit();
        }
    }

    private void runProducer(Item[] pool) {
        try {
            TaskContext ctx = ownerContext;
            TaskWorkKind kind = this.kind;
            int cursor = 0;
            int spins = 0;
            while (!stopProducers) {
                Item it = pool[cursor];
                if (it.isInFlight()) {
                    // Items come back in FIFO order, so the next one is the oldest in flight.
                    if (++spins < SPINS) {
                        Thread.onSpinWait();
                    } else {
                        Thread.yield();
                    }
                    continue;
                }
                spins = 0;
                it.markInFlight();
                ctx.addTaskWork(it, kind);
                if (++cursor == pool.length) {
                    cursor = 0;
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }
}
