package io.jring.sys;

import io.jring.Errno;
import io.jring.fault.FaultKind;
import io.jring.fault.FaultSite;
import io.jring.fault.Faults;

import java.lang.foreign.MemorySegment;

/**
 * Applies what the fault seam ({@link Faults#pick}) chose for one call, just before the
 * wrapper makes it. Reached only behind {@code if (Faults.ENABLED)}. An errno fault
 * replaces the call (it returns {@code -errno} without reaching the kernel); SHORT shrinks
 * what the call asks for, so the kernel really moves fewer bytes; CLOSE closes the
 * descriptor first (see {@link FaultKind#CLOSE}), so the kernel answers EBADF itself;
 * WORKER_DEATH throws out of the wrapper.
 */
final class SyscallFaults {
    private SyscallFaults() {}

    /**
     * Before a vectored call of {@code iovcnt} iovecs: the count to pass (for SHORT the
     * iovecs are cut in place, which is safe as every caller fills them anew per attempt),
     * or {@code -errno} to return instead of calling.
     */
    static long vectored(FaultSite site, int fd, MemorySegment iov, int iovcnt) {
        long total = 0;
        for (int i = 0; i < iovcnt; i++) {
            total += Structs.Iovec.len(iov, i);
        }
        FaultKind k = Faults.pick(site, fd, total);
        if (k == null) {
            return iovcnt;
        }
        if (k != FaultKind.SHORT) {
            int e = apply(k, site, fd);
            return e != 0 ? e : iovcnt;
        }
        long keep = Faults.shortLength(total);
        for (int i = 0; i < iovcnt; i++) {
            long len = Structs.Iovec.len(iov, i);
            if (len >= keep) {
                Structs.Iovec.set(iov, i, Structs.Iovec.base(iov, i), keep);
                return i + 1;
            }
            keep -= len;
        }
        return iovcnt;
    }

    /** Before a transfer of {@code len} bytes: the length to pass, or {@code -errno}. */
    static long length(FaultSite site, int fd, long len) {
        FaultKind k = Faults.pick(site, fd, len);
        if (k == null) {
            return len;
        }
        if (k == FaultKind.SHORT) {
            return Faults.shortLength(len);
        }
        int e = apply(k, site, fd);
        return e != 0 ? e : len;
    }

    /** Before a call that moves no data (fsync): 0 to make it, or {@code -errno}. */
    static int plain(FaultSite site, int fd) {
        FaultKind k = Faults.pick(site, fd, -1);
        return k == null ? 0 : apply(k, site, fd);
    }

    private static int apply(FaultKind k, FaultSite site, int fd) {
        return switch (k) {
            case EAGAIN -> -Errno.EAGAIN;
            case EINTR -> -Errno.EINTR;
            case EIO -> -Errno.EIO;
            case ENOSPC -> -Errno.ENOSPC;
            case CLOSE -> {
                FsCalls.closeMidFlight(fd);
                yield 0;
            }
            case WORKER_DEATH -> throw Faults.workerDeath(site);
            case SHORT, OWNER_EXIT, WORKER_START -> 0;
        };
    }
}
