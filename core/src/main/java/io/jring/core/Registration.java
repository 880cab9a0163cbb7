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
