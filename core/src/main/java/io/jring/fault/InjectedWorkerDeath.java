package io.jring.fault;

/**
 * The Error the fault seam throws in an io-wq worker to kill it mid-item
 * ({@link FaultKind#WORKER_DEATH}): it stands for any Error that may escape an item
 * (OutOfMemoryError, StackOverflowError, a bug). No stack trace: it is thrown on purpose.
 */
public final class InjectedWorkerDeath extends Error {
    InjectedWorkerDeath(FaultSite site) {
        super("fault injected: io-wq worker dies in " + site, null, false, false);
    }
}
