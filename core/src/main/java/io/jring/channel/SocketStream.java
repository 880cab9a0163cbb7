package io.jring.channel;

import io.jring.sys.SocketCalls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.ReadPendingException;
import java.nio.channels.WritePendingException;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The two directions of a connected socket channel: starting its reads and writes as
 * {@code AsynchronousSocketChannel} says (one outstanding per direction, none after a
 * timeout or a cancel, -1 after shutdownInput, ClosedChannelException after shutdownOutput,
 * 0 at once with nothing to transfer), on the channel's ring. The channel checks that it is
 * open and connected first.
 */
public final class SocketStream {
    private final ChannelState state;
    private final GroupRing ring;
    private final Executor executor;
    private final InFlightBudget budget;
    private final Runnable closer;
    private final PendingGate reads = new PendingGate();
    private final PendingGate writes = new PendingGate();
    /** Set once by shutdownInput / shutdownOutput (any thread); volatile for the starters. */
    private volatile boolean inputShut;
    private volatile boolean outputShut;

    /**
     * The directions of the socket {@code state}.
     *
     * @param state the channel's descriptor
     * @param ring the channel's ring
     * @param executor where handlers run, or null for the ring thread
     * @param budget the group's bound on operations in flight (writes count against it)
     * @param closer closes the channel (a Future's {@code cancel(true)} does)
     */
    public SocketStream(ChannelState state, GroupRing ring, Executor executor, InFlightBudget budget,
                        Runnable closer) {
        this.closer = closer;
        this.state = state;
        this.ring = ring;
        this.executor = executor;
        this.budget = budget;
    }

    /** {@return whether shutdownInput was called} */
    public boolean inputShut() {
        return inputShut;
    }

    /** {@return whether shutdownOutput was called} */
    public boolean outputShut() {
        return outputShut;
    }

    /**
     * Shuts the input down (once; later calls do nothing).
     *
     * @throws IOException if shutdown(2) fails
     */
    public void shutdownInput() throws IOException {
        if (!inputShut) {
            NetSockets.shutdown(state.fd(), SocketCalls.SHUT_RD);
            inputShut = true;
        }
    }

    /**
     * Shuts the output down (once; later calls do nothing).
     *
     * @throws IOException if shutdown(2) fails
     */
    public void shutdownOutput() throws IOException {
        if (!outputShut) {
            NetSockets.shutdown(state.fd(), SocketCalls.SHUT_WR);
            outputShut = true;
        }
    }

    /**
     * Starts a read of an open, connected channel.
     *
     * @param vectored whether the result is a Long (the scattering form)
     * @param bufs the checked buffers
     * @param timeout the timeout (0 or less: none)
     * @param unit its unit
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param <V> Integer or Long
     * @param <A> the attachment type
     * @throws ReadPendingException if a read is outstanding
     * @throws IllegalStateException after a read timed out or was cancelled
     */
    public <V, A> void read(boolean vectored, ByteBuffer[] bufs, long timeout, TimeUnit unit,
                            OpFuture<V> future, CompletionHandler<V, ? super A> handler, A attachment) {
        int g = reads.tryStart();
        if (g == PendingGate.KILLED) {
            throw new IllegalStateException("Reading not allowed due to timeout or cancellation");
        }
        if (g == PendingGate.PENDING) {
            throw new ReadPendingException();
        }
        boolean space = vectored || bufs[0].hasRemaining();
        if (inputShut || !space) {
            reads.finish();
            Completions.later(ring, executor, future, handler, attachment, result(vectored, inputShut ? -1 : 0), null);
            return;
        }
        if (!vectored && inline(reads, bufs[0], false, future, handler, attachment)) {
            return;
        }
        start(new SocketRwOp<>(state, reads, executor, future, handler, attachment, bufs, vectored, false,
                nanos(timeout, unit)), reads, false, future, handler, attachment);
    }

    /**
     * Starts a write; on a closed channel (or after shutdownOutput) it fails with ClosedChannelException.
     *
     * @param vectored whether the result is a Long (the gathering form)
     * @param bufs the checked buffers
     * @param timeout the timeout (0 or less: none)
     * @param unit its unit
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param <V> Integer or Long
     * @param <A> the attachment type
     * @throws WritePendingException if a write is outstanding
     * @throws IllegalStateException after a write timed out or was cancelled
     */
    public <V, A> void write(boolean vectored, ByteBuffer[] bufs, long timeout, TimeUnit unit,
                             OpFuture<V> future, CompletionHandler<V, ? super A> handler, A attachment) {
        boolean closed = !state.isOpen();
        if (!closed) {
            int g = writes.tryStart();
            if (g == PendingGate.KILLED) {
                throw new IllegalStateException("Writing not allowed due to timeout or cancellation");
            }
            if (g == PendingGate.PENDING) {
                throw new WritePendingException();
            }
            if (outputShut) {
                writes.finish();
                closed = true;
            }
        }
        if (closed) {
            Completions.later(ring, executor, future, handler, attachment, null, new ClosedChannelException());
            return;
        }
        if (!vectored && !bufs[0].hasRemaining()) {
            writes.finish();
            Completions.later(ring, executor, future, handler, attachment, result(vectored, 0), null);
            return;
        }
        if (!vectored && inline(writes, bufs[0], true, future, handler, attachment)) {
            return;
        }
        start(new SocketRwOp<>(state, writes, executor, future, handler, attachment, bufs, vectored, true,
                nanos(timeout, unit)), writes, true, future, handler, attachment);
    }

    /**
     * A thread outside the ring tries the transfer itself first ({@link InlineAttempt}); true
     * if that settled the operation (the result is delivered: a Future completes here, a
     * handler runs on the ring's thread), false if it would wait and goes to the ring. The
     * ring's own thread submits instead: the ring makes the same attempt when it issues.
     */
    private <V, A> boolean inline(PendingGate gate, ByteBuffer buf, boolean write, OpFuture<V> future,
                                  CompletionHandler<V, ? super A> handler, A attachment) {
        if (ring.isOwner() || !state.begin()) {
            return false;   // a closed channel: start() fails it as usual
        }
        long r;
        try {
            r = InlineAttempt.transfer(state.fd(), buf, write);
        } finally {
            state.end();
        }
        if (r == -io.jring.Errno.EAGAIN) {
            return false;
        }
        gate.finish();
        V v = r >= 0 ? result(false, r == 0 && !write ? -1 : r) : null;
        Throwable failure = r >= 0 ? null : NetSockets.ioError((int) -r);
        Completions.later(ring, executor, future, handler, attachment, v, failure);
        return true;
    }

    @SuppressWarnings("unchecked")
    private static <V> V result(boolean vectored, long n) {
        return (V) (vectored ? (Object) n : (Object) (int) n);
    }

    private static long nanos(long timeout, TimeUnit unit) {
        return timeout > 0 ? Math.max(1, Objects.requireNonNull(unit, "unit").toNanos(timeout)) : 0;
    }

    /** Admits a claimed read or write (writes take an in-flight permit) and starts it on the ring. */
    private <V, A> void start(SocketRwOp<V, A> op, PendingGate gate, boolean counted, OpFuture<V> future,
                              CompletionHandler<V, ? super A> handler, A attachment) {
        boolean permitted = counted && budget.acquire(ring.isOwner());
        if (!state.begin()) {
            if (permitted) {
                budget.release();
            }
            gate.finish();
            Completions.later(ring, executor, future, handler, attachment, null, new ClosedChannelException());
            return;
        }
        if (future != null) {
            future.onCancel(() -> op.cancelOn(ring), closer);
        }
        op.setPermitted(permitted);
        ring.start(op);
    }
}
