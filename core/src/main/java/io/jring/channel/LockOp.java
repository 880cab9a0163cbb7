package io.jring.channel;

import io.jring.Errno;
import io.jring.sys.OfdLocks;
import io.jring.sys.SysCallContext;

import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileLock;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * {@code AsynchronousFileChannel.lock}: takes an open file description lock without
 * blocking the group thread. While another process holds a conflicting lock the attempt is
 * repeated on a ring TIMEOUT, from 1 ms doubling to 64 ms, so a close or a cancel ends a
 * waiting lock within one interval. The range is reserved in the {@link FileLockTable}
 * by the caller before this starts and dropped here if the lock is not taken.
 *
 * @param <A> the attachment type
 */
public final class LockOp<A> extends RingOp {
    private static final long FIRST_RETRY_NANOS = 1_000_000L;
    private static final long LAST_RETRY_NANOS = 64_000_000L;

    private final AsynchronousFileChannel channel;
    private final ChannelState state;
    private final FileLockTable.FileKey key;
    private final FileLockTable.Range range;
    private final boolean shared;
    private final Set<RingFileLock> held;
    private final Executor executor;
    private final OpFuture<FileLock> future;
    private final CompletionHandler<FileLock, ? super A> handler;
    private final A attachment;
    /** Owner-only: the next retry's delay. */
    private long retryNanos = FIRST_RETRY_NANOS;

    /**
     * A lock attempt on a reserved range.
     *
     * @param channel the channel
     * @param state its descriptor (begun by the caller)
     * @param key the file
     * @param range the reservation
     * @param shared whether a shared lock is asked for
     * @param held the channel's valid locks
     * @param executor where the handler runs, or null
     * @param future the Future form's future, or null
     * @param handler the handler, or null
     * @param attachment the handler's attachment
     */
    public LockOp(AsynchronousFileChannel channel, ChannelState state, FileLockTable.FileKey key,
                  FileLockTable.Range range, boolean shared, Set<RingFileLock> held, Executor executor,
                  OpFuture<FileLock> future, CompletionHandler<FileLock, ? super A> handler, A attachment) {
        this.channel = channel;
        this.state = state;
        this.key = key;
        this.range = range;
        this.shared = shared;
        this.held = held;
        this.executor = executor;
        this.future = future;
        this.handler = handler;
        this.attachment = attachment;
    }

    @Override
    protected void issue(GroupRing ring) {
        attempt(ring);
    }

    @Override
    protected void complete(GroupRing ring, int res) {
        attempt(ring);   // the retry timer expired (or was cancelled by the ring's close)
    }

    private void attempt(GroupRing ring) {
        if (!state.isOpen() || (future != null && future.isCancelled())) {
            fail(ring, new AsynchronousCloseException());
            return;
        }
        int r = OfdLocks.tryLock(SysCallContext.current(), state.fd(), range.position(), range.osLength(), shared);
        if (r == -Errno.EAGAIN || r == -Errno.EACCES) {
            ring.sqe().prepTimeout(retryNanos, 0, 0).userData(ring.track(this));
            retryNanos = Math.min(retryNanos * 2, LAST_RETRY_NANOS);
            return;
        }
        if (r < 0) {
            fail(ring, IoErrors.io(-r));
            return;
        }
        RingFileLock lock = new RingFileLock(channel, state, key, range, shared, held);
        if (!state.isOpen()) {
            lock.invalidate();   // closed while locking: close() may have missed this lock
        }
        state.end();
        ring.finish(this);
        Completions.deliver(executor, future, handler, attachment, lock, null);
    }

    private void fail(GroupRing ring, Throwable failure) {
        FileLockTable.remove(key, range);
        state.end();
        ring.finish(this);
        Completions.deliver(executor, future, handler, attachment, null, failure);
    }

    @Override
    protected void abandon(GroupRing ring) {
        fail(ring, new AsynchronousCloseException());
    }
}
