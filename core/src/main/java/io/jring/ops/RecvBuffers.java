package io.jring.ops;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Sqe;
import io.jring.core.BufferBundle;
import io.jring.core.ProvidedBuffers;
import io.jring.core.Request;
import io.jring.sys.BundleSocketCalls;
import io.jring.sys.PollCalls;
import io.jring.sys.SocketCalls;
import io.jring.sys.SocketKinds;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;

/**
 * RECV into provided buffers as multishot ({@link Sqe#RECV_MULTISHOT}) or bundle
 * ({@link Sqe#RECVSEND_BUNDLE}), Linux 6.18's io_recv with io_recv_buf_select and
 * io_recv_finish. Each round selects (a bundle: several buffers in a row), receives, and
 * finishes: a multishot posts the round's CQE with {@code MORE} and goes on while the socket
 * holds data (or, a datagram socket, until EAGAIN), then waits armed; it ends, without MORE,
 * at EOF (0), on an error, when the group is empty at a round's start (-ENOBUFS), when the
 * byte limit in {@code file_index} (sqe->optlen) is reached, or for a bundle that used the
 * ring's last buffer. A bundle that filled all it mapped while more bytes wait maps the rest
 * and goes on into the same CQE (Linux's IORING_RECV_RETRY: res all the bytes, the buffer id
 * the first's). Two simplifications, visible only in timing: a multishot that keeps finding
 * data loops on instead of requeueing after 32 rounds (MULTISHOT_MAX_RETRY), and a full CQ
 * overflows instead of ending the multishot.
 */
final class RecvBuffers {
    private RecvBuffers() {}

    /** Linux's CQE_F_MASK: the flags a bundle that went on takes from its last part. */
    private static final int CQE_F_MASK = CqeFlags.SOCK_NONEMPTY | CqeFlags.MORE | CqeFlags.BUF_MORE;

    /** Readiness that a short read does not clear (the peer's FIN, a reset): one more recv will see it. */
    private static final int HANGUP = PollCalls.EPOLLRDHUP | PollCalls.EPOLLHUP | PollCalls.EPOLLERR;

    /**
     * One round or more. {@code revents}: the readiness that woke an armed multishot (0 for
     * the first attempt). jring's poller is edge-triggered, so an EOF or error reported along
     * with data that a short read then took makes no new edge: the loop receives once more
     * instead of waiting (Linux re-polls the file for the wakeup it counted).
     */
    static int issue(Request req, boolean nonBlocking, int revents) {
        boolean multishot = (req.ioprio & Sqe.RECV_MULTISHOT) != 0;
        boolean bundle = (req.ioprio & Sqe.RECVSEND_BUNDLE) != 0;
        boolean limited = multishot && req.fileIndex != 0;
        SysCallContext sc = NetOps.sys(req, nonBlocking);
        ProvidedBuffers buffers = req.ring.buffers();
        long len = req.len;        // this round's length (Linux's sr->len)
        int firstFlags = 0;        // the CQE flags of a bundle's first part, once it goes on
        boolean retrying = false;  // IORING_RECV_RETRY
        boolean capped = false;    // IORING_RECV_MSHOT_CAP
        int inq = 0;               // bytes the last recv left (Linux's msg_inq), -1 unknown
        for (;;) {
            long r = 0;
            long asked = 0;
            boolean selectFailed = false;
            if (req.selectedBid < 0) {
                int s = select(req, buffers, sc, nonBlocking, bundle, len, inq, limited);
                if (s < 0) {
                    r = s;
                    selectFailed = true;
                }
            }
            boolean emptied = false;
            if (!selectFailed) {
                boolean mapped = (req.ringSel & ProvidedBuffers.SEL_BUNDLE) != 0;
                emptied = (req.ringSel & ProvidedBuffers.SEL_EMPTY) != 0;
                BufferBundle b = ProvidedBuffers.bundleOf(req);
                long skip = req.done - b.base;   // bytes already in this selection (a MSG_WAITALL recv going on)
                asked = (mapped ? b.total() : req.selectedLength) - skip;
                r = mapped && b.count() > 1 ? recvInto(req, sc, b, skip, nonBlocking)
                        : SocketCalls.recvAt(sc, req.fd, req.selectedAddress + skip, asked, req.opFlags, nonBlocking);
                if (r == -Errno.EAGAIN) {
                    giveBack(req);
                    return -Errno.EAGAIN;   // wait armed (a multishot stays so)
                }
                if ((req.opFlags & SocketCalls.MSG_WAITALL) != 0 && r > 0 && r < asked
                        && SocketKinds.retriesWaitall(SocketKinds.of(sc, req.fd))) {
                    req.markSideState(Request.SIDE_IO);
                    req.done += r;
                    buffers.commitPartial(req, (int) req.done);
                    return -Errno.EAGAIN;   // the rest, on readiness (io_net_kbuf_recyle)
                }
            }
            boolean finished = r <= 0;
            long doneBefore = req.done;
            long res = r > 0 ? doneBefore + r : (doneBefore > 0 ? doneBefore : r);
            if (r <= 0 && doneBefore == 0) {
                giveBack(req);
            }
            int cflags = selectFailed ? 0 : SockNonEmpty.after(sc, req.fd, r, asked, req.opFlags);
            if (res > 0 && limited) {
                req.fileIndex -= (int) Math.min(res, Integer.toUnsignedLong(req.fileIndex));
                if (req.fileIndex == 0) {
                    finished = true;   // IORING_RECV_MSHOT_DONE: the byte limit is reached
                    limited = false;
                    capped = true;
                }
            }
            if (bundle) {
                long thisRet = res - doneBefore;
                cflags |= buffers.complete(req, (int) thisRet);
                if (retrying) {
                    cflags = firstFlags | (cflags & CQE_F_MASK);
                }
                if (multishot && req.len > 0 && res >= req.len) {
                    capped = true;
                }
                if (!emptied && !retrying && !capped && !ProvidedBuffers.bundleOf(req).partialMap
                        && thisRet > 0 && thisRet == asked) {
                    int left = bytesLeft(sc, req.fd);
                    if (left > 1) {
                        firstFlags = cflags & ~CQE_F_MASK;
                        len = left;
                        req.markSideState(Request.SIDE_IO);
                        req.done += thisRet;
                        retrying = true;
                        continue;
                    }
                }
            } else {
                cflags |= buffers.complete(req, (int) res);
            }
            if (multishot && !finished && !(bundle && emptied)) {
                req.postMore((int) res, cflags);
                req.done = 0;   // the next round (io_mshot_prep_retry)
                retrying = false;
                if (bundle) {
                    ProvidedBuffers.bundleOf(req).partialMap = false;
                }
                len = req.len;
                if ((cflags & CqeFlags.SOCK_NONEMPTY) != 0) {
                    inq = bundle ? Math.max(bytesLeft(sc, req.fd), 1) : 1;
                } else {
                    inq = unknownInq(sc, req.fd) ? -1 : 0;
                }
                if (inq != 0) {
                    capped = false;
                    continue;   // known not empty, or unknown: receive again
                }
                if ((revents & HANGUP) != 0) {
                    revents = 0;
                    continue;   // the EOF or error that came with this data
                }
                return -Errno.EAGAIN;   // wait armed for the next arrival
            }
            req.cflags = cflags;
            return (int) res;
        }
    }

    /** One round's buffers: 0, or the result to finish with (-ENOBUFS after the file checks Linux makes first). */
    private static int select(Request req, ProvidedBuffers buffers, SysCallContext sc, boolean nonBlocking,
                              boolean bundle, long len, int inq, boolean limited) {
        if (req.fd < 0) {
            return -Errno.EBADF;
        }
        if (!nonBlocking || req.inWorker()) {
            return Files.noBuffer(req, SysCallContext.current(), true);   // none was left for io-wq
        }
        int s;
        if (bundle) {
            long maxLen = len > 0 ? len : inq > 1 ? inq : 0;
            if (limited) {
                long total = Integer.toUnsignedLong(req.fileIndex);
                maxLen = maxLen == 0 ? total : Math.min(maxLen, total);
            }
            s = buffers.selectBuffers(req, req.bufGroup, maxLen, false, true);
            ProvidedBuffers.bundleOf(req).base = req.done;
        } else {
            s = buffers.select(req, req.bufGroup, (int) Math.min(len, Integer.MAX_VALUE));
        }
        if (s >= 0) {
            return 0;
        }
        int file = Files.noBuffer(req, sc, true);
        return file == -Errno.ENOBUFS ? s : file;
    }

    /** A selection the recv put nothing in goes back (io_kbuf_recycle); one committed already stays. */
    private static void giveBack(Request req) {
        if (req.done == 0) {
            req.ring.buffers().recycle(req);
        }
    }

    /** recvmsg into a bundle's buffers from byte {@code skip} on. */
    private static long recvInto(Request req, SysCallContext sc, BufferBundle b, long skip, boolean nonBlocking) {
        MemorySegment iov = Bundles.iovecs(req, sc, b.count(), nonBlocking);
        int n = b.fill(iov, skip, b.count());
        return BundleSocketCalls.recv(sc, req.fd, iov, n, req.opFlags, nonBlocking);
    }

    /** Bytes queued after a recv that filled a bundle (Linux's msg_inq), -1 if the socket does not say. */
    private static int bytesLeft(SysCallContext sc, int fd) {
        int kind = SocketKinds.of(sc, fd);
        if (kind != SocketKinds.UNIX_STREAM && kind != SocketKinds.TCP) {
            return -1;
        }
        int n = SocketKinds.bytesQueued(sc, fd);
        return n < 0 ? -1 : n;
    }

    /** Datagram and other sockets leave Linux's msg_inq unknown: a multishot receives until EAGAIN. */
    private static boolean unknownInq(SysCallContext sc, int fd) {
        int kind = SocketKinds.of(sc, fd);
        return kind != SocketKinds.UNIX_STREAM && kind != SocketKinds.TCP;
    }
}
