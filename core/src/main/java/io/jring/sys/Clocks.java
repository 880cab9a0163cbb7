package io.jring.sys;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The kernel's clocks for absolute timeouts on CLOCK_REALTIME or CLOCK_BOOTTIME: they are
 * read with clock_gettime and converted to {@link System#nanoTime()} time (HotSpot's
 * nanoTime is CLOCK_MONOTONIC), which the ring's timers run on. Any thread; the timespec
 * lives in the caller's {@link SysCallContext} scratch, so nothing is allocated.
 */
public final class Clocks {
    private Clocks() {}

    public static final int CLOCK_REALTIME = 0;
    public static final int CLOCK_MONOTONIC = 1;
    public static final int CLOCK_BOOTTIME = 7;

    private static final MethodHandle CLOCK_GETTIME = Libc.critical("clock_gettime",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));

    /** Now on {@code clockId}, in nanoseconds; -1 if the clock cannot be read. */
    public static long now(SysCallContext ctx, int clockId) {
        MemorySegment ts = ctx.scratch();
        int r;
        try {
            r = (int) CLOCK_GETTIME.invokeExact(ctx.capture(), clockId, ts);
        } catch (Throwable t) {
            return -1;
        }
        if (r != 0) {
            return -1;
        }
        return ts.get(JAVA_LONG, 0) * 1_000_000_000L + ts.get(JAVA_LONG, 8);
    }

    /**
     * The {@link System#nanoTime()} time at which {@code clockId} reads {@code nanos}: both
     * clocks are read back to back, so the error is the time between the two reads.
     */
    public static long toNanoTime(SysCallContext ctx, int clockId, long nanos) {
        if (clockId == CLOCK_MONOTONIC) {
            return nanos;
        }
        long other = now(ctx, clockId);
        long mono = System.nanoTime();
        return other < 0 ? nanos : mono + (nanos - other);
    }
}
