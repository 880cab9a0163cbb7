package io.jring.ops;

import io.jring.core.Request;
import io.jring.sys.Buffers;
import io.jring.sys.Structs;

import java.lang.foreign.MemorySegment;

/** READ/WRITE and READ_FIXED/WRITE_FIXED: one buffer ({@code addr}, {@code len}). */
final class SingleBufferRwOp extends RwOp {
    private final boolean fixed;

    SingleBufferRwOp(boolean write, boolean fixed) {
        super(write);
        this.fixed = fixed;
    }

    /** Plain READ may take a provided buffer, as in Linux. */
    @Override
    public boolean bufferSelect() {
        return !write && !fixed;
    }

    private static boolean selects(Request req) {
        return (req.flags & io.jring.SqeFlags.BUFFER_SELECT) != 0;
    }

    @Override
    int prepBuffers(Request req) {
        if (selects(req)) {
            req.addr = null;   // not read: Linux ignores addr when it selects a buffer
            return 0;
        }
        if (req.addr == null && !fixed) {
            return 0;   // address 0, as Linux imports it: the transfer faults when issued (-EFAULT)
        }
        int bad = Buffers.check(req.addr, req.len);
        if (bad == -io.jring.Errno.EINVAL || !fixed) {
            return bad;   // a heap segment is jring's own misuse: -EINVAL before issue (API.md)
        }
        // Linux 6.x imports a registered buffer when it issues the request, so a bad one
        // (index, sparse slot, range, none registered) is -EFAULT then and submission goes
        // on. Judged here, where the table may be read; the buffer is dropped and the issue
        // finds none (fillIovecs: -EFAULT).
        if (bad != 0 || req.ring.resources().checkFixedBuffer(req.bufIndex, req.addr, req.len) != 0) {
            req.addr = null;
        }
        return 0;
    }

    @Override
    boolean missingFixedBuffer(Request req) {
        return fixed && req.addr == null;
    }

    @Override
    int issueDirect(Request req) {
        if (selects(req) || req.off < 0 || req.done != 0 || Files.checkLive(req.addr) != 0) {
            return -io.jring.Errno.EAGAIN;
        }
        io.jring.sys.DirectFile file = io.jring.sys.DirectFds.file(req.fd);
        if (file != null) {
            String misaligned = file.misalignment(req.addr.address(), req.len, req.off);
            if (misaligned != null) {
                req.ring.poster().explainFailure(req, misaligned);
                return -io.jring.Errno.EINVAL;
            }
        }
        return req.ring.directRw().submit(req, write, req.addr.address(), req.len, req.off);
    }

    @Override
    long length(Request req) {
        return selects(req) ? req.selectedLength : req.len;
    }

    @Override
    int iovecCount(Request req) {
        return 1;
    }

    @Override
    int fillIovecs(Request req, MemorySegment iov, long skip) {
        if (selects(req)) {
            Structs.Iovec.set(iov, 0, req.selectedAddress + skip, req.selectedLength - skip);
            return 1;
        }
        if (req.addr == null && !fixed) {
            Structs.Iovec.set(iov, 0, skip, req.len - skip);   // NULL: the kernel answers -EFAULT (or 0 for no bytes)
            return 1;
        }
        int bad = Files.checkLive(req.addr);
        if (bad != 0) {
            return bad;
        }
        Structs.Iovec.set(iov, 0, req.addr.address() + skip, req.len - skip);
        return 1;
    }
}
