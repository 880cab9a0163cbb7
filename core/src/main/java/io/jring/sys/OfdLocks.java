package io.jring.sys;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Open file description locks ({@code fcntl(F_OFD_SETLK)}, Linux 3.15): byte-range locks
 * owned by the open file, not the process, so two channels of one JVM on one file do not
 * share them, and closing another descriptor of the file does not drop them (POSIX locks
 * would). Only the non-blocking form: a waiting lock retries on a timer, so a close can
 * always end it. {@code struct flock} is {@code short l_type, l_whence; off_t l_start,
 * l_len; pid_t l_pid} (32 bytes on x86_64 and aarch64), built in the context's stat buffer.
 */
public final class OfdLocks {
    private OfdLocks() {}

    private static final int F_OFD_SETLK = 37;
    private static final short F_RDLCK = 0;
    private static final short F_WRLCK = 1;
    private static final short F_UNLCK = 2;
    private static final short SEEK_SET = 0;

    /** {@code (capture, int fd, int cmd, struct flock *) -> int}; the third argument is variadic. */
    private static final MethodHandle FCNTL_LOCK = Libc.downcallVariadic("fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), 2);

    /**
     * Takes a shared ({@code shared}) or exclusive lock on {@code size} bytes from
     * {@code position} ({@code size} 0: to the end of the file, however far it grows):
     * 0, -EAGAIN if another open file holds a conflicting lock, or another -errno.
     */
    public static int tryLock(SysCallContext ctx, int fd, long position, long size, boolean shared) {
        return set(ctx, fd, shared ? F_RDLCK : F_WRLCK, position, size);
    }

    /** Releases the range again: 0 or -errno. */
    public static int unlock(SysCallContext ctx, int fd, long position, long size) {
        return set(ctx, fd, F_UNLCK, position, size);
    }

    private static int set(SysCallContext ctx, int fd, short type, long position, long size) {
        MemorySegment fl = ctx.stat();
        fl.fill((byte) 0);
        fl.set(JAVA_SHORT, 0, type);
        fl.set(JAVA_SHORT, 2, SEEK_SET);
        fl.set(JAVA_LONG, 8, position);
        fl.set(JAVA_LONG, 16, size);
        try {
            int r = (int) FCNTL_LOCK.invokeExact(ctx.capture(), fd, F_OFD_SETLK, fl);
            return r >= 0 ? 0 : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }
}
