package io.jring.kernel;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc entry points the kernel harness needs, through FFM (test-only, independent of
 * jring's own {@code io.jring.sys} bindings so that a bug there cannot hide in both sides of
 * a cross-check): {@code syscall(2)} for io_uring_setup/enter/register, {@code mmap},
 * {@code munmap} and {@code close}. Every call returns {@code -errno} on failure.
 */
@SuppressWarnings("restricted")
final class KernelCalls {
    private KernelCalls() {}

    /** Same numbers on x86_64 and aarch64 (the unified syscall table of 5.1+). */
    static final long SYS_IO_URING_SETUP = 425;
    static final long SYS_IO_URING_ENTER = 426;
    static final long SYS_IO_URING_REGISTER = 427;

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int MAP_POPULATE = 0x8000;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle SYSCALL6 = LINKER.downcallHandle(
            LINKER.defaultLookup().find("syscall").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                    JAVA_LONG),
            CAPTURE_ERRNO, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle MMAP = LINKER.downcallHandle(
            LINKER.defaultLookup().find("mmap").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
            CAPTURE_ERRNO);
    private static final MethodHandle MUNMAP = LINKER.downcallHandle(
            LINKER.defaultLookup().find("munmap").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    /** Per-thread errno capture segment (calls may come from any test thread). */
    private static final ThreadLocal<MemorySegment> CAPTURED =
            ThreadLocal.withInitial(() -> Arena.global().allocate(CAPTURE));

    static long syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6) {
        MemorySegment capture = CAPTURED.get();
        try {
            long r = (long) SYSCALL6.invokeExact(capture, nr, a1, a2, a3, a4, a5, a6);
            return r == -1 ? -(int) ERRNO.get(capture, 0L) : r;
        } catch (Throwable t) {
            throw new IllegalStateException("syscall " + nr + " failed to run", t);
        }
    }

    static int ioUringSetup(int entries, MemorySegment params) {
        return (int) syscall(SYS_IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0);
    }

    static int ioUringEnter(int fd, int toSubmit, int minComplete, int flags, long arg, long argSize) {
        return (int) syscall(SYS_IO_URING_ENTER, fd, toSubmit, minComplete, flags, arg, argSize);
    }

    static int ioUringRegister(int fd, int opcode, long arg, int nrArgs) {
        return (int) syscall(SYS_IO_URING_REGISTER, fd, opcode, arg, nrArgs, 0, 0);
    }

    /** Maps {@code size} bytes of the ring fd at {@code offset}; a segment of that size, or -errno. */
    static MemorySegment mmap(int fd, long size, long offset, int[] errno) {
        MemorySegment capture = CAPTURED.get();
        try {
            MemorySegment p = (MemorySegment) MMAP.invokeExact(capture, MemorySegment.NULL, size,
                    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, offset);
            if (p.address() == -1L) {
                errno[0] = (int) ERRNO.get(capture, 0L);
                return null;
            }
            return p.reinterpret(size);
        } catch (Throwable t) {
            throw new IllegalStateException("mmap failed to run", t);
        }
    }

    static void munmap(MemorySegment region) {
        try {
            int ignored = (int) MUNMAP.invokeExact(region, region.byteSize());
        } catch (Throwable t) {
            throw new IllegalStateException("munmap failed to run", t);
        }
    }

    static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close failed to run", t);
        }
    }
}
