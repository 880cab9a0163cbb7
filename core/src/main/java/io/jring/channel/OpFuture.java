package io.jring.channel;

import java.util.concurrent.CompletableFuture;

/**
 * The {@code Future} of an operation started in its Future form. {@link #cancel} marks it
 * cancelled (as {@code Future} says: {@code get} throws {@code CancellationException} from
 * then on) and asks the ring to cancel the operation's request; the operation's result,
 * if it still arrives, is dropped.
 *
 * @param <V> the result type
 */
public final class OpFuture<V> extends CompletableFuture<V> {
    /**
     * What cancels the request. Written once by the starting thread before the future is
     * returned, read by whoever cancels: the future's hand-over to that thread publishes it.
     */
    private Runnable canceller;

    /**
     * What {@code cancel(true)} also runs: for a socket channel, its close (the JDK's
     * PendingFuture closes the channel on a forceful cancel). Published as {@link #canceller}.
     */
    private Runnable forceful;

    /**
     * Sets what cancels the request; before the future is handed out.
     *
     * @param c run once by a successful {@link #cancel}
     */
    public void onCancel(Runnable c) {
        this.canceller = c;
    }

    /**
     * Sets what cancels the request and what a forceful cancel runs after it; before the
     * future is handed out.
     *
     * @param c run once by a successful {@link #cancel}
     * @param onForceful run after {@code c} when {@code mayInterruptIfRunning} is true
     */
    public void onCancel(Runnable c, Runnable onForceful) {
        this.canceller = c;
        this.forceful = onForceful;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        Runnable c = canceller;
        if (cancelled && c != null) {
            c.run();
        }
        Runnable f = forceful;
        if (cancelled && mayInterruptIfRunning && f != null) {
            f.run();
        }
        return cancelled;
    }
}
