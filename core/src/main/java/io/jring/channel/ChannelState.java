package io.jring.channel;

import io.jring.Fds;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;

/**
 * A channel's descriptor and its life: the operations in flight on it, its close, and the
 * moment the descriptor itself is closed (when the channel is closed and the last operation
 * in flight has finished, so no request ever reaches a descriptor number reused by another
 * file). An operation brackets its use of the descriptor with {@link #begin} and
 * {@link #end}.
 */
public final class ChannelState {
    private static final VarHandle PENDING;
    private static final VarHandle CLOSED;
    private static final VarHandle RELEASED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PENDING = l.findVarHandle(ChannelState.class, "pending", int.class);
            CLOSED = l.findVarHandle(ChannelState.class, "closed", int.class);
            RELEASED = l.findVarHandle(ChannelState.class, "released", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int fd;
    private final CountDownLatch fdClosed = new CountDownLatch(1);

    /**
     * Operations in flight. Incremented by starters (any thread) before they read
     * {@link #closed}; close sets {@code closed} before it reads this: both volatile
     * (Dekker), so either the starter sees the close and backs out or the close sees it.
     */
    private volatile int pending;

    /** 0 open, 1 closed; CAS by close(), volatile reads everywhere. */
    private volatile int closed;

    /** 1 once the descriptor is closed; CAS by whoever closes it (exactly one thread). */
    private volatile int released;

    /**
     * The state of an open descriptor.
     *
     * @param fd the descriptor, closed by this state
     */
    public ChannelState(int fd) {
        this.fd = fd;
    }

    /** {@return the descriptor} */
    public int fd() {
        return fd;
    }

    /** {@return whether the channel is open} */
    public boolean isOpen() {
        return closed == 0;
    }

    /**
     * Any thread: an operation starts using the descriptor.
     *
     * @return false if the channel is closed (the operation must fail with ClosedChannelException)
     */
    public boolean begin() {
        PENDING.getAndAdd(this, 1);
        if (closed != 0) {
            end();
            return false;
        }
        return true;
    }

    /** Any thread holding a pin or an operation: one more pin, let go with {@link #end}. */
    public void pin() {
        PENDING.getAndAdd(this, 1);
    }

    /** Any thread: an operation has finished with the descriptor. */
    public void end() {
        if ((int) PENDING.getAndAdd(this, -1) == 1 && closed != 0) {
            release();
        }
    }

    /**
     * Any thread: closes the channel. The successful closer then holds a pin on the
     * descriptor, as an operation would, so that a cancel by descriptor it sends cannot
     * reach another file that reuses the number; it lets go with {@link #end}, and the last
     * of the pin and the operations in flight closes the descriptor.
     *
     * @return true for the one call that closed it, false if it was closed already
     */
    public boolean close() {
        PENDING.getAndAdd(this, 1);   // the closer's pin (see above)
        if (!CLOSED.compareAndSet(this, 0, 1)) {
            end();
            return false;
        }
        return true;
    }

    /**
     * Waits until the descriptor is closed (its last operation finished).
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitReleased() throws InterruptedException {
        fdClosed.await();
    }

    /** Waits, not interruptibly (the interrupt is kept), until the descriptor is closed. */
    public void awaitReleasedUninterruptibly() {
        boolean interrupted = false;
        for (;;) {
            try {
                fdClosed.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void release() {
        if (RELEASED.compareAndSet(this, 0, 1)) {
            try {
                Fds.close(fd);
            } finally {
                fdClosed.countDown();
            }
        }
    }
}
