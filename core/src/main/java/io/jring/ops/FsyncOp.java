package io.jring.ops;

import io.jring.Errno;
import io.jring.Fsync;
import io.jring.Sqe;
import io.jring.core.CallerCompletions;
import io.jring.core.Request;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

/** FSYNC (fsync or, with {@link Fsync#DATASYNC}, fdatasync): always in io-wq, it blocks. */
final class FsyncOp extends OpDef {
    @Override
    public boolean forceAsync(Request req) {
        return true;
    }

    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if ((req.opFlags & ~Fsync.DATASYNC) != 0 || req.addr != null || req.bufIndex != 0 || req.bufGroup != 0) {
            return -Errno.EINVAL;
        }
        Files.resolveFd(req);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if (nonBlocking) {
            return -Errno.EAGAIN;
        }
        CallerCompletions.awaitDirectIdle(req.fd);   // a worker holds no caller completions: it only waits
        SysCallContext sc = SysCallContext.current();
        return (req.opFlags & Fsync.DATASYNC) != 0 ? FsCalls.fdatasync(sc, req.fd) : FsCalls.fsync(sc, req.fd);
    }
}
