package io.jring.channel;

import java.nio.channels.CompletionHandler;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Hands an operation's outcome to its caller: completes its future, or runs its completion
 * handler on the calling thread (a group thread) or on the channel's executor. A handler
 * runs from the ring loop, never from inside another handler's call, so handlers never nest
 * on a group thread's stack (the JDK bounds such nesting at 16; here the depth is always 1).
 * A handler that throws does not stop the ring: its exception goes to the thread's
 * uncaught-exception handler, as a thread-pool thread would report it.
 */
public final class Completions {
    private Completions() {}

    /**
     * Delivers a result or a failure.
     *
     * @param executor where handlers run, or null for the calling thread
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param value the result when {@code failure} is null
     * @param failure the failure, or null
     * @param <V> the result type
     * @param <A> the attachment type
     */
    public static <V, A> void deliver(Executor executor, OpFuture<V> future,
                                      CompletionHandler<V, ? super A> handler, A attachment,
                                      V value, Throwable failure) {
        if (future != null) {
            if (failure == null) {
                future.complete(value);
            } else {
                future.completeExceptionally(failure);
            }
            return;
        }
        if (handler == null) {
            return;
        }
        if (executor == null) {
            invoke(handler, attachment, value, failure);   // no Runnable: nothing allocated on this path
            return;
        }
        try {
            executor.execute(() -> invoke(handler, attachment, value, failure));
        } catch (RejectedExecutionException e) {
            invoke(handler, attachment, value, failure);   // never lose a completion: run it here rather than drop it
        }
    }

    /**
     * Delivers an outcome known when the operation starts (a closed channel, a read after
     * shutdownInput): a future completes at once; a handler runs on {@code ring}'s thread
     * (or the executor), never inside the caller's call.
     *
     * @param ring the ring whose thread runs the handler
     * @param executor where handlers run, or null for the ring thread
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param value the result when {@code failure} is null
     * @param failure the failure, or null
     * @param <V> the result type
     * @param <A> the attachment type
     */
    public static <V, A> void later(GroupRing ring, Executor executor, OpFuture<V> future,
                                    CompletionHandler<V, ? super A> handler, A attachment,
                                    V value, Throwable failure) {
        if (future != null || ring.isTerminated()) {
            deliver(executor, future, handler, attachment, value, failure);
            return;
        }
        ring.start(new RingOp() {
            @Override
            protected void issue(GroupRing r) {
                deliver(executor, null, handler, attachment, value, failure);
            }

            @Override
            protected void complete(GroupRing r, int res) {
            }
        });
    }

    private static <V, A> void invoke(CompletionHandler<V, ? super A> handler, A attachment,
                                      V value, Throwable failure) {
        try {
            if (failure == null) {
                handler.completed(value, attachment);
            } else {
                handler.failed(failure, attachment);
            }
        } catch (Throwable t) {
            Thread th = Thread.currentThread();
            th.getUncaughtExceptionHandler().uncaughtException(th, t);
        }
    }
}
