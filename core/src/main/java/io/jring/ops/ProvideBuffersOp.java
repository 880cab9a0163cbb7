package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.Request;
import io.jring.sys.Buffers;

/**
 * PROVIDE_BUFFERS and REMOVE_BUFFERS (the kernel's classic provided buffers): the count is
 * in fd, the buffer length in len, the first buffer id in off, the group in buf_group.
 * Providing appends {@code count} buffers cut from the region (result 0); removing takes up
 * to {@code count} out (result how many, -ENOENT if the group has none). Either is -EINVAL
 * on a group that is a registered buffer ring. They change the
 * ring's groups, so they always run inline under the posting right, as Linux runs them
 * under the ring lock.
 */
final class ProvideBuffersOp extends OpDef {
    /** Linux's MAX_BIDS_PER_BGID. */
    private static final int MAX_BIDS = 1 << 16;

    private final boolean provide;

    ProvideBuffersOp(boolean provide) {
        this.provide = provide;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // In Linux's order (io_provide_buffers_prep, io_remove_buffers_prep); FIXED_FILE means
        // nothing here and is ignored, as Linux does.
        int count = req.fd;
        if (req.opFlags != 0 || req.bufGroup < 0 || req.bufGroup >= MAX_BIDS) {
            return -Errno.EINVAL;
        }
        if (!provide) {
            return req.off != 0 || req.addr != null || req.len != 0 || count <= 0 || count > MAX_BIDS
                    ? -Errno.EINVAL : 0;
        }
        if (count <= 0 || count > MAX_BIDS) {
            return -Errno.E2BIG;
        }
        if (req.len <= 0) {
            return -Errno.EINVAL;
        }
        int bad = Buffers.check(req.addr, (long) req.len * count);
        if (bad != 0) {
            return bad;
        }
        if (req.off < 0 || req.off > MAX_BIDS - 1) {
            return -Errno.E2BIG;   // the first id is 16 bits
        }
        return req.off + count > MAX_BIDS ? -Errno.EINVAL : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (!provide) {
            return req.ring.buffers().remove(req.bufGroup, req.fd);
        }
        if (!req.addr.scope().isAlive()) {
            return -Errno.EFAULT;
        }
        return req.ring.buffers().provide(req.bufGroup, req.addr, req.len, req.fd, (int) req.off);
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
