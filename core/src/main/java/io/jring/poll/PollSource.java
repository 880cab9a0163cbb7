package io.jring.poll;

/**
 * Something registered in a {@link Poller}'s epoll set: an fd with armed poll requests, a
 * ring's direct-I/O eventfd. {@link #onReady} runs in the poller's task, holding its run
 * token, after the epoll wait that reported it.
 */
public interface PollSource {
    /** Readiness {@code revents} (epoll bits, which equal Linux's poll bits) was reported. */
    void onReady(Poller poller, int revents);
}
