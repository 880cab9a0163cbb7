package io.jring.channel;

import io.jring.Errno;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.Executor;

/**
 * A positional read or write of an {@code AsynchronousFileChannel}: one READ or WRITE SQE
 * on the buffer's remaining bytes (a direct buffer's own memory, a heap buffer's through a
 * pooled bounce buffer). On completion the buffer's position moves by the bytes
 * transferred, as {@code AsynchronousFileChannel} says; a read at or past the end of the
 * file gives -1.
 *
 * @param <A> the attachment type
 */
public final class FileRwOp<A> extends RingOp {
    private final ChannelState state;
    private final Executor executor;
    private final OpFuture<Integer> future;
    private final CompletionHandler<Integer, ? super A> handler;
    private final A attachment;
    private final ByteBuffer buf;
    private final long position;
    private final boolean write;
    /** Owner-only: the bounce buffer of a heap buffer while the request is in flight. */
    private BouncePool.Lent lent;
    /** Owner-only: the native memory the request reads or writes. */
    private MemorySegment segment;

    /**
     * An operation on {@code buf}'s remaining bytes at {@code position} of the file.
     *
     * @param state the channel's descriptor
     * @param executor where the handler runs, or null for the group thread
     * @param future the Future form's future, or null
     * @param handler the handler form's handler, or null
     * @param attachment the handler's attachment
     * @param buf the buffer
     * @param position the file position
     * @param write true for a write, false for a read
     */
    public FileRwOp(ChannelState state, Executor executor, OpFuture<Integer> future,
                    CompletionHandler<Integer, ? super A> handler, A attachment,
                    ByteBuffer buf, long position, boolean write) {
        this.state = state;
        this.executor = executor;
        this.future = future;
        this.handler = handler;
        this.attachment = attachment;
        this.buf = buf;
        this.position = position;
        this.write = write;
    }

    @Override
    protected void issue(GroupRing ring) {
        if (future != null && future.isCancelled()) {
            done(ring);
            return;
        }
        int len = buf.remaining();
        if (buf.isDirect()) {
            segment = MemorySegment.ofBuffer(buf);
        } else {
            lent = ring.bounce().lend(len);
            segment = lent.segment();
            if (write) {
                MemorySegment.copy(MemorySegment.ofBuffer(buf), 0, segment, 0, len);
            }
        }
        long ud = ring.track(this);
        if (write) {
            ring.sqe().prepWrite(state.fd(), segment, position).userData(ud);
        } else {
            ring.sqe().prepRead(state.fd(), segment, position).userData(ud);
        }
    }

    @Override
    protected void complete(GroupRing ring, int res) {
        int n = res;
        if (res > 0) {
            if (!write && lent != null) {
                MemorySegment.copy(segment, 0, MemorySegment.ofBuffer(buf), 0, res);
            }
            buf.position(buf.position() + res);
        } else if (res == 0 && !write && segment.byteSize() > 0) {
            n = -1;   // nothing read from a non-empty request: end of file
        }
        Throwable failure = null;
        if (!state.isOpen()) {
            failure = new AsynchronousCloseException();
        } else if (res < 0) {
            failure = res == -Errno.ECANCELED ? new AsynchronousCloseException() : IoErrors.io(-res);
        }
        done(ring);
        if (future == null || !future.isCancelled()) {
            Completions.deliver(executor, future, handler, attachment, n, failure);
        }
    }

    private void done(GroupRing ring) {
        if (lent != null) {
            ring.bounce().giveBack(lent);
            lent = null;
        }
        state.end();
        ring.finish(this);
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
