package io.jring.sys;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * recvmsg and sendmsg over an array of iovecs, for the bundles of provided buffers
 * (IORING_RECVSEND_BUNDLE): one call moves bytes into or out of several buffers. The
 * {@code struct msghdr} (no name, no control) is written right after the {@code n} iovecs in
 * the caller's iovec memory, which must have room for {@link #MSGHDR_SLOTS} more entries.
 * The calls themselves are {@link MsgCalls}'s (MSG_DONTWAIT on {@code nowait}, EINTR retried,
 * {@code >= 0} or {@code -errno}, MSG_NOSIGNAL on sends).
 */
public final class BundleSocketCalls {
    private BundleSocketCalls() {}

    /** iovec slots the msghdr takes after the iovecs (56 bytes on LP64). */
    public static final int MSGHDR_SLOTS = 4;

    /** recvmsg into the {@code n} iovecs at the start of {@code iov}. */
    public static long recv(SysCallContext sc, int fd, MemorySegment iov, int n, int flags, boolean nowait) {
        return MsgCalls.recv(sc, fd, msghdrAfter(iov, n), flags, nowait);
    }

    /** sendmsg of the {@code n} iovecs at the start of {@code iov}. */
    public static long send(SysCallContext sc, int fd, MemorySegment iov, int n, int flags, boolean nowait) {
        return MsgCalls.send(sc, fd, msghdrAfter(iov, n), flags, nowait);
    }

    /** Writes a msghdr naming the {@code n} iovecs right after them; returns its address. */
    private static long msghdrAfter(MemorySegment iov, int n) {
        long hdr = (long) n * Structs.Iovec.SIZE;
        iov.asSlice(hdr, MSGHDR_SLOTS * Structs.Iovec.SIZE).fill((byte) 0);
        iov.set(JAVA_LONG, hdr + MsgCalls.IOV, iov.address());
        iov.set(JAVA_LONG, hdr + MsgCalls.IOVLEN, n);
        return iov.address() + hdr;
    }
}
