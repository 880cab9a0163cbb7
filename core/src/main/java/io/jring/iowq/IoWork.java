package io.jring.iowq;

/**
 * Work handed to io-wq (the kernel's {@code io_wq_work}): a request that must run blocking
 * in a worker thread. Implemented by the engine's {@code Request}; io-wq only queues it,
 * runs it and cancels it. The work hands its own result back to its ring through task work,
 * never by touching the ring from the worker.
 */
public interface IoWork {

    /** Runs the operation blocking, in an io-wq worker thread. */
    void runInWorker();

    /**
     * Called instead of {@link #runInWorker} for queued work that will never run (cancelled,
     * or io-wq shutting down); the work completes with {@code -ECANCELED} through task work.
     */
    void cancelQueued();

    /** True for the bounded account (regular files, fsync...); false for unbound (sockets, pipes). */
    boolean isBoundedWork();

    /**
     * Work items with the same non-zero key run one at a time, in queue order (buffered
     * writes to one file, as Linux hashes them by inode). 0 means no hashing.
     */
    long hashKey();
}
