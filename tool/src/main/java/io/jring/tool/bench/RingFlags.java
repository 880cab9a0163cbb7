package io.jring.tool.bench;

import io.jring.Setup;

/** {@code --flags}: the ring setup a bench runs on, by the name io_uring users know it by. */
public enum RingFlags {
    /** {@link Setup#SINGLE_ISSUER}. */
    single(Setup.SINGLE_ISSUER),
    /** {@link Setup#SINGLE_ISSUER} | {@link Setup#DEFER_TASKRUN}. */
    defer(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN),
    /** No setup flags: a shared ring. */
    none(0);

    private final int setupFlags;

    RingFlags(int setupFlags) {
        this.setupFlags = setupFlags;
    }

    public int setupFlags() {
        return setupFlags;
    }
}
