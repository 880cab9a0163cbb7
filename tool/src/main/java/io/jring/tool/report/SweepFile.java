package io.jring.tool.report;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one file every run of a report reads or writes: laid out once before the sweep (so no
 * run pays for it), read once before each buffered block of runs (so buffered runs measure
 * the page cache, as with fio's --invalidate=0 on a warm file), and probed for O_DIRECT.
 */
final class SweepFile {
    private SweepFile() {}

    private static final int CHUNK = 1 << 20;

    /** Writes the file up to {@code size} with non-zero bytes and fsyncs it, unless it is already that long. */
    static boolean layOut(Path file, long size) throws IOException {
        if (Files.exists(file) && Files.size(file) >= size) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
            for (int i = 0; i < CHUNK; i++) {
                chunk.put((byte) (i * 31 + 7));
            }
            for (long at = 0; at < size; at += CHUNK) {
                chunk.clear().limit((int) Math.min(CHUNK, size - at));
                long pos = at;
                while (chunk.hasRemaining()) {
                    pos += ch.write(chunk, pos);
                }
            }
            ch.force(true);
        }
        return true;
    }

    /** Reads the first {@code size} bytes once, so they are in the page cache. */
    static void warm(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
            long at = 0;
            while (at < size) {
                chunk.clear();
                int n = ch.read(chunk, at);
                if (n <= 0) {
                    break;
                }
                at += n;
            }
        }
    }

    /** Why the file cannot be opened with O_DIRECT (tmpfs, for one), or null when it can. */
    static String directProblem(Path file) {
        try (FileChannel ignored = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            return null;
        } catch (IOException | UnsupportedOperationException e) {
            return "O_DIRECT runs skipped: " + file + " cannot be opened with O_DIRECT (" + e.getMessage() + ")";
        }
    }
}
