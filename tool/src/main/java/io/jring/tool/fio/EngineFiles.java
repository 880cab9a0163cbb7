package io.jring.tool.fio;

import io.jring.OpenFlags;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** How the engines open a job's file and shape its buffers: the same flags and alignment for all. */
final class EngineFiles {
    private EngineFiles() {}

    /** O_DIRECT needs buffers aligned to the logical block size; 4096 covers every device. */
    static final int ALIGN = 4096;

    /** open(2) flags: read-only for read jobs, read-write otherwise, O_DIRECT with --direct=1. */
    static int openFlags(JobSpec spec) {
        int flags = spec.rw().hasWrites() ? OpenFlags.RDWR : OpenFlags.RDONLY;
        return flags | OpenFlags.CLOEXEC | (spec.direct() ? OpenFlags.DIRECT : 0);
    }

    /** The same as NIO options, with ExtendedOpenOption.DIRECT for --direct=1. */
    static List<OpenOption> openOptions(JobSpec spec) {
        List<OpenOption> options = new ArrayList<>();
        options.add(StandardOpenOption.READ);
        if (spec.rw().hasWrites()) {
            options.add(StandardOpenOption.WRITE);
        }
        if (spec.direct()) {
            options.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
        }
        return options;
    }

    /** A native I/O buffer of bs bytes, aligned for O_DIRECT, filled with pseudo-random bytes (fio's write data). */
    static MemorySegment buffer(Arena arena, int bs, long seed) {
        MemorySegment buf = arena.allocate(bs, ALIGN);
        long x = seed | 1;
        for (long off = 0; off + 8 <= bs; off += 8) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            buf.set(JAVA_LONG, off, x);
        }
        return buf;
    }

    /** A direct ByteBuffer of bs bytes, aligned for O_DIRECT, filled like {@link #buffer}. */
    static ByteBuffer byteBuffer(int bs, long seed) {
        ByteBuffer raw = ByteBuffer.allocateDirect(bs + ALIGN);
        ByteBuffer buf = raw.alignedSlice(ALIGN).slice(0, bs);
        MemorySegment.ofBuffer(buf).copyFrom(buffer(Arena.ofAuto(), bs, seed));
        return buf;
    }

    /** A channel call that may fail, for {@link #errnoOf}. */
    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }

    /** Runs a JDK channel call the way fio reports it: 0, or -EIO if it threw. */
    static long errnoOf(IoAction action) {
        try {
            action.run();
            return 0;
        } catch (IOException e) {
            return -io.jring.Errno.EIO;
        }
    }

    /** Closes a JDK channel at the end of a job; a failure there has nothing left to affect. */
    static void closeQuietly(Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // nothing left to do with it
            }
        }
    }
}
