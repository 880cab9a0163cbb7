package io.jring.fault;

import java.util.Arrays;

/**
 * Which faults the seam injects: a rate (probability per eligible call, 0..1) and an
 * optional limit (how many at most) per {@link FaultKind}, a seed for the per-thread
 * random streams, and optionally the descriptors it may touch (so a test hits only its
 * own file, never another test's). Immutable; build with {@link #seeded(long)}.
 */
public final class FaultPlan {
    final long seed;
    final double[] rates;
    /** Per kind: -1 = no limit. */
    final long[] limits;
    /** Sorted descriptors the faults may hit; null = any. */
    final int[] fds;
    /** Bit per kind with a rate above 0. */
    final int activeKinds;

    private FaultPlan(Builder b) {
        this.seed = b.seed;
        this.rates = b.rates.clone();
        this.limits = b.limits.clone();
        this.fds = b.fds == null ? null : b.fds.clone();
        int m = 0;
        for (FaultKind k : FaultKind.ALL) {
            if (rates[k.ordinal()] > 0) {
                m |= k.bit();
            }
        }
        this.activeKinds = m;
    }

    public static Builder seeded(long seed) {
        return new Builder(seed);
    }

    public long seed() {
        return seed;
    }

    public double rate(FaultKind kind) {
        return rates[kind.ordinal()];
    }

    boolean targets(int fd) {
        return fds == null || Arrays.binarySearch(fds, fd) >= 0;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("FaultPlan[seed=").append(seed);
        for (FaultKind k : FaultKind.ALL) {
            if (rates[k.ordinal()] > 0) {
                s.append(' ').append(k).append('=').append(rates[k.ordinal()]);
                if (limits[k.ordinal()] >= 0) {
                    s.append(" (at most ").append(limits[k.ordinal()]).append(')');
                }
            }
        }
        if (fds != null) {
            s.append(" fds=").append(Arrays.toString(fds));
        }
        return s.append(']').toString();
    }

    public static final class Builder {
        private final long seed;
        private final double[] rates = new double[FaultKind.ALL.length];
        private final long[] limits = new long[FaultKind.ALL.length];
        private int[] fds;

        private Builder(long seed) {
            this.seed = seed;
            Arrays.fill(limits, -1L);
        }

        /** Each eligible call gets this fault with probability {@code rate} (0..1). */
        public Builder rate(FaultKind kind, double rate) {
            if (!(rate >= 0 && rate <= 1)) {
                throw new IllegalArgumentException("fault rate must be in 0..1, got " + rate + " for " + kind);
            }
            rates[kind.ordinal()] = rate;
            return this;
        }

        /** The same rate for several kinds. */
        public Builder rate(double rate, FaultKind... kinds) {
            for (FaultKind k : kinds) {
                rate(k, rate);
            }
            return this;
        }

        /** At most {@code count} faults of {@code kind}; then that kind stops. */
        public Builder limit(FaultKind kind, long count) {
            if (count < 0) {
                throw new IllegalArgumentException("fault limit must be >= 0, got " + count + " for " + kind);
            }
            limits[kind.ordinal()] = count;
            return this;
        }

        /** Rate 1 and a limit: exactly the next {@code count} eligible calls get {@code kind}. */
        public Builder next(FaultKind kind, long count) {
            return rate(kind, 1.0).limit(kind, count);
        }

        /** Only calls on these descriptors get faults. */
        public Builder onlyFds(int... fds) {
            int[] sorted = fds.clone();
            Arrays.sort(sorted);
            this.fds = sorted;
            return this;
        }

        public FaultPlan build() {
            return new FaultPlan(this);
        }
    }
}
