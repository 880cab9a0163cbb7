package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;

/**
 * POLL_REMOVE: ends the armed poll whose user data is {@code addr2}; it completes with
 * -ECANCELED (multishot: its last CQE, without MORE). Result 0, or -ENOENT if no armed poll
 * has that user data. The update forms (flags in len) are not supported: -EINVAL.
 */
final class PollRemoveOp extends OpDef {
    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (req.len != 0 || req.opFlags != 0 || req.addr != null) {
            return -Errno.EINVAL;
        }
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return req.ring.removePoll(req.addr2);
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
