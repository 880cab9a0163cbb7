package io.jring.core;

import io.jring.sys.SysCallContext;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * The default home of a direct write's completion processing (seed 002's "before"): Linux
 * punts a DIO write that must flush or update the inode at completion to a workqueue
 * ({@code s_dio_done_wq}) instead of finishing it in the interrupt. jring's reaping thread
 * hands such a write to this small pool; a worker flushes it ({@link DirectIo#flushWrite})
 * and sends it back to its task as completion work ({@link DirectIo#completeFlushed}),
 * which posts the CQE.
 *
 * <p>One per ring, created by the first write that needs it and closed with the ring after
 * every request has finished. Threads: the reaping thread offers (the queue's capacity is the
 * ring's DirectIo slot count, so an offer never fails), workers take; the queue orders the
 * request's plain fields between them.
 */
final class DioCompletionPool {
    /** Workers: enough to overlap two flushes; a workqueue, not a thread per request. */
    static final int WORKERS = 2;

    private final DirectIo directIo;
    private final ArrayBlockingQueue<Request> queue;
    private final Thread[] workers = new Thread[WORKERS];

    DioCompletionPool(DirectIo directIo, int capacity, int ringId) {
        this.directIo = directIo;
        this.queue = new ArrayBlockingQueue<>(capacity);
        for (int i = 0; i < WORKERS; i++) {
            workers[i] = Thread.ofPlatform().daemon().name("jring-dio-comp-r" + ringId + "-" + i)
                    .start(this::work);
        }
    }

    /** The reaping thread: a write the device finished, to be flushed here. */
    void submit(Request req) {
        if (!queue.offer(req)) {
            throw new IllegalStateException("DIO completion queue over its slot count");
        }
    }

    private void work() {
        try (SysCallContext sc = SysCallContext.confined()) {
            for (;;) {
                Request req = queue.take();
                directIo.flushWrite(req, sc);
                directIo.completeFlushed(req);
            }
        } catch (InterruptedException stop) {
            // close(): the ring has no request left, so the queue is empty.
        }
    }

    /** After every request of the ring finished: stops the workers. */
    void close() {
        for (Thread w : workers) {
            w.interrupt();
        }
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
