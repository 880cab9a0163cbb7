package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.CallerCompletions;
import io.jring.core.Request;
import io.jring.sys.DirectFds;
import io.jring.sys.DirectFile;
import io.jring.sys.FileFlush;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/**
 * CLOSE of a plain descriptor, or of a fixed-file slot when the SQE has a file index (slot
 * + 1 with fd 0, liburing's io_uring_prep_close_direct). A descriptor is closed inline when
 * its close cannot block, as Linux's io_close does for files without a ->flush (FileFlush),
 * else in io-wq, as is one with O_DIRECT I/O in flight (the close waits for it). A slot is
 * emptied inline under the posting right, which owns the table, as Linux's io_close_fixed
 * runs under the ring lock.
 */
final class CloseOp extends OpDef {
    @Override
    public boolean inlineOnly(Request req) {
        return req.fileIndex != 0;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // As Linux's io_close_prep: stray fields are -EINVAL (off and addr2, buf_index and
        // buf_group share a field there; ioprio is refused by io_init_req for CLOSE), a
        // FIXED_FILE close -EBADF, a descriptor and a slot at once -EINVAL.
        if (req.off != 0 || req.addr2 != 0 || req.addr != null || req.arg != null || req.len != 0
                || req.opFlags != 0 || req.bufIndex != 0 || req.bufGroup != 0 || req.ioprio != 0) {
            return -Errno.EINVAL;
        }
        if ((req.flags & SqeFlags.FIXED_FILE) != 0) {
            return -Errno.EBADF;
        }
        return req.fileIndex != 0 && req.fd != 0 ? -Errno.EINVAL : 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (req.fileIndex != 0) {
            return req.ring.resources().closeFixed(req.fileIndex - 1);   // inline: see inlineOnly
        }
        if (nonBlocking) {
            SysCallContext sc = req.sys(true);
            DirectFile direct = DirectFds.file(req.fd);
            if ((direct != null && direct.inFlight() > 0) || FileFlush.mayFlush(sc, req.fd)) {
                return -Errno.EAGAIN;   // to io-wq
            }
            DirectFds.closed(req.fd);
            return FsCalls.close(sc, req.fd);
        }
        CallerCompletions.awaitDirectIdle(req.fd);   // a worker holds no caller completions: it only waits
        DirectFds.closed(req.fd);
        return FsCalls.close(SysCallContext.current(), req.fd);
    }
}
