package io.jring.sys;

import io.jring.Errno;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * sendmsg(2) and recvmsg(2) on a {@code struct msghdr} at a raw address (SENDMSG, RECVMSG and
 * their zero-copy and multishot forms). The kernel reads the header, its iovecs, name and
 * control where they point and reports a bad pointer as -EFAULT, so nothing here touches that
 * memory from Java. As {@link SocketCalls#recvAt}: {@code nowait} adds MSG_DONTWAIT and uses
 * a critical handle, EINTR is retried, results are {@code >= 0} or {@code -errno}; sends add
 * MSG_NOSIGNAL.
 */
public final class MsgCalls {
    private MsgCalls() {}

    /** sizeof(struct msghdr) on LP64, and its fields' offsets. */
    public static final int MSGHDR_SIZE = 56;
    public static final int NAME = 0;
    public static final int NAMELEN = 8;
    public static final int IOV = 16;
    public static final int IOVLEN = 24;
    public static final int CONTROL = 32;
    public static final int CONTROLLEN = 40;
    public static final int FLAGS = 48;
    /** UIO_MAXIOV: more iovecs are -EMSGSIZE. */
    public static final int UIO_MAXIOV = 1024;

    public static final int MSG_CTRUNC = 0x8;
    public static final int MSG_TRUNC = 0x20;
    public static final int MSG_ERRQUEUE = 0x2000;
    public static final int MSG_ZEROCOPY = 0x4000000;
    public static final int MSG_CMSG_CLOEXEC = 0x40000000;

    private static final FunctionDescriptor MSG = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle RECVMSG = Libc.downcall("recvmsg", MSG);
    private static final MethodHandle SENDMSG = Libc.downcall("sendmsg", MSG);
    private static final MethodHandle RECVMSG_CRITICAL = Libc.critical("recvmsg", MSG);
    private static final MethodHandle SENDMSG_CRITICAL = Libc.critical("sendmsg", MSG);

    /** recvmsg(fd, msghdr, flags). */
    public static long recv(SysCallContext sc, int fd, long msghdr, int flags, boolean nowait) {
        return call(sc, fd, msghdr, nowait ? flags | SocketCalls.MSG_DONTWAIT : flags, false, nowait);
    }

    /** sendmsg(fd, msghdr, flags | MSG_NOSIGNAL). */
    public static long send(SysCallContext sc, int fd, long msghdr, int flags, boolean nowait) {
        int f = (nowait ? flags | SocketCalls.MSG_DONTWAIT : flags) | SocketCalls.MSG_NOSIGNAL;
        return call(sc, fd, msghdr, f, true, nowait);
    }

    private static long call(SysCallContext sc, int fd, long msghdr, int flags, boolean send, boolean critical) {
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
