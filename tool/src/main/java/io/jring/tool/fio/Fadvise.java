package io.jring.tool.fio;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * posix_fadvise(2) on a job's file: how fio's {@code invalidate} (POSIX_FADV_DONTNEED, its
 * {@code file_invalidate_cache}) and {@code fadvise_hint} reach the kernel. An interface so a
 * test can record the advice a run gives; {@link #POSIX} is the real call.
 */
@FunctionalInterface
interface Fadvise {
    int NORMAL = 0;
    int RANDOM = 1;
    int SEQUENTIAL = 2;
    int WILLNEED = 3;
    int DONTNEED = 4;
    int NOREUSE = 5;

    /** Advises {@code len} bytes of {@code fd} from {@code offset} (len 0: to the end); 0 or an error number. */
    int advise(int fd, long offset, long len, int advice);

    /** posix_fadvise through FFM. */
    Fadvise POSIX = (fd, offset, len, advice) -> {
        try {
            // posix_fadvise returns the error number itself (not -1 and errno): no call state to capture.
            return (int) Native.POSIX_FADVISE.invokeExact(fd, offset, len, advice);
        } catch (Throwable t) {
            throw new IllegalStateException("posix_fadvise failed to run", t);
        }
    };

    /** fio's names for the advice, for messages. */
    static String name(int advice) {
        return switch (advice) {
            case NORMAL -> "POSIX_FADV_NORMAL";
            case RANDOM -> "POSIX_FADV_RANDOM";
            case SEQUENTIAL -> "POSIX_FADV_SEQUENTIAL";
            case WILLNEED -> "POSIX_FADV_WILLNEED";
            case DONTNEED -> "POSIX_FADV_DONTNEED";
            case NOREUSE -> "POSIX_FADV_NOREUSE";
            default -> "advice " + advice;
        };
    }

    /** The downcall, linked on first use. */
    final class Native {
        private Native() {}

        static final MethodHandle POSIX_FADVISE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("posix_fadvise").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    }
}
