package io.jring.ops;

import io.jring.Errno;
import io.jring.Opcode;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.Timeout;
import io.jring.core.Request;

/**
 * TIMEOUT, TIMEOUT_REMOVE and LINK_TIMEOUT: the SQE fields as liburing fills them (the time
 * in addr2 here, since jring's SQE carries it by value; count in off; flags in opFlags; a
 * TIMEOUT_REMOVE names its target in addr2 and, updating, the new time in addr3). The flag
 * checks are Linux's (__io_timeout_prep, io_timeout_remove_prep).
 * The work is the ring's ({@code Timeouts}); these only validate and hand over. They run
 * inline under the posting right.
 */
final class TimeoutOp extends OpDef {
    private final int opcode;

    TimeoutOp(int opcode) {
        this.opcode = opcode;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // buf_index (buf_group shares its field in Linux's SQE). FIXED_FILE means nothing to a
        // TIMEOUT or LINK_TIMEOUT, which Linux ignores; TIMEOUT_REMOVE refuses it.
        if (req.bufIndex != 0 || req.bufGroup != 0 || req.addr != null) {
            return -Errno.EINVAL;
        }
        if (opcode == Opcode.TIMEOUT_REMOVE) {
            return (req.flags & SqeFlags.FIXED_FILE) != 0 ? -Errno.EINVAL : prepRemove(req);
        }
        int flags = req.opFlags;
        if (req.len != 1 || (flags & ~ARM_FLAGS) != 0 || Integer.bitCount(flags & CLOCKS) > 1
                || (flags & (Timeout.MULTISHOT | Timeout.ABS)) == (Timeout.MULTISHOT | Timeout.ABS)
                || req.addr2 < 0) {
            return -Errno.EINVAL;
        }
        req.off &= 0xFFFFFFFFL;   // the count is 32 bits: Linux reads off into a u32
        if (opcode == Opcode.LINK_TIMEOUT) {
            if (req.off != 0) {
                return -Errno.EINVAL;
            }
            return req.ring.timeouts().attachLink(req);
        }
        return 0;
    }

    private static final int CLOCKS = Timeout.BOOTTIME | Timeout.REALTIME;
    private static final int ARM_FLAGS = Timeout.ABS | CLOCKS | Timeout.ETIME_SUCCESS | Timeout.MULTISHOT;
    private static final int UPDATES = Timeout.UPDATE | Timeout.LINK_TIMEOUT_UPDATE;

    /** Removal takes no flags; an update takes UPDATE or LINK_TIMEOUT_UPDATE, and ABS. */
    private static int prepRemove(Request req) {
        int flags = req.opFlags;
        if (req.len != 0) {
            return -Errno.EINVAL;
        }
        if ((flags & UPDATES) == 0) {
            return flags != 0 ? -Errno.EINVAL : 0;   // the new time (addr3) is not read
        }
        return (flags & ~(UPDATES | Timeout.ABS)) != 0 || req.addr3 < 0 ? -Errno.EINVAL : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        switch (opcode) {
            case Opcode.TIMEOUT -> {
                req.ring.timeouts().arm(req, req.addr2, (int) req.off, req.opFlags);
                return ISSUE_QUEUED;
            }
            case Opcode.TIMEOUT_REMOVE -> {
                return req.ring.timeouts().timeoutRemove(req.addr2, req.opFlags, req.addr3);
            }
            default -> {
                return -Errno.EINVAL;   // a LINK_TIMEOUT runs with its target, never on its own
            }
        }
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
