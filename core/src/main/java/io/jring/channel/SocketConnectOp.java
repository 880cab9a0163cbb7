package io.jring.channel;

import io.jring.Errno;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * The connect of an {@code AsynchronousSocketChannel}: one CONNECT request (the ring tries it
 * without waiting and polls the socket until the handshake ends, as io_uring does). The
 * channel's {@code outcome} runs on the ring thread before the result is delivered, so the
 * channel is connected (or closed, after a failure, as the JDK closes it) when the handler runs.
 *
 * @param <A> the attachment type
 */
public final class SocketConnectOp<A> extends RingOp {
    private final ChannelState state;
    private final Executor executor;
    private final OpFuture<Void> future;
    private final CompletionHandler<Void, ? super A> handler;
    private final A attachment;
    private final InetSocketAddress remote;
    private final IntFunction<Throwable> outcome;
    /** Owner-only: the sockaddr, alive until the CQE. */
    private BouncePool.Lent addr;

    /**
     * A connect to {@code remote}.
     *
     * @param state the channel's descriptor
     * @param executor where the handler runs, or null for the ring thread
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param remote a checked address
     * @param outcome given the CQE's result, updates the channel and returns the failure to report, or null
     */
    public SocketConnectOp(ChannelState state, Executor executor, OpFuture<Void> future,
                           CompletionHandler<Void, ? super A> handler, A attachment, InetSocketAddress remote,
                           IntFunction<Throwable> outcome) {
        this.state = state;
        this.executor = executor;
        this.future = future;
        this.handler = handler;
        this.attachment = attachment;
        this.remote = remote;
        this.outcome = outcome;
    }

    @Override
    protected void issue(GroupRing ring) {
        addr = ring.bounce().lend(128);
        MemorySegment sa = addr.segment();
        int len = NetSockets.encode(remote, sa);
        ring.sqe().prepConnect(state.fd(), sa, len).userData(ring.track(this));
    }

    @Override
    protected void complete(GroupRing ring, int res) {
        ring.bounce().giveBack(addr);
        addr = null;
        Throwable failure;
        if (!state.isOpen() || res == -Errno.ECANCELED) {
            failure = new AsynchronousCloseException();
            outcome.apply(res == 0 ? -Errno.ECANCELED : res);
        } else {
            failure = outcome.apply(res);
        }
        state.end();
        ring.finish(this);
        if (future == null || !future.isCancelled()) {
            Completions.deliver(executor, future, handler, attachment, null, failure);
        }
    }

    /**
     * Any thread: the Future was cancelled; cancel the request on the owner thread.
     *
     * @param ring the ring the operation was started on
     */
    public void cancelOn(GroupRing ring) {
        ring.startCancel(this);
    }
}
