package io.jring.ops;

import io.jring.Errno;
import io.jring.Opcode;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.Timeout;
import io.jring.core.Request;

/**
 * TIMEOUT, TIMEOUT_REMOVE and LINK_TIMEOUT: the SQE fields as liburing fills them (the time
 * in addr2 here, since jring's SQE carries it by value; count in off; flags in opFlags).
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
        if ((req.flags & (SqeFlags.BUFFER_SELECT | SqeFlags.FIXED_FILE)) != 0 || req.ioprio != 0
                || req.bufIndex != 0 || req.addr != null) {
            return -Errno.EINVAL;
        }
        if (opcode == Opcode.TIMEOUT_REMOVE) {
            return req.opFlags != 0 || req.len != 0 ? -Errno.EINVAL : 0;
        }
        if (req.len != 1 || (req.opFlags & ~Timeout.ABS) != 0 || req.addr2 < 0) {
            return -Errno.EINVAL;
        }
        if (opcode == Opcode.LINK_TIMEOUT) {
            if (req.off != 0) {
                return -Errno.EINVAL;
            }
            return req.ring.attachLinkTimeout(req);
        }
        return req.off < 0 || req.off > 0xFFFFFFFFL ? -Errno.EINVAL : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        switch (opcode) {
            case Opcode.TIMEOUT -> {
                req.ring.armTimeout(req, req.addr2, (int) req.off, req.opFlags);
                return ISSUE_QUEUED;
            }
            case Opcode.TIMEOUT_REMOVE -> {
                return req.ring.removeTimeout(req.addr2);
            }
            default -> {
                return -Errno.EINVAL;   // a LINK_TIMEOUT runs with its target, never on its own
            }
        }
    }

    @Override
    public boolean inlineOnly() {
        return true;
    }
}
