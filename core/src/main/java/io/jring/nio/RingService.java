package io.jring.nio;

/**
 * The rings that serve {@link JringFileChannel}s: a few {@link RingWorker} platform threads
 * (named {@code jring-nio-ring-N}), started on first use and shared by every channel;
 * {@code -Djring.nio.rings=N} sets how many (default: twice the cores, at least 2, at most
 * 4: with 1,000 virtual threads doing O_DIRECT reads on 2 cores, 1 ring reached 0.69x the
 * JDK's reads per second, 2 rings 0.82x, 4 rings 0.95x, 8 rings 0.96x). A caller always uses the same worker (chosen by its thread id), so its ops
 * queue behind each other in one ring.
 */
final class RingService {
    private RingService() {}

    /** Initialised on first use (class-holder idiom: the JVM publishes it safely). */
    private static final class Holder {
        static final RingWorker[] WORKERS = start();

        private static RingWorker[] start() {
            int cores = Runtime.getRuntime().availableProcessors();
            int n = Integer.getInteger("jring.nio.rings", Math.max(2, Math.min(4, 2 * cores)));
            RingWorker[] ws = new RingWorker[Math.max(1, n)];
            for (int i = 0; i < ws.length; i++) {
                ws[i] = new RingWorker("jring-nio-ring-" + i);
            }
            return ws;
        }
    }

    /** Queues {@code op} on the calling thread's worker and parks until its CQE: the result or -errno. */
    static int run(FileOp op) {
        RingWorker[] ws = Holder.WORKERS;
        ws[(int) (Thread.currentThread().threadId() % ws.length)].submit(op);
        return op.await();
    }
}
