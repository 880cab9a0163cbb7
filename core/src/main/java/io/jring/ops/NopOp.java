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
 * result fails the request (it breaks a link) like any other error. Unknown flags fail at
 * prep; the file and the buffer are looked up when the NOP is issued, as Linux does (so a
 * slot filled by an earlier member of its chain counts).
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
        req.len = (flags & INJECT_RESULT) != 0 ? sqe.len() : 0;
        req.bufIndex = sqe.bufIndex();
        return 0;
    }

    /**
     * An ASYNC NOP is issued by a worker, which may not read the ring's tables: its result is
     * decided here, on the submitting side (posting right), just before it goes to io-wq.
     */
    @Override
    public void preparePunt(Request req) {
        if (req.opFlags != 0) {
            decide(req);
        }
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (req.opFlags == 0) {
            return 0;
        }
        if (nonBlocking && !req.inWorker()) {
            decide(req);   // inline, posting right: the tables may be read
        }
        int res = req.len;
        if (res == ISSUE_QUEUED) {
            // An injected INT_MIN reads as "queued" here: post it through task work instead.
            req.ring.issuer().completeFromElsewhere(req, res, 0);
        }
        return res;   // an injected -EAGAIN goes round io-wq once and is posted as is
    }

    /** The result into {@code req.len}: the injected one unless the file or buffer is missing. */
    private static void decide(Request req) {
        int flags = req.opFlags;
        if ((flags & FILE) != 0 && !fileExists(req, (flags & FIXED_FILE) != 0)) {
            req.len = -Errno.EBADF;
        } else if ((flags & FIXED_BUFFER) != 0 && !req.ring.resources().hasFixedBuffer(req.bufIndex)) {
            req.len = -Errno.EFAULT;
        }
    }

    private static boolean fileExists(Request req, boolean fixed) {
        if (fixed) {
            return req.ring.resources().resolveFixedFile(req.fd) >= 0;
        }
        return req.fd >= 0 && FsCalls.getStatusFlags(req.ring.resources().inlineSys(), req.fd) >= 0;
    }
}
