package io.jring.stress;

import io.jring.tw.TaskContext;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Task contexts for the wait tests, owned by a thread of their own that is neither actor:
 * a waker that checks "is the waiter me?" must answer no, and an unpark must reach a live
 * thread (it only returns to its queue). The owner thread's code is a class of its own, so
 * it never waits for this class's initialisation.
 */
final class Waiters {
    private static final LinkedBlockingQueue<CompletableFuture<TaskContext>> ASKS = new LinkedBlockingQueue<>();

    static {
        Thread t = new Thread(new Owner(ASKS), "jcstress-waiter-owner");
        t.setDaemon(true);
        t.start();
    }

    private Waiters() {}

    /** A fresh context owned by the owner thread. */
    static TaskContext newContext() {
        CompletableFuture<TaskContext> ask = new CompletableFuture<>();
        ASKS.add(ask);
        return ask.join();
    }

    /** One context for tests that only need a waiter's identity. */
    static TaskContext shared() {
        return Shared.CONTEXT;
    }

    private static final class Shared {
        static final TaskContext CONTEXT = newContext();
    }

    private static final class Owner implements Runnable {
        private final LinkedBlockingQueue<CompletableFuture<TaskContext>> asks;

        Owner(LinkedBlockingQueue<CompletableFuture<TaskContext>> asks) {
            this.asks = asks;
        }

        @Override
        public void run() {
            for (;;) {
                try {
                    asks.take().complete(TaskContext.detached());
                } catch (InterruptedException e) {
                    // A daemon that serves for the VM's life: keep serving.
                }
            }
        }
    }
}
