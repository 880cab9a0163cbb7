package io.jring.kernel;

import java.time.Duration;

/** The ring a {@link ScenarioRunner} drives: jring's ({@link JringRing}) or the kernel's ({@link KernelRing}). */
interface RingDriver extends AutoCloseable {
    /** "kernel" or "jring". */
    String name();

    /** The next SQE slot, or null when the SQ is full. */
    SqeWriter nextSqe();

    int submit();

    /** Waits at most {@code timeout} for a CQE and consumes it; null if none came. */
    CqeSpec waitCqe(Duration timeout);

    void registerFiles(int[] fds);

    /**
     * Before a quiet period: waits (bounded) until work handed to the ring's worker threads
     * has been picked up, so a loaded machine does not stretch "quiet for N ms" into "still
     * queued". The kernel's io-wq starts such work within microseconds; jring's workers are
     * threads the scheduler may delay.
     */
    default void settle() {
    }

    /** This ring's ring-mapped provided-buffer groups (the scenario drivers have them; program drivers do not). */
    default BufRings bufRings() {
        throw new UnsupportedOperationException(name() + " drives no buffer rings");
    }

    @Override
    void close();

    static RingDriver kernel(int setupFlags) {
        KernelRing ring = KernelRing.open(64, setupFlags);
        return new RingDriver() {
            @Override
            public String name() {
                return "kernel";
            }

            @Override
            public SqeWriter nextSqe() {
                return ring.getSqe();
            }

            @Override
            public int submit() {
                return ring.submit();
            }

            @Override
            public CqeSpec waitCqe(Duration timeout) {
                KernelRing.KernelCqe c = ring.waitCqe(timeout);
                if (c == null) {
                    return null;
                }
                ring.cqeSeen();
                return new CqeSpec(c.userData(), c.res(), c.flags());
            }

            @Override
            public void registerFiles(int[] fds) {
                ring.registerFiles(fds);
            }

            private final BufRings bufRings = new KernelBufRings(ring);

            @Override
            public BufRings bufRings() {
                return bufRings;
            }

            @Override
            public void close() {
                ring.close();
            }
        };
    }

    static RingDriver jring(int setupFlags) {
        return new JringRing(setupFlags);
    }
}
