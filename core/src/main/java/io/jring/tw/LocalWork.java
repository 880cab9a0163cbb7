package io.jring.tw;

/**
 * A DEFER_TASKRUN ring's local work list (the kernel's {@code ctx->work_llist}) as its
 * owner's task sees it: run only by the holder of the owner's run token, and by the
 * fallback once the owner is gone.
 */
public interface LocalWork {
    /** Any thread, volatile-read quality. */
    boolean isEmpty();

    TaskWorkList list();
}
