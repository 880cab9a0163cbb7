package io.jring.sys;

import io.jring.Errno;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reads memory at a raw address the caller gave (a msghdr's iovec array), as the kernel's
 * copy_from_user does: a bad address is -EFAULT, never a crash of the JVM. One
 * process_vm_readv(2) on this process.
 */
public final class UserMemory {
    private UserMemory() {}

    private static final MethodHandle READV = Libc.downcall("process_vm_readv", FunctionDescriptor.of(
            JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    private static final int PID = (int) ProcessHandle.current().pid();

    /**
     * Copies {@code len} bytes from address {@code src} into {@code dst} (native, at least
     * {@code len} bytes): 0, or -EFAULT if any of them cannot be read.
     */
    public static int copy(SysCallContext sc, long src, MemorySegment dst, long len) {
        if (len == 0) {
            return 0;
        }
        if (src == 0) {
            return -Errno.EFAULT;
        }
        MemorySegment local = sc.singleIovec();
        MemorySegment remote = sc.scratch();
        Structs.Iovec.set(local, 0, dst.address(), len);
        Structs.Iovec.set(remote, 0, src, len);
        long r;
        try {
            r = (long) READV.invokeExact(sc.capture(), PID, local.address(), 1L, remote.address(), 1L, 0L);
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
        if (r == len) {
            return 0;
        }
        return r < 0 && sc.lastErrno() != Errno.EFAULT ? -sc.lastErrno() : -Errno.EFAULT;
    }
}
