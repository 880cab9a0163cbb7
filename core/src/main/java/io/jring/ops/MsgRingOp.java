package io.jring.ops;

import io.jring.Errno;
import io.jring.IoUring;
import io.jring.MsgRing;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.core.ApiAccess;
import io.jring.core.Request;
import io.jring.core.RingContext;

/**
 * MSG_RING (the kernel's io_msg_ring): DATA posts a CQE to the target ring with
 * {@code res = len} and {@code userData = off} (and, with {@code MsgRing.FLAGS_PASS}, the
 * SQE's file index as CQE flags); SEND_FD moves registered file {@code addr3} into the
 * target's table as the file index asks (slot + 1, or {@code Sqe.FILE_INDEX_ALLOC}: any free
 * slot), its CQE suppressed with {@code MsgRing.CQE_SKIP}. The target is the SQE's ring
 * argument; with FIXED_FILE, Linux's fixed-file slot {@code fd} instead, which never holds a
 * jring ring.
 *
 * <p>Checked where Linux checks: at prep a buffer index and flag bits outside CQE_SKIP |
 * FLAGS_PASS (-EINVAL, the submit stops); when issued, in io_msg_ring's order, the target
 * (-EBADF: none, an empty slot; -EBADFD: no ring, a closed one), the command (-EINVAL), for
 * DATA a source slot, CQE_SKIP or a file index without FLAGS_PASS (-EINVAL), for SEND_FD a
 * length or the sender's own ring (-EINVAL), an empty source slot (-EBADF), then the
 * install's error (-ENXIO: no file table, -ENFILE: no free slot or no table for ALLOC,
 * -EINVAL: file index 0 or out of range) or -EOWNERDEAD (the target's owner died first).
 * Inline under the sender's posting right; a SEND_FD to another thread's ring completes when
 * that thread's task has installed the file, as Linux's io_msg_fd_remote.
 */
final class MsgRingOp extends OpDef {
    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        // buf_index (buf_group shares its field in Linux's SQE); addr has no use here.
        if (req.bufIndex != 0 || req.bufGroup != 0 || req.addr != null
                || (req.opFlags & ~(MsgRing.CQE_SKIP | MsgRing.FLAGS_PASS)) != 0) {
            return -Errno.EINVAL;
        }
        if ((req.flags & SqeFlags.FIXED_FILE) != 0) {
            Files.resolveFd(req);
        } else if (req.arg instanceof IoUring target) {
            req.arg = ApiAccess.get().contextOf(target);
        }
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        if ((req.flags & SqeFlags.FIXED_FILE) != 0) {
            return req.fd < 0 ? -Errno.EBADF : -Errno.EBADFD;   // a registered file is never a jring ring
        }
        if (!(req.arg instanceof RingContext target)) {
            return req.arg == null ? -Errno.EBADF : -Errno.EBADFD;
        }
        int cmd = (int) req.addr2;
        if (cmd == MsgRing.DATA) {
            if (req.addr3 != 0 || (req.opFlags & MsgRing.CQE_SKIP) != 0
                    || ((req.opFlags & MsgRing.FLAGS_PASS) == 0 && req.fileIndex != 0)) {
                return -Errno.EINVAL;
            }
            int cflags = (req.opFlags & MsgRing.FLAGS_PASS) != 0 ? req.fileIndex : 0;
            return req.ring.msgRing().send(target, req.off, req.len, cflags, -1, 0, false, null);
        }
        if (cmd != MsgRing.SEND_FD || req.len != 0 || target == req.ring) {
            return -Errno.EINVAL;   // as Linux: a ring cannot send a file to itself
        }
        int fd = req.ring.msgRing().duplicateFixed((int) req.addr3);   // Linux's source slot is 32 bits
        if (fd < 0) {
            return fd;
        }
        return req.ring.msgRing().send(target, req.off, 0, 0, fd, req.fileIndex,
                (req.opFlags & MsgRing.CQE_SKIP) != 0, req);
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
