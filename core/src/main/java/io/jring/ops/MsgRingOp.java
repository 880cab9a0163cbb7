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
 * slot), its CQE suppressed with {@code MsgRing.CQE_SKIP}. The sender's result: 0 (the slot
 * for ALLOC, also the target CQE's res), -EBADFD for a closed target, -EINVAL for bad flags,
 * a target that is not a ring or (SEND_FD) the sender's own ring, -EBADF for an empty source
 * slot, and for SEND_FD the install's error (-ENXIO: no file table, -ENFILE: no free slot or
 * no table for ALLOC, -EINVAL: file index 0 or out of range) or -EOWNERDEAD (the target's
 * owner died first). Inline under the sender's posting right; a
 * SEND_FD to another thread's ring completes when that thread's task has installed the
 * file, as Linux's io_msg_fd_remote.
 */
final class MsgRingOp extends OpDef {
    @Override
    public int prep(Request req, Sqe sqe) {
        req.copyArgs(sqe);
        if (!(req.arg instanceof IoUring target) || (req.flags & SqeFlags.BUFFER_SELECT) != 0 || req.addr != null) {
            return -Errno.EINVAL;
        }
        int cmd = (int) req.addr2;
        if (cmd == MsgRing.DATA) {
            if ((req.opFlags & ~MsgRing.FLAGS_PASS) != 0) {
                return -Errno.EINVAL;
            }
        } else if (cmd == MsgRing.SEND_FD) {
            if ((req.opFlags & ~MsgRing.CQE_SKIP) != 0 || req.addr3 < 0 || req.addr3 > Integer.MAX_VALUE) {
                return -Errno.EINVAL;
            }
        } else {
            return -Errno.EINVAL;
        }
        req.arg = ApiAccess.get().contextOf(target);
        return 0;
    }

    @Override
    public int issue(Request req, boolean nonBlocking) {
        RingContext target = (RingContext) req.arg;
        if ((int) req.addr2 == MsgRing.DATA) {
            int cflags = (req.opFlags & MsgRing.FLAGS_PASS) != 0 ? req.fileIndex : 0;
            return req.ring.sendMessage(target, req.off, req.len, cflags, -1, 0, false, null);
        }
        if (target == req.ring) {
            return -Errno.EINVAL;   // as Linux: a ring cannot send a file to itself
        }
        int fd = req.ring.duplicateFixed((int) req.addr3);
        if (fd < 0) {
            return fd;
        }
        return req.ring.sendMessage(target, req.off, 0, 0, fd, req.fileIndex,
                (req.opFlags & MsgRing.CQE_SKIP) != 0, req);
    }

    @Override
    public boolean inlineOnly(Request req) {
        return true;
    }
}
