package io.jring.core;

import io.jring.poll.PollWait;

/**
 * A request's wait for readiness (Linux's {@code async_poll} and POLL_ADD entry): armed in
 * the request's task's {@link io.jring.poll.Poller}, it turns readiness into task work that
 * runs the op's {@code pollReady} in that task (DESIGN.md section 2 step 4). One per
 * request, reused while the request is pooled.
 */
final class AsyncPoll extends PollWait {
    private final Request req;

    AsyncPoll(Request req) {
        this.req = req;
    }

    /** The poller's task, holding its token: queue the request's poll task work once. */
    @Override
    protected void ready(int revents) {
        req.pollEvents |= revents;
        if (!req.pollQueued) {
            req.pollQueued = true;
            req.taskFunc = PollArming.POLL_READY;
            req.ring.issuer.queueTaskWork(req, true);
        }
    }
}
