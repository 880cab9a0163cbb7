package io.jring.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Questions about the process's address space, asked without touching the memory (which
 * could crash the JVM): whether a range is mapped, via mincore(2). Used where Linux would
 * pin user pages (registered buffers). Never on a hot path.
 */
public final class MemoryCalls {
    private MemoryCalls() {}

    private static final int SC_PAGESIZE = 30;
    /** Pages asked about per mincore call: its answer vector, one byte per page. */
    private static final int PAGES_PER_CALL = 4096;

    /** {@code (capture, void *addr, size_t length, unsigned char *vec) -> int}. */
    private static final MethodHandle MINCORE = Libc.downcall("mincore",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));
    /** {@code (capture, int name) -> long}. */
    private static final MethodHandle SYSCONF = Libc.downcall("sysconf",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT));

    /** The page size (mincore wants a page-aligned start). */
    public static final long PAGE_SIZE = pageSize();

    private static long pageSize() {
        try (SysCallContext sc = SysCallContext.confined()) {
            long r = (long) SYSCONF.invokeExact(sc.capture(), SC_PAGESIZE);
            return r > 0 ? r : 4096;
        } catch (Throwable t) {
            return 4096;
        }
    }

    /**
     * 0 if every page of [{@code address}, {@code address + length}) is mapped, -ENOMEM if
     * some page is not (mincore's answer), or another -errno. {@code length > 0}.
     */
    public static int checkMapped(SysCallContext sc, long address, long length) {
        long start = address & -PAGE_SIZE;
        long end = address + length;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment vec = arena.allocate(PAGES_PER_CALL);
            long chunk = PAGES_PER_CALL * PAGE_SIZE;
            for (long at = start; Long.compareUnsigned(at, end) < 0; at += chunk) {
                long len = Math.min(chunk, end - at);
                int r = (int) MINCORE.invokeExact(sc.capture(), at, len, vec);
                if (r < 0) {
                    return -sc.lastErrno();
                }
            }
            return 0;
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }
}
