package io.jring.poll;

/**
 * One armed interest in an fd (Linux's {@code io_poll} wait-queue entry): a request waiting
 * for readiness, linked into the {@link ArmedFd} of its task's {@link Poller}. Touched only
 * by that task's token holder, so its fields are plain. One-shot waits are unlinked before
 * {@link #ready} runs; multishot waits stay linked until {@link Poller#disarm}.
 */
public abstract class PollWait {
    /** Epoll/poll bits waited for. */
    int mask;
    boolean multishot;
    ArmedFd on;
    PollWait prev;
    PollWait next;

    /** Linked in a poller: readiness will be reported. */
    public final boolean isArmed() {
        return on != null;
    }

    /** The fd's events {@code revents} matched this wait's mask (or are ERR/HUP). Holder only. */
    protected abstract void ready(int revents);
}
