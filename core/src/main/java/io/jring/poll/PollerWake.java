package io.jring.poll;

import io.jring.sys.FsCalls;
import io.jring.sys.PollCalls;
import io.jring.sys.SysCallContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link Poller}'s wake eventfd: another thread writes it to end the owner's epoll_wait
 * (an unpark would not). Registered edge-triggered in the poller's epoll set, so each write
 * is one event and nobody reads the counter. {@link #wake()} may be called from any thread
 * at any time, also during and after {@link #close()}.
 */
final class PollerWake {
    private final int fd;

    /** close() ran: wake() is a no-op from then on. Written once by the closer, read by wakers. */
    private volatile boolean closed;

    /**
     * Wakers inside {@link #wake()}: incremented before they read {@link #closed}, so close()
     * (which sets closed first, then waits for this to drain) never closes the eventfd under
     * a write that could land on a reused fd number. Atomic adds by wakers, volatile read.
     */
    private volatile int wakersInside;
    /** Wake writes issued, for tests and stats; wakers add atomically. */
    private volatile long writes;
    private static final VarHandle WRITES;
    private static final VarHandle WAKERS_INSIDE;

    static {
        try {
            WRITES = MethodHandles.lookup().findVarHandle(PollerWake.class, "writes", long.class);
            WAKERS_INSIDE = MethodHandles.lookup().findVarHandle(PollerWake.class, "wakersInside", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    PollerWake(int fd) {
        this.fd = fd;
    }

    /** Any thread: wakes the owner's epoll_wait. */
    void wake() {
        WAKERS_INSIDE.getAndAdd(this, 1);
        try {
            if (!closed) {
                WRITES.getAndAdd(this, 1L);
                PollCalls.eventfdWrite(SysCallContext.current(), fd, 1L);
            }
        } finally {
            WAKERS_INSIDE.getAndAdd(this, -1);
        }
    }

    long writes() {
        return writes;
    }

    boolean isClosed() {
        return closed;
    }

    /** The poller's close(), once: later wakes do nothing; waits for those inside. */
    void close() {
        closed = true;
        while (wakersInside != 0) {
            Thread.onSpinWait();
        }
    }

    /** After {@link #close()}: closes the eventfd. */
    void closeFd(SysCallContext sc) {
        FsCalls.close(sc, fd);
    }
}
