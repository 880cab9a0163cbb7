package io.jring.core;

import io.jring.TaskWorkKind;

/**
 * Validated setup of a ring, built by {@code IoUring.Builder}.
 *
 * @param waitSpinNanos the longest a waiter with direct I/O in flight spins for a device
 *                      completion before it sleeps (0: never); see {@link CompletionSpin}
 */
public record RingParams(
        int sqEntries,
        int cqEntries,
        int flags,
        TaskWorkKind kind,
        RingContext attachWq,
        boolean legacyAsync,
        boolean legacyMsgRing,
        boolean callerCompletion,
        long waitSpinNanos) {
}
