package io.jring.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One direction (read or write) of a socket channel, which has at most one operation
 * outstanding: {@link #IDLE}, {@link #PENDING}, or {@link #KILLED} after a timeout or a
 * cancelled Future (the JDK then refuses further operations in that direction with
 * IllegalStateException, since bytes may have been lost).
 */
public final class PendingGate {
    /** No operation outstanding. */
    public static final int IDLE = 0;
    /** One operation outstanding. */
    public static final int PENDING = 1;
    /** Timed out or cancelled: no further operation in this direction. */
    public static final int KILLED = 2;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(PendingGate.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Starters (any thread) CAS IDLE to PENDING; the completing thread (a ring thread) sets
     * it back with a volatile CAS before it delivers the result, so a handler may start the
     * next operation; a cancelling thread sets KILLED. Volatile: the CAS publishes the
     * previous operation's effects on the buffer to the next starter.
     */
    private volatile int state;

    /**
     * Any thread: claims the direction for a new operation.
     *
     * @return {@link #IDLE} if claimed, else the state that refused it
     */
    public int tryStart() {
        return (int) STATE.compareAndExchange(this, IDLE, PENDING);
    }

    /** The ring thread: the outstanding operation has finished; the direction is free again unless killed. */
    public void finish() {
        STATE.compareAndSet(this, PENDING, IDLE);
    }

    /** Any thread: no further operation in this direction. */
    public void kill() {
        state = KILLED;
    }

    /** {@return the current state} */
    public int state() {
        return state;
    }
}
