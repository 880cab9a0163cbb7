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
        // off: new user data, which needs an update; buf_index and buf_group: one field in Linux
        if (req.len != 0 || req.opFlags != 0 || req.addr != null || req.off != 0
                || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return req.ring.polls().remove(req.addr2);
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
