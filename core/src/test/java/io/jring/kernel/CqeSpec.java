package io.jring.kernel;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.testkit.RingTestSupport;

/** A CQE as a value, expected or observed; prints errno and flag names. */
public record CqeSpec(long userData, int res, int flags) {
    public static CqeSpec cqe(long userData, int res) {
        return new CqeSpec(userData, res, 0);
    }

    public static CqeSpec cqe(long userData, int res, int flags) {
        return new CqeSpec(userData, res, flags);
    }

    /** CQE flags of a completion that used provided buffer {@code bid}. */
    public static int buffer(int bid) {
        return CqeFlags.BUFFER | bid << CqeFlags.BUFFER_SHIFT;
    }

    @Override
    public String toString() {
        String f = RingTestSupport.flagNames(flags);
        String r = res < 0 ? "-" + Errno.name(res) : Integer.toString(res);
        return "{ud=" + userData + " res=" + r + (f.isEmpty() ? "" : " flags=" + f) + "}";
    }
}
