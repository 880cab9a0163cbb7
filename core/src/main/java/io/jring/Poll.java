package io.jring;

/** Poll masks ({@code POLL*}), Linux values. */
public final class Poll {
    private Poll() {}

    /** Data to read. */
    public static final int IN = 0x1;
    /** Urgent data to read. */
    public static final int PRI = 0x2;
    /** Writing is possible. */
    public static final int OUT = 0x4;
    /** Error condition (always reported). */
    public static final int ERR = 0x8;
    /** Hang up (always reported). */
    public static final int HUP = 0x10;
    /** Invalid descriptor (always reported). */
    public static final int NVAL = 0x20;
    /** The peer closed its writing side (always reported). */
    public static final int RDHUP = 0x2000;
}
