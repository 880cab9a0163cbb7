package io.jring.core;

/** What a request's task work does when its task runs it (the kernel's {@code io_req_tw_func_t}). */
@FunctionalInterface
interface TaskWorkFunc {
    /** {@code cancel}: the owner is gone or the ring is closing: complete with -ECANCELED. */
    void run(Request req, boolean cancel);
}
