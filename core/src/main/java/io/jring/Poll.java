package io.jring;

/** Poll masks ({@code POLL*}), Linux values. */
public final class Poll {
    private Poll() {}

    public static final int IN = 0x1;
    public static final int PRI = 0x2;
    public static final int OUT = 0x4;
    public static final int ERR = 0x8;
    public static final int HUP = 0x10;
    public static final int NVAL = 0x20;
    public static final int RDHUP = 0x2000;
}
