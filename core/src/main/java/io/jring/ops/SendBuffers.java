package io.jring.ops;

import io.jring.Errno;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.BufferBundle;
import io.jring.core.ProvidedBuffers;
import io.jring.core.Request;
import io.jring.sys.BundleSocketCalls;
import io.jring.sys.SocketCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;

/**
 * SEND from provided buffers ({@code BUFFER_SELECT}) and bundles ({@link Sqe#RECVSEND_BUNDLE}),
 * Linux 6.18's io_send with io_send_select_buffer and io_send_finish. The buffers are taken
 * and committed at once (a ring's head moves on before the send): up to {@code len} bytes
 * from the group's head, one buffer, or for a bundle as many as hold them (at most 256, all
 * when {@code len} is 0); a classic group gives its first buffer whole. A bundle must go out
 * whole (MSG_WAITALL: a short send waits for room), and while the group holds more, a bundle
 * that did not wait posts its CQE with {@code MORE} and the next bundle follows (Linux does
 * the same for a bundle without BUFFER_SELECT: its data, then a send of 0 bytes). The CQE has
 * the first buffer's id. One deviation: from io-wq (ASYNC) a bundle ends after its first
 * send, since only the ring's posting thread may post the CQEs of the ones that follow.
 */
final class SendBuffers {
    private SendBuffers() {}

    static int issue(Request req, boolean nonBlocking) {
        boolean bundle = (req.ioprio & Sqe.RECVSEND_BUNDLE) != 0;
        boolean select = (req.flags & SqeFlags.BUFFER_SELECT) != 0;
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        ProvidedBuffers buffers = req.ring.buffers();
        long len = req.len;   // Linux's sr->len: the SQE's, then 0 for the bundles that follow
        for (;;) {
            long address;
            long total;
            BufferBundle b = null;
            boolean emptied = false;
            if (select) {
                if (req.selectedBid < 0) {
                    int s = select(req, buffers, sc, nonBlocking, bundle, len);
                    if (s != 0) {
                        return s;
                    }
                }
                b = ProvidedBuffers.bundleOf(req);
                emptied = (req.ringSel & ProvidedBuffers.SEL_EMPTY) != 0;
                address = req.selectedAddress;
                total = b.total();
            } else {
                if (req.addr != null && !req.addr.scope().isAlive()) {
                    return -Errno.EFAULT;
                }
                address = req.addr == null ? 0 : req.addr.address();
                total = len;
            }
            long done = req.done;
            long asked = total - done;
            long r = b != null && b.count() > 1 ? sendFrom(req, sc, b, done, nonBlocking)
                    : SocketCalls.sendAt(sc, req.fd, address + done, asked, req.opFlags, nonBlocking);
            if (r == -Errno.EAGAIN) {
                return -Errno.EAGAIN;   // the buffers stay taken: the send waits for room with them
            }
            boolean waitAll = bundle || (req.opFlags & SocketCalls.MSG_WAITALL) != 0;
            if (waitAll && r > 0 && r < asked && SocketKinds.retriesWaitall(SocketKinds.of(sc, req.fd))) {
                req.markSideState(Request.SIDE_IO);
                req.done = done + r;
                return -Errno.EAGAIN;   // the rest, on readiness
            }
            long res = r >= 0 ? done + r : done > 0 ? done : r;
            if (waitAll && res < total) {
                req.markSideState(Request.SIDE_IO);
                req.failed = true;   // short of what it had to send: its link breaks
            }
            int cflags = select ? buffers.complete(req, (int) res) : 0;
            if (!bundle || res <= 0 || emptied || req.polled() || !nonBlocking || req.inWorker()) {
                req.cflags = cflags;
                return (int) res;
            }
            req.postMore((int) res, cflags);   // and the next bundle (io_send_finish)
            req.done = 0;
            len = 0;
        }
    }

    /** Takes the send's buffers: 0, or the result to end with (file checks first, as Linux). */
    private static int select(Request req, ProvidedBuffers buffers, SysCallContext sc, boolean nonBlocking,
                              boolean bundle, long len) {
        if (req.fd < 0) {
            return -Errno.EBADF;
        }
        if (!nonBlocking || req.inWorker()) {
            return Files.noBuffer(req, SysCallContext.current(), true);   // none was left for io-wq
        }
        int s = buffers.selectBuffers(req, req.bufGroup, len > 0 ? len : Integer.MAX_VALUE, true, bundle);
        if (s > 0) {
            return 0;
        }
        int file = Files.noBuffer(req, sc, true);
        return file == -Errno.ENOBUFS ? s : file;
    }

    /** sendmsg of a bundle's buffers from byte {@code skip} on. */
    private static long sendFrom(Request req, SysCallContext sc, BufferBundle b, long skip, boolean nonBlocking) {
        MemorySegment iov = Bundles.iovecs(req, sc, b.count(), nonBlocking);
        int n = b.fill(iov, skip, b.count());
        return BundleSocketCalls.send(sc, req.fd, iov, n, req.opFlags, nonBlocking);
    }
}
