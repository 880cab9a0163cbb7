package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.sys.ResourceLimits;
import io.jring.sys.SysCallContext;
import io.jring.tw.TaskContext;

import java.lang.foreign.MemorySegment;

/**
 * A ring's registrations (Linux's register.c, io_uring_register): the fixed-file and
 * fixed-buffer tables, changed under the ring's posting right, and io-wq's worker limits.
 * Called by the application's thread through {@code IoUring}; misuse throws
 * {@link IoUringException} with the errno Linux's syscall returns.
 */
public final class Registration {
    private final RingContext ring;
    /**
     * The io-wq limits last asked for with {@link #registerIoWqMaxWorkers}, bounded and
     * unbound, unclamped; 0 = never set (Linux's ctx->iowq_limits). Guarded by its own
     * monitor: registration calls may come from any thread and are rare.
     */
    private final int[] iowqLimits = new int[2];

    Registration(RingContext ring) {
        this.ring = ring;
    }

    /**
     * Runs a registration change under the posting right. A SINGLE_ISSUER ring nobody has
     * entered yet has nothing in flight and no other poster: the change runs as it is, and
     * registering does not make this thread the owner (the first thread that submits is).
     * A thread that claims the ring meanwhile would be using it concurrently, which the
     * API does not allow.
     */
    private void underPostingRight(Runnable change) {
        if (ring.singleIssuer && ring.owner() == null) {
            ring.checkUsable();
            change.run();
            return;
        }
        TaskContext tc = ring.enter();
        try {
            ring.lockRing();
            try {
                change.run();
            } finally {
                ring.unlockRing();
            }
        } finally {
            tc.exit();
        }
    }

    public void registerFiles(int[] fds) {
        underPostingRight(() -> ring.resources().files.register(fds));
    }

    public void updateFiles(int offset, int[] fds) {
        underPostingRight(() -> ring.resources().files.update(offset, fds));
    }

    public void unregisterFiles() {
        underPostingRight(ring.resources().files::unregister);
    }

    public void registerBuffers(MemorySegment[] bufs) {
        underPostingRight(() -> ring.resources().buffers.register(bufs));
    }

    public void unregisterBuffers() {
        underPostingRight(ring.resources().buffers::unregister);
    }

    // ---- ring-mapped provided buffers (kbuf.c io_register_pbuf_ring and friends)

    /** IORING_REGISTER_PBUF_RING; throws with Linux's errno. */
    public void registerBufRing(MemorySegment memory, int entries, int bgid, int flags) {
        int[] r = new int[1];
        underPostingRight(() -> r[0] = ring.buffers.registerRing(memory, entries, bgid, flags));
        if (r[0] != 0) {
            throw new IoUringException(-r[0], "registerBufRing(group " + bgid + ", " + entries + " entries, flags 0x"
                    + Integer.toHexString(flags) + ") failed: " + bufRingProblem(r[0], bgid, entries));
        }
    }

    private static String bufRingProblem(int err, int bgid, int entries) {
        return switch (-err) {
            case Errno.EEXIST -> "group " + bgid + " already has a buffer ring or provided buffers";
            case Errno.EFAULT -> "the memory is not there (null, freed, or smaller than " + entries + " entries of 16 bytes)";
            default -> "entries must be a power of two up to 32768, the memory native and page-aligned (or null"
                    + " with BufRing.MMAP), flags BufRing.MMAP | BufRing.INC";
        };
    }

    /** IORING_UNREGISTER_PBUF_RING; throws ENOENT (no such group) or EINVAL (a classic group). */
    public void unregisterBufRing(int bgid) {
        int[] r = new int[1];
        underPostingRight(() -> r[0] = ring.buffers.unregisterRing(bgid));
        if (r[0] != 0) {
            throw new IoUringException(-r[0], "unregisterBufRing(group " + bgid + "): "
                    + (r[0] == -Errno.ENOENT ? "no such group" : "the group holds provided buffers, not a ring"));
        }
    }

    /** IORING_REGISTER_PBUF_STATUS: the ring's head; throws ENOENT or EINVAL as unregister. */
    public int bufRingHead(int bgid) {
        int[] r = new int[1];
        underPostingRight(() -> r[0] = ring.buffers.ringHead(bgid));
        if (r[0] < 0) {
            throw new IoUringException(-r[0], "bufRingHead(group " + bgid + "): "
                    + (r[0] == -Errno.ENOENT ? "no such group" : "the group holds provided buffers, not a ring"));
        }
        return r[0];
    }

    /** The memory of ring {@code bgid} (what an mmap at IORING_OFF_PBUF_RING gives); EINVAL if none. */
    public MemorySegment mapBufRing(int bgid) {
        MemorySegment[] m = new MemorySegment[1];
        underPostingRight(() -> m[0] = ring.buffers.ringMemory(bgid));
        if (m[0] == null) {
            throw new IoUringException(Errno.EINVAL, "mapBufRing(group " + bgid + "): no buffer ring registered");
        }
        return m[0];
    }

    /**
     * As Linux's io_register_iowq_max_workers: the non-zero values are remembered unclamped
     * (ctx->iowq_limits), then the remembered ones are applied to io-wq clamped to the soft
     * RLIMIT_NPROC of now (io_wq_max_workers), so a lowered limit also takes effect on a call
     * that changes nothing ("0, 0"). Returns the limits io-wq had before.
     */
    public int[] registerIoWqMaxWorkers(int bounded, int unbound) {
        ring.checkUsable();
        if (bounded < 0 || unbound < 0) {
            throw new IoUringException(Errno.EINVAL, "max workers must be >= 0 (0 = unchanged), got "
                    + bounded + ", " + unbound);
        }
        long nproc = ResourceLimits.softLimit(SysCallContext.current(), ResourceLimits.RLIMIT_NPROC);
        if (nproc < 0) {
            nproc = Long.MAX_VALUE;   // cannot fail on Linux (EFAULT, EINVAL only): no limit known
        }
        synchronized (iowqLimits) {
            if (bounded != 0) {
                iowqLimits[0] = bounded;
            }
            if (unbound != 0) {
                iowqLimits[1] = unbound;
            }
            // A limit clamped to 0 (RLIMIT_NPROC 0) leaves the worker limit as it is, as in Linux.
            return ring.ioWq().setMaxWorkers((int) Math.min(iowqLimits[0], nproc), (int) Math.min(iowqLimits[1], nproc));
        }
    }
}
