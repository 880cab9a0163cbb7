package io.jring;

/** Ring setup flags ({@code IORING_SETUP_*}), Linux bit values. */
public final class Setup {
    private Setup() {}

    /** Clamp too-large sizes to the maximum instead of failing with EINVAL. */
    public static final int CLAMP = 1 << 4;
    /** Share the io-wq of the ring given to {@code Builder.attachWq}. */
    public static final int ATTACH_WQ = 1 << 5;
    /** Consume every SQE of a submit even when one fails before it is issued. */
    public static final int SUBMIT_ALL = 1 << 7;
    /** Only the first thread that submits may ever use the ring. */
    public static final int SINGLE_ISSUER = 1 << 12;
    /** Task work for this ring runs only when its owner asks for completions (requires SINGLE_ISSUER). */
    public static final int DEFER_TASKRUN = 1 << 13;

    static final int VALID = CLAMP | ATTACH_WQ | SUBMIT_ALL | SINGLE_ISSUER | DEFER_TASKRUN;
}
