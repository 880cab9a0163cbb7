package io.jring.sys;

import io.jring.Errno;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * recvmsg and sendmsg over an array of iovecs, for the bundles of provided buffers
 * (IORING_RECVSEND_BUNDLE): one call moves bytes into or out of several buffers. The
 * {@code struct msghdr} (no name, no control) is written right after the {@code n} iovecs in
 * the caller's iovec memory, which must have room for {@link #MSGHDR_SLOTS} more entries.
 * As {@link SocketCalls#recvAt}: {@code nowait} adds MSG_DONTWAIT on a critical handle,
 * EINTR is retried, results are {@code >= 0} or {@code -errno}; sends add MSG_NOSIGNAL.
 */
public final class BundleSocketCalls {
    private BundleSocketCalls() {}

    /** iovec slots the msghdr takes after the iovecs (56 bytes on LP64). */
    public static final int MSGHDR_SLOTS = 4;

    private static final FunctionDescriptor MSG = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle RECVMSG = Libc.downcall("recvmsg", MSG);
    private static final MethodHandle SENDMSG = Libc.downcall("sendmsg", MSG);
    private static final MethodHandle RECVMSG_CRITICAL = Libc.critical("recvmsg", MSG);
    private static final MethodHandle SENDMSG_CRITICAL = Libc.critical("sendmsg", MSG);

    /** recvmsg into the {@code n} iovecs at the start of {@code iov}. */
    public static long recv(SysCallContext sc, int fd, MemorySegment iov, int n, int flags, boolean nowait) {
        return call(sc, fd, iov, n, nowait ? flags | SocketCalls.MSG_DONTWAIT : flags, false, nowait);
    }

    /** sendmsg of the {@code n} iovecs at the start of {@code iov}. */
    public static long send(SysCallContext sc, int fd, MemorySegment iov, int n, int flags, boolean nowait) {
        int f = (nowait ? flags | SocketCalls.MSG_DONTWAIT : flags) | SocketCalls.MSG_NOSIGNAL;
        return call(sc, fd, iov, n, f, true, nowait);
    }

    private static long call(SysCallContext sc, int fd, MemorySegment iov, int n, int flags, boolean send,
                             boolean critical) {
        long hdr = (long) n * Structs.Iovec.SIZE;
        iov.asSlice(hdr, MSGHDR_SLOTS * Structs.Iovec.SIZE).fill((byte) 0);
        iov.set(JAVA_LONG, hdr + 16, iov.address());   // msg_iov
        iov.set(JAVA_LONG, hdr + 24, n);                // msg_iovlen
        long msghdr = iov.address() + hdr;
        for (;;) {
            long r;
            try {
                if (send) {
                    r = critical ? (long) SENDMSG_CRITICAL.invokeExact(sc.capture(), fd, msghdr, flags)
                            : (long) SENDMSG.invokeExact(sc.capture(), fd, msghdr, flags);
                } else {
                    r = critical ? (long) RECVMSG_CRITICAL.invokeExact(sc.capture(), fd, msghdr, flags)
                            : (long) RECVMSG.invokeExact(sc.capture(), fd, msghdr, flags);
                }
            } catch (Throwable t) {
                return Libc.errnoOf(t);
            }
            if (r >= 0) {
                return r;
            }
            int e = sc.lastErrno();
            if (e != Errno.EINTR) {
                return -e;
            }
        }
    }
}
