package io.jring.ops;

import io.jring.Errno;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.Buffers;
import io.jring.sys.Structs;

import java.lang.foreign.MemorySegment;

/**
 * READV/WRITEV: an array of buffers ({@code len} = count, at most UIO_MAXIOV = 1024). READV
 * may take a provided buffer instead, as Linux's: one vector, whose length caps the buffer.
 */
final class VectoredRwOp extends RwOp {
    static final int UIO_MAXIOV = 1024;

    VectoredRwOp(boolean write) {
        super(write);
    }

    private static MemorySegment[] bufs(Request req) {
        return req.arg instanceof MemorySegment[] b ? b : null;
    }

    @Override
    public boolean bufferSelect() {
        return !write;
    }

    private static boolean selects(Request req) {
        return (req.flags & SqeFlags.BUFFER_SELECT) != 0;
    }

    @Override
    int prepBuffers(Request req) {
        if (selects(req)) {
            return prepSelect(req);
        }
        MemorySegment[] b = bufs(req);
        if (req.len > UIO_MAXIOV) {
            return -Errno.EINVAL;   // Linux counts before it copies the array
        }
        if (b == null) {
            return req.len == 0 ? 0 : -Errno.EFAULT;   // no vector and a count of 0: Linux transfers 0 bytes
        }
        if (req.len > b.length) {
            return -Errno.EFAULT;
        }
        long total = 0;
        for (int i = 0; i < req.len; i++) {
            if (b[i] == null) {
                continue;   // no memory: -EFAULT when issued, as Linux's copy from a NULL base
            }
            int bad = Buffers.check(b[i]);
            if (bad != 0) {
                return bad;
            }
            total += b[i].byteSize();
        }
        return total > Integer.MAX_VALUE ? -Errno.EINVAL : 0;
    }

    /**
     * As Linux's io_iov_buffer_select_prep: exactly one vector (-EINVAL), which must be there
     * (-EFAULT); its length (0: the whole buffer) becomes {@code req.len}, the most the
     * selected buffer gives, and its address is not used.
     */
    private static int prepSelect(Request req) {
        if (req.len != 1) {
            return -Errno.EINVAL;
        }
        MemorySegment[] b = bufs(req);
        if (b == null || b.length == 0) {
            return -Errno.EFAULT;
        }
        req.len = b[0] == null ? 0 : (int) Math.min(b[0].byteSize(), Integer.MAX_VALUE);
        req.arg = null;
        return 0;
    }

    @Override
    long length(Request req) {
        if (selects(req)) {
            return req.selectedLength;
        }
        MemorySegment[] b = bufs(req);
        long total = 0;
        for (int i = 0; i < req.len; i++) {
            total += b[i] == null ? 0 : b[i].byteSize();
        }
        return total;
    }

    @Override
    int iovecCount(Request req) {
        return selects(req) ? 1 : Math.max(req.len, 1);
    }

    @Override
    int fillIovecs(Request req, MemorySegment iov, long skip) {
        if (selects(req)) {
            Structs.Iovec.set(iov, 0, req.selectedAddress + skip, req.selectedLength - skip);
            return 1;
        }
        MemorySegment[] b = bufs(req);
        int n = 0;
        for (int i = 0; i < req.len; i++) {
            MemorySegment s = b[i];
            if (s == null || !s.scope().isAlive()) {
                return -Errno.EFAULT;
            }
            long size = s.byteSize();
            if (skip >= size) {
                skip -= size;
                continue;
            }
            Structs.Iovec.set(iov, n++, s.address() + skip, size - skip);
            skip = 0;
        }
        if (n == 0) {
            Structs.Iovec.set(iov, 0, 0L, 0L);
            n = req.len == 0 ? 0 : 1;
        }
        return n;
    }
}
