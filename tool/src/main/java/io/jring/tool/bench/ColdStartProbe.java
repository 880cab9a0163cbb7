package io.jring.tool.bench;

import io.jring.Cqe;
import io.jring.IoUring;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

/**
 * The program {@code jring bench coldstart} runs in each fresh JVM (issue 16, A6). Mode
 * {@code bare}: the JDK's own floor, the first FFM downcall a library with errno capture makes
 * (getpid, timed from the start of {@code main}). Mode {@code jring}: the first
 * {@code IoUring.open} (timed the same way), then the first 50 ms TIMEOUT, from its submit to
 * its CQE. Prints one line {@code first_ms=<n> timeout_ms=<n>} (timeout -1 for bare) and
 * touches nothing else before the clock stops, so the two modes load only what they measure.
 */
public final class ColdStartProbe {
    private ColdStartProbe() {}

    static final long TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    public static void main(String[] args) throws Throwable {
        long t0 = System.nanoTime();
        if (args.length == 1 && args[0].equals("bare")) {
            long done = bare(t0);
            System.out.println("first_ms=" + millis(done - t0) + " timeout_ms=-1");
            return;
        }
        if (args.length != 1 || !args[0].equals("jring")) {
            System.err.println("usage: ColdStartProbe bare|jring");
            System.exit(2);
        }
        try (IoUring ring = IoUring.open(8)) {
            long opened = System.nanoTime();
            ring.getSqe().prepTimeout(TIMEOUT_NANOS, 0, 0).userData(1);
            long submitted = System.nanoTime();
            ring.submit();
            Cqe cqe = ring.waitCqe();
            long completed = System.nanoTime();
            int res = cqe.res();
            ring.cqeSeen(cqe);
            System.out.println("first_ms=" + millis(opened - t0) + " timeout_ms=" + millis(completed - submitted)
                    + " res=" + res);
        }
    }

    @SuppressWarnings("restricted")
    private static long bare(long t0) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MemorySegment capture = java.lang.foreign.Arena.ofAuto().allocate(Linker.Option.captureStateLayout());
        MethodHandle getpid = linker.downcallHandle(linker.defaultLookup().find("getpid").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT),
                Linker.Option.captureCallState("errno"));
        int pid = (int) getpid.invokeExact(capture);
        long done = System.nanoTime();
        if (pid <= 0) {
            throw new IllegalStateException("getpid returned " + pid);
        }
        return done;
    }

    private static String millis(long nanos) {
        return Double.toString(Math.round(nanos / 1e4) / 100.0);
    }
}
