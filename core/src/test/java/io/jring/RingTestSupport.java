package io.jring;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.core.ApiAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.function.Executable;

/** Shared helpers of the ring tests (not a test class). Every wait here is bounded. */
public final class RingTestSupport {
    /** Upper bound of any single wait in the ring tests; far above what a passing run needs. */
    public static final Duration WAIT = Duration.ofSeconds(10);

    private RingTestSupport() {}

    /** Prepares {@code n} NOPs with user data {@code firstUd, firstUd + 1, ...} and SQE flags. */
    public static void prepNops(IoUring ring, long firstUd, int n, int sqeFlags) {
        for (int i = 0; i < n; i++) {
            Sqe sqe = ring.getSqe();
            assertNotNull(sqe, "SQ full after " + i + " of " + n);
            sqe.prepNop().userData(firstUd + i).flags(sqeFlags);
        }
    }

    /** waitCqe with a bound: fails instead of hanging. */
    public static Cqe waitCqe(IoUring ring) {
        Cqe c = ring.waitCqe(WAIT);
        assertNotNull(c, "no CQE within " + WAIT);
        return c;
    }

    /** One consumed CQE. */
    public record Completion(long userData, int res, int flags) {}

    /** Waits for and consumes exactly {@code n} CQEs, in CQ order. */
    public static List<Completion> reap(IoUring ring, int n) {
        List<Completion> out = new ArrayList<>(n);
        while (out.size() < n) {
            Cqe c = waitCqe(ring);
            out.add(new Completion(c.userData(), c.res(), c.flags()));
            ring.cqeSeen(c);
        }
        return out;
    }

    /** Consumes every CQE ready now (forEachCqe). */
    public static List<Completion> drain(IoUring ring) {
        List<Completion> out = new ArrayList<>();
        ring.forEachCqe((ud, res, fl) -> out.add(new Completion(ud, res, fl)));
        return out;
    }

    /** Asserts that {@code call} throws IoUringException and returns its errno. */
    public static int errnoOf(Executable call) {
        return assertThrows(IoUringException.class, call).errno();
    }

    public static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "timed out waiting for a latch");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Bounded wait for a state no latch can announce (a worker's task work queued, a thread
     * parked): yields between checks, never sleeps a fixed time.
     */
    public static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting until " + what);
            Thread.yield();
        }
    }

    /** Runs {@code task} on {@code exec} and returns its result, rethrowing what it threw. */
    public static <T> T on(ExecutorService exec, Callable<T> task) throws Throwable {
        Future<T> f = exec.submit(task);
        try {
            return f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("task on another thread did not finish within " + WAIT, e);
        }
    }

    /** {@link #on} for a void task. */
    public static void run(ExecutorService exec, Executable task) throws Throwable {
        on(exec, () -> {
            try {
                task.execute();
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            return null;
        });
    }

    /** Runs {@code task} on a new thread, joins it, and returns what it threw (null if nothing). */
    public static Throwable thrownOnNewThread(Executable task) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                task.execute();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        }, "ring-test-other");
        t.start();
        t.join(WAIT.toMillis());
        assertTrue(!t.isAlive(), "other thread did not finish within " + WAIT);
        return thrown[0];
    }

    /** The name of the io-wq pool behind a ring (shared by ATTACH_WQ rings). */
    public static String ioWqName(IoUring ring) {
        return ApiAccess.get().contextOf(ring).ioWq().name();
    }

    /** Live io-wq worker threads of a ring's pool ({@code jring-iowq-<pool>-b<n>/-u<n>}). */
    public static List<String> liveWorkers(String ioWqName) {
        String prefix = "jring-iowq-" + ioWqName + "-";
        List<String> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                found.add(t.getName());
            }
        }
        return found;
    }
}
