package io.jring.tool.fio;

import io.jring.Fds;
import io.jring.OpenFlags;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The file a job works on, prepared as fio prepares it: laid out (written fully, then
 * fsynced) when it is missing or smaller than {@code --size}, then either warmed (read once,
 * so a buffered run measures the page cache) or invalidated (its cached pages dropped, fio's
 * {@code --invalidate=1}).
 */
final class JobFile {
    private JobFile() {}

    private static final int CHUNK = 1 << 20;
    private static final int POSIX_FADV_DONTNEED = 4;

    /** {@code --filename}, or a temp file per job: {@code <directory>/jring-fio.<name>.<pid>.<job>.0}. */
    static Path pathFor(JobSpec spec, int number) {
        if (spec.filename() != null) {
            return Path.of(spec.filename());
        }
        String dir = spec.directory() != null ? spec.directory() : System.getProperty("java.io.tmpdir");
        String name = spec.name().replaceAll("[^A-Za-z0-9_.-]", "_");
        return Path.of(dir, "jring-fio." + name + "." + ProcessHandle.current().pid() + "." + number + ".0");
    }

    /** Whether {@link #layOut} has work to do. */
    static boolean needsLayout(Path file, long size) throws IOException {
        return !Files.exists(file) || Files.size(file) < size;
    }

    /** Writes the file fully up to {@code size} with non-zero data, then fsyncs it. */
    static void layOut(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = EngineFiles.byteBuffer(CHUNK, size);
            for (long at = 0; at < size; at += CHUNK) {
                chunk.clear().limit((int) Math.min(CHUNK, size - at));
                long pos = at;
                while (chunk.hasRemaining()) {
                    pos += ch.write(chunk, pos);
                }
            }
            ch.force(true);
        }
    }

    /** Reads the first {@code size} bytes once, so they are in the page cache. */
    static void warm(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
            for (long at = 0; at < size; ) {
                chunk.clear();
                int n = ch.read(chunk, at);
                if (n <= 0) {
                    break;
                }
                at += n;
            }
        }
    }

    /** Drops the file's clean cached pages: posix_fadvise(POSIX_FADV_DONTNEED), as fio's invalidate. */
    static void invalidate(Path file) throws IOException {
        int fd = Fds.open(file, OpenFlags.RDONLY | OpenFlags.CLOEXEC, 0);
        try {
            int err = (int) Fadvise.HANDLE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED);
            if (err != 0) {
                throw new IOException("posix_fadvise(DONTNEED) on " + file + ": " + ErrnoText.of(err));
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("posix_fadvise failed on " + file, t);
        } finally {
            Fds.close(fd);
        }
    }

    /** posix_fadvise returns the error number itself (not -1 and errno), so no call state is captured. */
    private static final class Fadvise {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("posix_fadvise").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    }
}
