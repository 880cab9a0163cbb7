package io.jring.channel;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.concurrent.Executor;

/**
 * A read or write of an {@code AsynchronousSocketChannel}: one RECV or SEND (READV or WRITEV
 * for the scattering and gathering forms) on the buffers' remaining bytes, direct buffers in
 * place and heap buffers through pooled bounce buffers. With a timeout the request is linked
 * to a LINK_TIMEOUT; the result is delivered once both CQEs are in, and a request the timer
 * cancelled fails with {@link InterruptedByTimeoutException} and kills its direction (the
 * JDK's channel then refuses further reads or writes). The buffers' positions move by the
 * bytes transferred, in order; a read of a stream whose peer has shut down gives -1.
 *
 * @param <V> Integer for the single-buffer forms, Long for the vectored ones
 * @param <A> the attachment type
 */
public final class SocketRwOp<V, A> extends RingOp {
    private final ChannelState state;
    private final PendingGate gate;
    private final Executor executor;
    private final OpFuture<V> future;
    private final CompletionHandler<V, ? super A> handler;
    private final A attachment;
    private final ByteBuffer[] bufs;
    private final boolean vectored;
    private final boolean write;
    private final long timeoutNanos;
    // ---- owner-only below (the ring thread that issues and completes it)
    private BouncePool.Lent[] lent;
    private MemorySegment[] segments;
    private int cqesLeft;
    private int ioRes;
    private boolean timedOut;

    /**
     * An operation on {@code bufs}' remaining bytes.
     *
     * @param state the channel's descriptor
     * @param gate the direction, claimed by the starter; freed (or killed) before delivery
     * @param executor where the handler runs, or null for the ring thread
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param bufs the buffers (one for the single-buffer forms)
     * @param vectored whether the result is a Long (scattering/gathering forms)
     * @param write true for a write
     * @param timeoutNanos the timeout, or 0 for none
     */
    public SocketRwOp(ChannelState state, PendingGate gate, Executor executor, OpFuture<V> future,
                      CompletionHandler<V, ? super A> handler, A attachment, ByteBuffer[] bufs,
                      boolean vectored, boolean write, long timeoutNanos) {
        this.state = state;
        this.gate = gate;
        this.executor = executor;
        this.future = future;
        this.handler = handler;
        this.attachment = attachment;
        this.bufs = bufs;
        this.vectored = vectored;
        this.write = write;
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    protected void issue(GroupRing ring) {
        if (future != null && future.isCancelled()) {
            release(ring);
            return;
        }
        int n = bufs.length;
        segments = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            ByteBuffer b = bufs[i];
            if (b.isDirect()) {
                segments[i] = MemorySegment.ofBuffer(b);
                continue;
            }
            if (lent == null) {
                lent = new BouncePool.Lent[n];
            }
            lent[i] = ring.bounce().lend(b.remaining());
            segments[i] = lent[i].segment();
            if (write) {
                MemorySegment.copy(MemorySegment.ofBuffer(b), 0, segments[i], 0, b.remaining());
            }
        }
        ring.reserve(timeoutNanos > 0 ? 2 : 1);   // a link is never split between two submits
        Sqe sqe = ring.sqe();
        int fd = state.fd();
        if (!vectored) {
            if (write) {
                sqe.prepSend(fd, segments[0], 0);
            } else {
                sqe.prepRecv(fd, segments[0], 0);
            }
        } else if (write) {
            sqe.prepWritev(fd, segments, -1);
        } else {
            sqe.prepReadv(fd, segments, -1);
        }
        sqe.userData(ring.track(this));
        cqesLeft = 1;
        if (timeoutNanos > 0) {
            sqe.flags(SqeFlags.IO_LINK);
            ring.sqe().prepLinkTimeout(timeoutNanos, 0).userData(ring.track(new TimerPart()));
            cqesLeft = 2;
        }
    }

    @Override
    protected void complete(GroupRing ring, int res) {
        ioRes = res;
        if (--cqesLeft == 0) {
            finish(ring);
        }
    }

    private void timerDone(GroupRing ring, int res) {
        timedOut = res == -Errno.ETIME;
        if (--cqesLeft == 0) {
            finish(ring);
        }
    }

    private void finish(GroupRing ring) {
        long n = ioRes;
        long wanted = 0;
        for (int i = 0; i < bufs.length; i++) {
            wanted += segments[i].byteSize();
        }
        if (ioRes > 0) {
            distribute(ioRes);
        } else if (ioRes == 0 && !write && wanted > 0) {
            n = -1;   // the peer shut its side down: end of stream
        }
        Throwable failure = null;
        boolean kill = false;
        if (!state.isOpen()) {
            failure = new AsynchronousCloseException();
        } else if (ioRes < 0) {
            if (ioRes == -Errno.ECANCELED && timedOut) {
                failure = new InterruptedByTimeoutException();
                kill = true;
            } else if (ioRes == -Errno.ECANCELED) {
                failure = new AsynchronousCloseException();
            } else {
                failure = NetSockets.ioError(-ioRes);
            }
        }
        if (kill) {
            gate.kill();
        } else {
            gate.finish();
        }
        release(ring);
        if (future == null || !future.isCancelled()) {
            @SuppressWarnings("unchecked")
            V v = failure != null ? null : (V) (vectored ? (Object) n : (Object) (int) n);
            Completions.deliver(executor, future, handler, attachment, v, failure);
        }
    }

    /** Moves the buffers' positions by {@code res} bytes in order, copying heap reads out of their bounce buffers. */
    private void distribute(int res) {
        int left = res;
        for (int i = 0; i < bufs.length && left > 0; i++) {
            ByteBuffer b = bufs[i];
            int take = (int) Math.min(left, segments[i].byteSize());
            if (!write && lent != null && lent[i] != null) {
                MemorySegment.copy(segments[i], 0, MemorySegment.ofBuffer(b), 0, take);
            }
            b.position(b.position() + take);
            left -= take;
        }
    }

    private void release(GroupRing ring) {
        if (lent != null) {
            for (int i = 0; i < lent.length; i++) {
                if (lent[i] != null) {
                    ring.bounce().giveBack(lent[i]);
                    lent[i] = null;
                }
            }
        }
        if (future != null && future.isCancelled()) {
            gate.kill();
        }
        state.end();
        ring.finish(this);
    }

    /**
     * Any thread: the Future was cancelled; the direction is killed at once (as the JDK's)
     * and the request cancelled on the owner thread.
     *
     * @param ring the ring the operation was started on
     */
    public void cancelOn(GroupRing ring) {
        gate.kill();
        ring.startCancel(this);
    }

    /** The LINK_TIMEOUT's CQE: -ETIME if it fired (and cancelled the request), -ECANCELED if the request finished first. */
    private final class TimerPart extends RingOp {
        @Override
        protected void issue(GroupRing r) {
        }

        @Override
        protected void complete(GroupRing r, int res) {
            timerDone(r, res);
        }
    }
}
