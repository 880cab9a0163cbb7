package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;

/** {@code IORING_OP_NOP}: completes with 0. Nonzero op flags are rejected, as Linux does. */
final class NopOp extends OpDef {
    @Override
    public int prep(Request req, Sqe sqe) {
        return sqe.opFlags() != 0 ? -Errno.EINVAL : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        return 0;
    }
}
