package io.jring.trace;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The rare events an operator should hear of, on {@link System.Logger} {@value #LOGGER_NAME}
 * (so they reach whatever logging the application routes System.Logger to): an io-wq worker
 * that could not be started, a dead thread's task work handed to the fallback, a CQ that
 * overflowed. Each is reported once per episode by its caller, never per request; the JFR
 * events ({@link Tracing}) carry the per-request detail.
 */
public final class RareEvents {
    /** The logger's name. */
    public static final String LOGGER_NAME = "io.jring";

    private RareEvents() {}

    private static Logger logger() {
        return System.getLogger(LOGGER_NAME);
    }

    /** The first failure to start an io-wq worker since one last started. */
    public static void workerStartFailed(String worker, Throwable cause) {
        logger().log(Level.WARNING, "io-wq worker " + worker + " could not be started (" + cause
                + "); queued work waits for a running worker, or is cancelled if there is none", cause);
    }

    /** The first time a dead thread's task work is run by the fallback. */
    public static void ownerDiedFallback(String thread) {
        logger().log(Level.WARNING, "thread '" + thread + "' ended with jring task work pending; the fallback"
                + " runs it in cancel mode (finished requests post, the rest -ECANCELED)");
    }

    /** A CQ became full and a CQE went to the overflow list (the start of an overflow episode). */
    public static void cqOverflowStarted(int ring, int cqEntries) {
        logger().log(Level.WARNING, "ring " + ring + ": CQ overflow, its " + cqEntries + " entries are full;"
                + " CQEs are kept in order on the overflow list until the application consumes the CQ");
    }
}
