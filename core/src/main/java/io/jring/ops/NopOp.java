package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.FsCalls;

/**
 * {@code IORING_OP_NOP}: completes with 0, or with what its op flags ({@code nop_flags})
 * ask for, as Linux 6.18's io_nop: INJECT_RESULT completes with {@code len}; FILE looks the
 * fd up (a fixed-file slot with FIXED_FILE) and fails with -EBADF if there is no such file;
 * FIXED_BUFFER fails with -EFAULT if registered buffer {@code bufIndex} is absent;
 * TW completes through task work, which jring's result does not show. CQE32 needs a ring
 * with 32-byte CQEs, which jring has not: -EINVAL, as Linux for such a ring. A negative
 * result fails the request (it breaks a link) like any other error.
 */
final class NopOp extends OpDef {
    static final int INJECT_RESULT = 1;
    static final int FILE = 1 << 1;
    static final int FIXED_FILE = 1 << 2;
    static final int FIXED_BUFFER = 1 << 3;
    static final int TW = 1 << 4;
    private static final int VALID = INJECT_RESULT | FILE | FIXED_FILE | FIXED_BUFFER | TW;

    @Override
    public int prep(Request req, Sqe sqe) {
        int flags = sqe.opFlags();
        req.opFlags = flags;
        if (flags == 0) {
            return 0;   // the common NOP: nothing else to copy
        }
        if ((flags & ~VALID) != 0) {
            return -Errno.EINVAL;
        }
        // The result is decided here, where the ring's tables may be read (posting right): an
        // ASYNC NOP is issued by a worker, which may not. Linux looks at issue; the two differ
        // only if the file or buffer changes while the NOP waits behind a link or drain.
        int res = (flags & INJECT_RESULT) != 0 ? sqe.len() : 0;
        if ((flags & FILE) != 0 && !fileExists(req, (flags & FIXED_FILE) != 0)) {
            res = -Errno.EBADF;
        } else if ((flags & FIXED_BUFFER) != 0 && !req.ring.resources().hasFixedBuffer(sqe.bufIndex())) {
            res = -Errno.EFAULT;
        }
        req.len = res;
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (req.opFlags == 0) {
            return 0;
        }
        int res = req.len;
        if (res == ISSUE_QUEUED) {
            // An injected INT_MIN reads as "queued" here: post it through task work instead.
            req.ring.completeFromElsewhere(req, res, 0);
        }
        return res;   // an injected -EAGAIN goes round io-wq once and is posted as is
    }

    private static boolean fileExists(Request req, boolean fixed) {
        if (fixed) {
            return req.ring.resources().resolveFixedFile(req.fd) >= 0;
        }
        return req.fd >= 0 && FsCalls.getStatusFlags(req.ring.resources().inlineSys(), req.fd) >= 0;
    }
}
