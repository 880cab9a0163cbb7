package io.jring.kernel;

import io.jring.CqeFlags;
import io.jring.Errno;

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
        StringBuilder f = new StringBuilder();
        if ((flags & CqeFlags.BUFFER) != 0) {
            f.append("BUFFER(").append(CqeFlags.bufferId(flags)).append(')');
        }
        if ((flags & CqeFlags.MORE) != 0) {
            f.append(f.isEmpty() ? "" : "|").append("MORE");
        }
        int other = flags & 0xffff & ~(CqeFlags.BUFFER | CqeFlags.MORE);
        if (other != 0) {
            f.append(f.isEmpty() ? "" : "|").append("0x").append(Integer.toHexString(other));
        }
        String r = res < 0 ? "-" + Errno.name(res) : Integer.toString(res);
        return "{ud=" + userData + " res=" + r + (f.isEmpty() ? "" : " flags=" + f) + "}";
    }
}
