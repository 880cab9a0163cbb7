package io.jring;

/** Receives completions from {@link IoUring#forEachCqe}. */
@FunctionalInterface
public interface CqeHandler {
    void handle(long userData, int res, int flags);
}
