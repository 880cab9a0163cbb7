package io.jring.ops;

import io.jring.Errno;
import io.jring.SqeFlags;
import io.jring.core.Request;
import io.jring.sys.Buffers;
import io.jring.sys.MsgCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;
import io.jring.sys.UserMemory;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The msghdr of SENDMSG, RECVMSG and SENDMSG_ZC (Linux's io_msg_copy_hdr and __copy_msghdr):
 * copied at prep into the request's block ({@code Request.msgBlock}), so the caller's header
 * may change once submitted, as IORING_FEAT_SUBMIT_STABLE promises; each attempt then hands
 * the kernel a fresh copy in the syscall scratch ({@link #forCall}), and a receive writes
 * {@code msg_namelen}, {@code msg_controllen} and {@code msg_flags} back into the caller's
 * header ({@link #writeBack}), as __sys_recvmsg_sock does. The iovec array, name and control
 * are read by the kernel where they point when the op runs; one deviation: Linux imports the
 * iovecs (and a send's name) at prep, so a bad pointer there is -EFAULT at submit, jring's when
 * the op runs.
 *
 * <p>Block layout: the header copy [0, 56); a multishot's name and control room [56, 72);
 * one iovec [72, 88) (a selected buffer); a sockaddr_storage [88, 216) (a multishot's name).
 */
final class MsgHeaders {
    private MsgHeaders() {}

    static final long ROOM_NAME = 56;
    static final long ROOM_CONTROL = 64;
    static final long IOV = 72;
    static final long NAME = 88;
    /** Where the attempt's iovecs go in the syscall scratch ({@link SysCallContext#path()}), after the header. */
    private static final long CALL_IOV = 64;
    private static final int CALL_IOV_CAPACITY = (int) ((SysCallContext.PATH_CAPACITY - CALL_IOV) / Structs.Iovec.SIZE);

    /**
     * Copies and checks the caller's msghdr ({@code req.addr}): 0 or -errno. With BUFFER_SELECT
     * it may have one iovec at most, whose length becomes {@code req.len} (0: the whole buffer);
     * a multishot keeps the name and control room (-EOVERFLOW if header, name and control
     * overflow an int).
     */
    static int prep(Request req, boolean multishot) {
        if (req.addr == null || Buffers.check(req.addr, MsgCalls.MSGHDR_SIZE) != 0) {
            return -Errno.EFAULT;
        }
        MemorySegment block = req.ring.resources().msgBlock(req);
        MemorySegment.copy(req.addr, 0, block, 0, MsgCalls.MSGHDR_SIZE);
        long name = block.get(JAVA_LONG, MsgCalls.NAME);
        int namelen = block.get(JAVA_INT, MsgCalls.NAMELEN);
        if (name != 0 && namelen < 0) {
            return -Errno.EINVAL;
        }
        long iovlen = block.get(JAVA_LONG, MsgCalls.IOVLEN);
        if (Long.compareUnsigned(iovlen, MsgCalls.UIO_MAXIOV) > 0) {
            return -Errno.EMSGSIZE;
        }
        if ((req.flags & SqeFlags.BUFFER_SELECT) != 0) {
            if (iovlen > 1) {
                return -Errno.EINVAL;
            }
            req.len = 0;
            if (iovlen == 1) {
                SysCallContext sc = req.sys(true);
                MemorySegment iov = block.asSlice(IOV, Structs.Iovec.SIZE);
                int bad = UserMemory.copy(sc, block.get(JAVA_LONG, MsgCalls.IOV), iov, Structs.Iovec.SIZE);
                if (bad != 0) {
                    return bad;
                }
                req.len = (int) Math.min(Structs.Iovec.len(iov, 0), Integer.MAX_VALUE);
            }
        }
        if (multishot) {
            long control = block.get(JAVA_LONG, MsgCalls.CONTROLLEN);
            if (namelen < 0 || control < 0 || 16L + namelen + control > Integer.MAX_VALUE) {
                return -Errno.EOVERFLOW;
            }
            block.set(JAVA_INT, ROOM_NAME, namelen);
            block.set(JAVA_LONG, ROOM_CONTROL, control);
        }
        return 0;
    }

    /**
     * The header for this attempt in the syscall scratch: the prep copy; after {@code done}
     * bytes of a MSG_WAITALL transfer, the iovecs that remain (a send's control went with the
     * first part, so it is dropped, as Linux does). Returns its address, or -errno.
     */
    static long forCall(Request req, SysCallContext sc, long done, boolean send) {
        MemorySegment h = sc.path();
        MemorySegment.copy(req.msgBlock, 0, h, 0, MsgCalls.MSGHDR_SIZE);
        if (done > 0) {
            int n = (int) h.get(JAVA_LONG, MsgCalls.IOVLEN);
            if (n > CALL_IOV_CAPACITY) {
                return -Errno.EMSGSIZE;
            }
            MemorySegment iov = h.asSlice(CALL_IOV, n * Structs.Iovec.SIZE);
            int bad = UserMemory.copy(sc, h.get(JAVA_LONG, MsgCalls.IOV), iov, n * Structs.Iovec.SIZE);
            if (bad != 0) {
                return bad;
            }
            int first = 0;
            long skip = done;
            while (first < n && skip >= Structs.Iovec.len(iov, first)) {
                skip -= Structs.Iovec.len(iov, first);
                first++;
            }
            if (first < n) {
                Structs.Iovec.set(iov, first, Structs.Iovec.base(iov, first) + skip,
                        Structs.Iovec.len(iov, first) - skip);
            }
            h.set(JAVA_LONG, MsgCalls.IOV, iov.address() + first * Structs.Iovec.SIZE);
            h.set(JAVA_LONG, MsgCalls.IOVLEN, n - first);
            if (send) {
                h.set(JAVA_LONG, MsgCalls.CONTROL, 0L);
                h.set(JAVA_LONG, MsgCalls.CONTROLLEN, 0L);
            }
        }
        return h.address();
    }

    /** Points the attempt's header at one buffer (a provided buffer). */
    static void singleBuffer(Request req, SysCallContext sc, long address, long len) {
        MemorySegment iov = req.msgBlock.asSlice(IOV, Structs.Iovec.SIZE);
        Structs.Iovec.set(iov, 0, address, len);
        MemorySegment h = sc.path();
        h.set(JAVA_LONG, MsgCalls.IOV, iov.address());
        h.set(JAVA_LONG, MsgCalls.IOVLEN, 1L);
    }

    /** The bytes the caller's iovecs hold (MSG_WAITALL's target, a stream's short-read test), or -errno. */
    static long iovTotal(Request req, SysCallContext sc) {
        MemorySegment h = req.msgBlock;
        int n = (int) h.get(JAVA_LONG, MsgCalls.IOVLEN);
        if (n > CALL_IOV_CAPACITY) {
            return -Errno.EMSGSIZE;
        }
        MemorySegment iov = sc.path().asSlice(CALL_IOV, Math.max(1, n) * Structs.Iovec.SIZE);
        int bad = UserMemory.copy(sc, h.get(JAVA_LONG, MsgCalls.IOV), iov, n * Structs.Iovec.SIZE);
        if (bad != 0) {
            return bad;
        }
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += Structs.Iovec.len(iov, i);
        }
        return total;
    }

    /** A receive's results into the caller's msghdr (name length, control length, flags), as recvmsg(2). */
    static void writeBack(Request req, SysCallContext sc) {
        MemorySegment h = sc.path();
        MemorySegment user = req.addr;
        user.set(JAVA_INT, MsgCalls.NAMELEN, h.get(JAVA_INT, MsgCalls.NAMELEN));
        user.set(JAVA_LONG, MsgCalls.CONTROLLEN, h.get(JAVA_LONG, MsgCalls.CONTROLLEN));
        user.set(JAVA_INT, MsgCalls.FLAGS, h.get(JAVA_INT, MsgCalls.FLAGS));
    }
}
