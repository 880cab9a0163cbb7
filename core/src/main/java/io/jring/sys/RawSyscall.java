package io.jring.sys;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * libc's variadic {@code long syscall(long number, ...)} for system calls glibc does not wrap
 * (native AIO). Every argument is passed as a long, which is what the kernel reads from each
 * register; pointers go as {@code segment.address()} after {@link Buffers#check}. Never
 * critical: io_submit and io_getevents may block.
 */
public final class RawSyscall {
    private RawSyscall() {}

    /** {@code (capture, long number, long a1) -> long}; SYSCALLn takes n arguments after the number. */
    public static final MethodHandle SYSCALL1 = handle(1);
    public static final MethodHandle SYSCALL2 = handle(2);
    public static final MethodHandle SYSCALL3 = handle(3);
    public static final MethodHandle SYSCALL4 = handle(4);
    public static final MethodHandle SYSCALL5 = handle(5);
    public static final MethodHandle SYSCALL6 = handle(6);

    private static MethodHandle handle(int args) {
        MemoryLayout[] params = new MemoryLayout[args + 1];
        Arrays.fill(params, JAVA_LONG);
        return Libc.downcallVariadic("syscall", FunctionDescriptor.of(JAVA_LONG, params), 1);
    }

    public static long call(SysCallContext ctx, long number, long a1) {
        try {
            long r = (long) SYSCALL1.invokeExact(ctx.capture(), number, a1);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long call(SysCallContext ctx, long number, long a1, long a2) {
        try {
            long r = (long) SYSCALL2.invokeExact(ctx.capture(), number, a1, a2);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long call(SysCallContext ctx, long number, long a1, long a2, long a3) {
        try {
            long r = (long) SYSCALL3.invokeExact(ctx.capture(), number, a1, a2, a3);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long call(SysCallContext ctx, long number, long a1, long a2, long a3, long a4) {
        try {
            long r = (long) SYSCALL4.invokeExact(ctx.capture(), number, a1, a2, a3, a4);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long call(SysCallContext ctx, long number, long a1, long a2, long a3, long a4, long a5) {
        try {
            long r = (long) SYSCALL5.invokeExact(ctx.capture(), number, a1, a2, a3, a4, a5);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    public static long call(SysCallContext ctx, long number, long a1, long a2, long a3, long a4, long a5, long a6) {
        try {
            long r = (long) SYSCALL6.invokeExact(ctx.capture(), number, a1, a2, a3, a4, a5, a6);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }
}
