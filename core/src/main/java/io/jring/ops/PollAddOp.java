package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;

/**
 * POLL_ADD (the kernel's {@code io_poll_add}): completes with the ready events of the fd,
 * masked by the requested ones (POLLERR and POLLHUP are always reported). With
 * {@code POLL_ADD_MULTI} in len it stays armed and posts a CQE with {@code MORE} on every
 * readiness until POLL_REMOVE or cancellation ends it. A file that cannot be polled (a
 * regular file) is always ready for reading and writing, as Linux's default poll mask says.
 */
final class PollAddOp extends OpDef {
    /** The request mask lives in {@code opFlags}; Linux's poll32_events is 32 bits. */
    private static final int ONESHOT_AND_ET = io.jring.sys.PollCalls.EPOLLONESHOT | io.jring.sys.PollCalls.EPOLLET;
    private static final int ALWAYS = io.jring.poll.Poller.ALWAYS_REPORTED;
    /** Linux's DEFAULT_POLLMASK: POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM. */
    private static final int DEFAULT_POLLMASK = 0x1 | 0x4 | 0x40 | 0x100;
    /** The flags POLL_ADD takes in len: IORING_POLL_ADD_MULTI (Linux refuses LEVEL here). */
    private static final int ADD_FLAGS = Sqe.POLL_ADD_MULTI;

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if ((req.len & ~ADD_FLAGS) != 0 || req.off != 0 || req.addr != null
                || req.bufIndex != 0 || req.bufGroup != 0) {   // buf_index, buf_group: one field in Linux
            return -Errno.EINVAL;
        }
        if ((req.len & Sqe.POLL_ADD_MULTI) != 0 && (req.flags & SqeFlags.CQE_SKIP_SUCCESS) != 0) {
            return -Errno.EINVAL;   // a multishot poll's CQEs cannot be skipped
        }
        req.opFlags &= ~ONESHOT_AND_ET;
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        int r = req.ring.armPoll(req, req.opFlags);
        if (r == -Errno.EPERM) {
            return req.opFlags & DEFAULT_POLLMASK;
        }
        if (r == 0) {
            req.ring.harvestReadinessNow(req);
            return ISSUE_QUEUED;
        }
        return r;
    }

    @Override
    public int pollMask(Request req) {
        return req.opFlags;
    }

    @Override
    public boolean pollMultishot(Request req) {
        return (req.len & Sqe.POLL_ADD_MULTI) != 0;
    }

    @Override
    public int pollReady(Request req, int revents) {
        int res = revents & (req.opFlags | ALWAYS);
        if (pollMultishot(req)) {
            req.postMore(res, 0);
            return ISSUE_QUEUED;
        }
        return res;
    }

    @Override
    public boolean boundedWork() {
        return false;
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
