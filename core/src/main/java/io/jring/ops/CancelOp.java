package io.jring.ops;

import io.jring.Cancel;
import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/**
 * ASYNC_CANCEL (the kernel's io_async_cancel): finds requests by user data (addr2), by fd
 * ({@code Cancel.FD}, a fixed-file slot with {@code FIXED_FILE} or {@code Cancel.FD_FIXED}:
 * the requests that use that slot) or any ({@code Cancel.ANY}) — the first match, or all with
 * {@code Cancel.ALL} — in io-wq, among armed polls and among timeouts, as Linux's
 * io_try_cancel does. Result 0 (or the count with ALL/ANY), -ENOENT if nothing matched,
 * -EALREADY if a match is running in io-wq and cannot be stopped. Inline, posting right.
 */
final class CancelOp extends OpDef {
    private static final int VALID = Cancel.ALL | Cancel.FD | Cancel.ANY | Cancel.FD_FIXED;

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // len is read only with CANCEL_OP, which jring does not take: ignored, as Linux does.
        if ((req.opFlags & ~VALID) != 0 || req.off != 0 || req.addr != null) {
            return -Errno.EINVAL;
        }
        if ((req.opFlags & Cancel.FD) != 0 && (req.opFlags & Cancel.ANY) != 0) {
            return -Errno.EINVAL;
        }
        if ((req.opFlags & Cancel.FD) != 0) {
            if ((req.opFlags & Cancel.FD_FIXED) != 0) {
                req.flags |= SqeFlags.FIXED_FILE;   // as Linux's io_async_cancel: the fd is a fixed-file slot
            }
            Files.resolveFd(req);
        }
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if ((req.opFlags & Cancel.FD) != 0
                && (req.fd < 0 || FsCalls.getStatusFlags(SysCallContext.current(), req.fd) < 0)) {
            return -Errno.EBADF;   // no such file (an empty fixed slot, a closed fd): Linux's lookup at issue fails
        }
        return req.ring.asyncCancel().cancel(req, req.opFlags, req.addr2, req.fd);
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
