package io.jring.core;

import io.jring.TaskWorkKind;

/** Validated setup of a ring, built by {@code IoUring.Builder}. */
public record RingParams(
        int sqEntries,
        int cqEntries,
        int flags,
        TaskWorkKind kind,
        RingContext attachWq,
        boolean legacyAsync,
        boolean legacyMsgRing,
        boolean callerCompletion) {
}
