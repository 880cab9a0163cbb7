package io.jring.tw;

/**
 * A task's poller as its task context sees it: the epoll wait its owner may sleep in
 * instead of parking (DESIGN.md section 4), and the readiness of the waits armed in it.
 * Implemented by {@code io.jring.poll.Poller}, which tw does not name: the poller builds on
 * task work, not the other way round. Opened, counted and closed by {@code PollerRef}.
 */
public interface TaskPoller {
    /** Any thread: the owner published a sleep in this poller (an unpark would not end it). */
    boolean isSleeping();

    /** Any thread: ends the owner's sleep in this poller (a no-op once closed). */
    void wake();

    /** Token holder: armed waits need watching (so a wait must block in epoll rather than park). */
    boolean hasDemand();

    /** Token holder: dispatches the readiness there is now, without waiting; returns the events dispatched. */
    int pollNow();

    boolean isClosed();
}
