package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.Request;

/**
 * POLL_ADD (the kernel's {@code io_poll_add}): completes with the ready events of the fd,
 * masked by the requested ones (POLLERR, POLLHUP, POLLNVAL and POLLRDHUP are always
 * reported). Readiness is looked at as it is armed, as Linux's {@code vfs_poll} at arm time:
 * a ready one-shot poll completes in the submit; a ready multishot one posts its first CQE
 * as task work (so a POLL_REMOVE in the same submit gets -EALREADY). With
 * {@code POLL_ADD_MULTI} in len it stays armed and posts a CQE with {@code MORE} on every
 * readiness until POLL_REMOVE or cancellation ends it. A file that cannot be polled (a
 * regular file) completes at once with the events of Linux's default poll mask it asked
 * for, a multishot poll too (one CQE without MORE), or -EINVAL if it asked for none.
 */
final class PollAddOp extends OpDef {
    /** The request mask lives in {@code opFlags}; Linux's poll32_events is 32 bits. */
    private static final int ONESHOT_AND_ET = io.jring.sys.PollCalls.EPOLLONESHOT | io.jring.sys.PollCalls.EPOLLET;
    private static final int ALWAYS = io.jring.poll.Poller.ALWAYS_REPORTED;
    /** Linux's DEFAULT_POLLMASK: POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM. */
    private static final int DEFAULT_POLLMASK = 0x1 | 0x4 | 0x40 | 0x100;
    /** The flags POLL_ADD takes in len: Linux 6.18 refuses IORING_POLL_ADD_LEVEL at prep too. */
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
        int readiness = io.jring.poll.Poller.readiness(req.fd);
        if (readiness < 0) {
            return readiness;
        }
        int ready = readiness & (req.opFlags | ALWAYS);
        if (ready != 0 && !pollMultishot(req)) {
            return ready;
        }
        int r = req.ring.polls().arm(req, req.opFlags, readiness);
        if (r == -Errno.EPERM) {
            int res = req.opFlags & DEFAULT_POLLMASK;
            return res != 0 ? res : -Errno.EINVAL;   // Linux: a file with no wait queue and nothing ready
        }
        return r == 0 ? ISSUE_QUEUED : r;
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
