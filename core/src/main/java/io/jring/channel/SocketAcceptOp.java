package io.jring.channel;

import io.jring.Errno;
import io.jring.sys.FsCalls;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.Executor;

/**
 * The accept of an {@code AsynchronousServerSocketChannel}: one ACCEPT request; the new
 * descriptor becomes a channel of the listener's group on the ring thread that completed
 * it. A descriptor that arrives after the listener closed or the Future was cancelled is
 * closed, never leaked.
 *
 * @param <A> the attachment type
 */
public final class SocketAcceptOp<A> extends RingOp {
    /** Makes the channel for an accepted descriptor (on the ring thread). */
    @FunctionalInterface
    public interface Accepted {
        /**
         * The channel of a new connection.
         *
         * @param fd the accepted descriptor, which the channel now owns
         * @return the channel
         * @throws RuntimeException if it cannot be made (it has then closed the descriptor)
         * @throws IOException if it cannot be made (it has then closed the descriptor)
         */
        AsynchronousSocketChannel make(int fd) throws IOException;
    }

    private final ChannelState state;
    private final PendingGate gate;
    private final Executor executor;
    private final OpFuture<AsynchronousSocketChannel> future;
    private final CompletionHandler<AsynchronousSocketChannel, ? super A> handler;
    private final A attachment;
    private final Accepted accepted;

    /**
     * An accept on the listener {@code state}.
     *
     * @param state the listener's descriptor
     * @param gate the accept direction, claimed by the starter
     * @param executor where the handler runs, or null for the ring thread
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param accepted makes the new channel
     */
    public SocketAcceptOp(ChannelState state, PendingGate gate, Executor executor,
                          OpFuture<AsynchronousSocketChannel> future,
                          CompletionHandler<AsynchronousSocketChannel, ? super A> handler, A attachment,
                          Accepted accepted) {
        this.state = state;
        this.gate = gate;
        this.executor = executor;
        this.future = future;
        this.handler = handler;
        this.attachment = attachment;
        this.accepted = accepted;
    }

    @Override
    protected void issue(GroupRing ring) {
        if (future != null && future.isCancelled()) {
            done(ring);
            return;
        }
        ring.sqe().prepAccept(state.fd(), SocketCalls.SOCK_CLOEXEC).userData(ring.track(this));
    }

    @Override
    protected void complete(GroupRing ring, int res) {
        boolean dropped = future != null && future.isCancelled();
        AsynchronousSocketChannel ch = null;
        Throwable failure = null;
        if (res >= 0 && (dropped || !state.isOpen())) {
            FsCalls.close(SysCallContext.current(), res);
            failure = new AsynchronousCloseException();
        } else if (res >= 0) {
            try {
                ch = accepted.make(res);
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
        } else if (!state.isOpen() || res == -Errno.ECANCELED) {
            failure = new AsynchronousCloseException();
        } else {
            failure = NetSockets.socketError(-res);
        }
        done(ring);
        if (!dropped) {
            Completions.deliver(executor, future, handler, attachment, ch, failure);
        }
    }

    private void done(GroupRing ring) {
        if (future != null && future.isCancelled()) {
            gate.kill();
        } else {
            gate.finish();
        }
        state.end();
        ring.finish(this);
    }

    /**
     * Any thread: the Future was cancelled; no further accept (as the JDK's), and the request
     * is cancelled on the owner thread.
     *
     * @param ring the ring the operation was started on
     */
    public void cancelOn(GroupRing ring) {
        gate.kill();
        ring.startCancel(this);
    }
}
