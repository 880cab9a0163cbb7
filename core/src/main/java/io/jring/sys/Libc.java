package io.jring.sys;

import io.jring.Errno;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Builds downcall handles to libc by symbol name (so the same code runs on x86_64 and
 * aarch64) and maps what a failed invocation throws to {@code -errno}.
 *
 * <p>Every handle captures {@code errno}: its first parameter is the caller's capture
 * segment ({@link SysCallContext#capture()}), then the C arguments.
 */
@SuppressWarnings("restricted")   // the point of this class; --enable-native-access=ALL-UNNAMED at run time
final class Libc {
    private Libc() {}

    static final Linker LINKER = Linker.nativeLinker();

    static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();

    static final long ERRNO_OFFSET =
            CAPTURE_LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("errno"));

    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    /** For short calls that never block: no thread-state transition (JDK 22+ combines it with errno capture). */
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    static Optional<MemorySegment> find(String symbol) {
        return LINKER.defaultLookup().find(symbol);
    }

    /** A handle for a call that may block. */
    static MethodHandle downcall(String symbol, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(symbol(symbol), descriptor, CAPTURE_ERRNO);
    }

    /** A handle for a call that may block, variadic from C parameter {@code firstVariadic}. */
    static MethodHandle downcallVariadic(String symbol, FunctionDescriptor descriptor, int firstVariadic) {
        return LINKER.downcallHandle(symbol(symbol), descriptor, CAPTURE_ERRNO,
                Linker.Option.firstVariadicArg(firstVariadic));
    }

    /** A handle for a short call that never blocks (NOWAIT attempts, epoll_ctl, fcntl...). */
    static MethodHandle critical(String symbol, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(symbol(symbol), descriptor, CAPTURE_ERRNO, CRITICAL);
    }

    static MethodHandle criticalVariadic(String symbol, FunctionDescriptor descriptor, int firstVariadic) {
        return LINKER.downcallHandle(symbol(symbol), descriptor, CAPTURE_ERRNO, CRITICAL,
                Linker.Option.firstVariadicArg(firstVariadic));
    }

    private static MemorySegment symbol(String name) {
        return find(name).orElseThrow(() -> new UnsupportedOperationException(
                "libc has no symbol '" + name + "' (jring needs glibc >= 2.28 or musl)"));
    }

    /**
     * Maps what {@code invokeExact} on a downcall threw to {@code -errno}, so no exception
     * leaves a syscall wrapper. The linker validates segment arguments before the call:
     * a heap segment is the API's -EINVAL; a closed scope or a confined segment used from
     * another thread is memory this thread may not touch, the kernel's -EFAULT. Anything
     * else (e.g. StackOverflowError in the stub) means the call did not happen: -EIO.
     */
    static int errnoOf(Throwable t) {
        if (t instanceof IllegalArgumentException) {
            return -Errno.EINVAL;
        }
        if (t instanceof IllegalStateException || t instanceof WrongThreadException) {
            return -Errno.EFAULT;
        }
        return -Errno.EIO;
    }
}
