package io.jring.core;

/** What a request's task work does when its task runs it (the kernel's {@code io_req_tw_func_t}). */
@FunctionalInterface
interface TaskWorkFunc {
    /**
     * {@code cancel}: the owner is gone (Linux's fallback work, io_should_terminate_tw): what
     * would go on in its task (a retry on readiness, an issue) ends with -ECANCELED, what has
     * finished posts its result.
     */
    void run(Request req, boolean cancel);
}
