package io.jring.fault;

import io.jring.iowq.IoWq;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The fault-injection seam of the syscall layer: not API, for tests and {@code jring soak}.
 *
 * <p>Off unless the JVM starts with {@code -Djring.faults=true}. {@link #ENABLED} is a
 * static final read once at class initialisation, and every seam in {@code io.jring.sys}
 * sits behind {@code if (Faults.ENABLED)}: with it false the JIT drops the seam entirely,
 * so a production JVM pays nothing. With it true and no plan installed a seam costs one
 * volatile read.
 *
 * <p>{@link #install} arms a {@link FaultPlan}; the seams then ask {@link #pick} before each
 * eligible call. Decisions come from a random stream per thread seeded from the plan's seed
 * and the thread's id, so a single-threaded test replays exactly. One plan at a time
 * (tests that inject run one after another).
 */
public final class Faults {
    /** The system property that arms the seam (read once). */
    public static final String PROPERTY = "jring.faults";

    /** The seam exists in this JVM. Static final, so the JIT folds {@code if (ENABLED)} away when false. */
    public static final boolean ENABLED = Boolean.getBoolean(PROPERTY);

    /**
     * The installed plan's session, or null. Written by {@link #install} and
     * {@link Session#close} (volatile stores); read by every seam with one volatile load, so
     * a seam sees the plan and its counters fully built.
     */
    private static volatile Session current;

    /** Per thread: the random stream of the session it was seeded for. Only its own thread touches it. */
    private static final ThreadLocal<Stream> STREAMS = new ThreadLocal<>();

    private Faults() {}

    /**
     * Arms {@code plan} until the returned session is closed.
     *
     * @throws IllegalStateException if the seam is not in this JVM ({@code -Djring.faults=true}
     *         missing, or set after the first syscall initialised this class)
     */
    public static Session install(FaultPlan plan) {
        if (!ENABLED) {
            throw new IllegalStateException("fault injection is off in this JVM: start it with -D"
                    + PROPERTY + "=true (read once, at the first syscall)");
        }
        Session s = new Session(plan);
        current = s;
        return s;
    }

    /**
     * The seam: the fault to give this call at {@code site} on {@code fd}, or null for none.
     * {@code size} is the bytes the call would move (a SHORT needs at least 2), or -1.
     */
    public static FaultKind pick(FaultSite site, int fd, long size) {
        Session s = current;
        if (s == null) {
            return null;
        }
        FaultPlan plan = s.plan;
        int eligible = site.kinds & plan.activeKinds;
        if (size < 2) {
            eligible &= ~FaultKind.SHORT.bit();
        }
        if ((eligible & FaultKind.WORKER_DEATH.bit()) != 0 && !IoWq.isWorkerThread()) {
            eligible &= ~FaultKind.WORKER_DEATH.bit();
        }
        if (eligible == 0 || !plan.targets(fd)) {
            return null;
        }
        SplittableRandom r = s.random();
        for (FaultKind k : FaultKind.ALL) {
            if ((eligible & k.bit()) != 0 && r.nextDouble() < plan.rates[k.ordinal()] && s.take(k)) {
                return k;
            }
        }
        return null;
    }

    /** For {@link FaultKind#SHORT}: how many of {@code size} (>= 2) bytes the call may move, 1..size-1. */
    public static long shortLength(long size) {
        Session s = current;
        SplittableRandom r = s != null ? s.random() : new SplittableRandom();
        return 1 + r.nextLong(size - 1);
    }

    /** The Error of a {@link FaultKind#WORKER_DEATH}. */
    public static InjectedWorkerDeath workerDeath(FaultSite site) {
        return new InjectedWorkerDeath(site);
    }

    /**
     * Asked by a thread that owns rings (a test's, the soak's) at points where it may exit
     * with requests in flight: true if it should exit now ({@link FaultKind#OWNER_EXIT}).
     */
    public static boolean ownerExitDue() {
        Session s = current;
        if (s == null || s.plan.rates[FaultKind.OWNER_EXIT.ordinal()] <= 0) {
            return false;
        }
        return s.random().nextDouble() < s.plan.rates[FaultKind.OWNER_EXIT.ordinal()] && s.take(FaultKind.OWNER_EXIT);
    }

    /** Asked by io-wq before it starts a worker: true if the start should fail ({@link FaultKind#WORKER_START}). */
    public static boolean workerStartRefused() {
        Session s = current;
        if (s == null || s.plan.rates[FaultKind.WORKER_START.ordinal()] <= 0) {
            return false;
        }
        return s.random().nextDouble() < s.plan.rates[FaultKind.WORKER_START.ordinal()] && s.take(FaultKind.WORKER_START);
    }

    /** An installed plan and what it has injected so far. */
    public static final class Session implements AutoCloseable {
        final FaultPlan plan;
        /** Faults injected per kind; any thread, atomically. */
        private final AtomicLongArray injected = new AtomicLongArray(FaultKind.ALL.length);
        /** Faults still allowed per kind (the plan's limits; Long.MAX_VALUE without one); any thread, atomically. */
        private final AtomicLongArray left = new AtomicLongArray(FaultKind.ALL.length);

        Session(FaultPlan plan) {
            this.plan = plan;
            for (FaultKind k : FaultKind.ALL) {
                long limit = plan.limits[k.ordinal()];
                left.set(k.ordinal(), limit < 0 ? Long.MAX_VALUE : limit);
            }
        }

        public FaultPlan plan() {
            return plan;
        }

        /** Faults of {@code kind} injected so far. */
        public long injected(FaultKind kind) {
            return injected.get(kind.ordinal());
        }

        /** All faults injected so far. */
        public long injectedTotal() {
            long n = 0;
            for (FaultKind k : FaultKind.ALL) {
                n += injected(k);
            }
            return n;
        }

        /** Counts one fault of {@code kind} if the limit allows it. */
        boolean take(FaultKind kind) {
            int i = kind.ordinal();
            if (left.getAndDecrement(i) <= 0) {
                left.incrementAndGet(i);
                return false;
            }
            injected.incrementAndGet(i);
            return true;
        }

        SplittableRandom random() {
            Stream st = STREAMS.get();
            if (st == null || st.session != this) {
                long mix = Thread.currentThread().threadId() * 0x9E3779B97F4A7C15L;
                st = new Stream(this, new SplittableRandom(plan.seed ^ mix));
                STREAMS.set(st);
            }
            return st.random;
        }

        /** Disarms the plan (if it is still the installed one); the counts stay readable. */
        @Override
        public void close() {
            if (current == this) {
                current = null;
            }
        }
    }

    private record Stream(Session session, SplittableRandom random) {}
}
