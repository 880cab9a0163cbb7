package io.jring;

/** Receives completions from {@link IoUring#forEachCqe}. */
@FunctionalInterface
public interface CqeHandler {
    /**
     * Called once for each CQE, in CQ order, on the thread that called {@code forEachCqe}.
     *
     * @param userData the CQE's user data
     * @param res the CQE's result: >= 0, or {@code -errno}
     * @param flags the CQE's {@link CqeFlags}
     */
    void handle(long userData, int res, int flags);
}
