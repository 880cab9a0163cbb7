package io.jring.sys;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * getrlimit: the process limits Linux's io_uring consults as it runs (RLIMIT_NPROC caps
 * io-wq's worker limits). Read afresh on each call, as the kernel's {@code task_rlimit}:
 * the application may change them with setrlimit at any time.
 */
public final class ResourceLimits {
    private ResourceLimits() {}

    /** {@code RLIMIT_NPROC}: the asm-generic value, which x86_64 and aarch64 use. */
    public static final int RLIMIT_NPROC = 6;

    /** {@code (capture, int resource, struct rlimit *rlim) -> int}; never blocks. */
    private static final MethodHandle GETRLIMIT = Libc.critical("getrlimit",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));

    /**
     * The soft limit of {@code resource}: {@code >= 0}, {@link Long#MAX_VALUE} for
     * RLIM_INFINITY, or {@code -errno}. Uses the context's scratch (a struct rlimit is two
     * 64-bit values on LP64).
     */
    public static long softLimit(SysCallContext ctx, int resource) {
        MemorySegment rlim = ctx.scratch();
        try {
            int r = (int) GETRLIMIT.invokeExact(ctx.capture(), resource, rlim);
            if (r != 0) {
                return -ctx.lastErrno();
            }
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
        long soft = rlim.get(JAVA_LONG, 0);
        return soft < 0 ? Long.MAX_VALUE : soft;   // RLIM_INFINITY is ~0UL, the only value past Long.MAX_VALUE
    }
}
