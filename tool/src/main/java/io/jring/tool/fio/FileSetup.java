package io.jring.tool.fio;

import io.jring.Fds;
import io.jring.IoUringException;
import io.jring.OpenFlags;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A job's file, set up as fio's filesetup.c does: named {@code jobname.N.0} in the job's
 * directory unless {@code filename=} is given; laid out when missing or shorter than
 * {@code offset + size} (fio's {@code extend_file}: a job that reads gets the file written
 * in full and fsynced; a job that only writes gets it created and fallocated, no data
 * written); the laid-out range dropped from the page cache afterwards, as fio always does;
 * and, with {@code pre_read=1}, read once so the job starts page-cached.
 */
final class FileSetup {
    private FileSetup() {}

    private static final int CHUNK = 1 << 20;

    /** The file of clone {@code clone} (0-based) of {@code spec}. */
    static Path pathFor(JobSpec spec, int clone) {
        Path dir = spec.temporary() ? Path.of(System.getProperty("java.io.tmpdir"))
                : spec.directory() != null ? Path.of(spec.directory()) : Path.of("");
        if (spec.filename() != null) {
            return dir.resolve(spec.filename());   // fio puts the directory in front of a filename too
        }
        if (spec.temporary()) {
            String name = spec.jobName().replaceAll("[^A-Za-z0-9_.-]", "_");
            return dir.resolve("jring-fio." + name + "." + ProcessHandle.current().pid() + "." + clone + ".0");
        }
        return dir.resolve(spec.jobName() + "." + clone + ".0");   // fio's $jobname.$jobnum.$filenum
    }

    /** Whether {@link #layOut} has work to do: the file is missing or ends before the region does. */
    static boolean needsLayout(Path file, JobSpec spec) throws IOException {
        return needsLayout(file, spec.offset() + spec.size());
    }

    /**
     * Whether the file is missing or is a regular file shorter than {@code end}. A device is
     * used as it is (fio lays out regular files only); a directory is never replaced by one.
     */
    static boolean needsLayout(Path file, long end) throws IOException {
        if (!Files.exists(file)) {
            return true;
        }
        boolean shorter = Files.size(file) < end;
        if (shorter && Files.isDirectory(file)) {
            throw new FileSystemException(file.toString(), null, ErrnoText.of(io.jring.Errno.EISDIR));
        }
        return shorter && Files.isRegularFile(file);
    }

    /** A file for reading: written in full up to {@code end} and fsynced (as a read job's layout, without the invalidation). */
    static void layOutForReads(Path file, long end) throws IOException {
        removeRegular(file);
        writeFully(file, end);
    }

    /** fio's unlink before a new layout: a regular file only (Files.delete would also take an empty directory). */
    private static void removeRegular(Path file) throws IOException {
        if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(file);
        }
    }

    /** fio's extend_file for {@code spec}, then the laid-out range dropped from the page cache. */
    static void layOut(Path file, JobSpec spec, Fadvise fadvise) throws IOException {
        long end = spec.offset() + spec.size();
        long old = Files.exists(file) ? Files.size(file) : 0;
        removeRegular(file);
        if (spec.rw().hasReads()) {
            writeFully(file, end);
        } else {
            allocate(file, end);
        }
        int fd = openForAdvice(file);
        try {
            fadvise.advise(fd, old, end - old, Fadvise.DONTNEED);
        } finally {
            Fds.close(fd);
        }
    }

    /** Writes the file up to {@code end} with non-zero data, then fsyncs it (fio's create_fsync=1). */
    private static void writeFully(Path file, long end) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = EngineFiles.byteBuffer(CHUNK, end);
            for (long at = 0; at < end; at += CHUNK) {
                chunk.clear().limit((int) Math.min(CHUNK, end - at));
                long pos = at;
                while (chunk.hasRemaining()) {
                    pos += ch.write(chunk, pos);
                }
            }
            ch.force(true);
        }
    }

    /** A write-only job's layout: the file created and its blocks allocated (fio's fallocate=native), or just sized. */
    private static void allocate(Path file, long end) throws IOException {
        try (SysCallContext ctx = SysCallContext.confined()) {
            int fd = FsCalls.openat(ctx, FsCalls.AT_FDCWD, file.toAbsolutePath().toString(),
                    OpenFlags.WRONLY | OpenFlags.CREAT | OpenFlags.CLOEXEC, 0644);
            if (fd < 0) {
                throw new IOException(ErrnoText.of(-fd));
            }
            try {
                if (FsCalls.fallocate(ctx, fd, 0, 0, end) < 0) {
                    int r = FsCalls.ftruncate(ctx, fd, end);   // no fallocate on this file system: a sparse file, as fio's fallback
                    if (r < 0) {
                        throw new IOException(ErrnoText.of(-r));
                    }
                }
            } finally {
                FsCalls.close(ctx, fd);
            }
        }
    }

    /** fio's pre_read: the region read once, so its pages are in the page cache. */
    static void preRead(Path file, long offset, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
            for (long at = offset; at < offset + size; ) {
                chunk.clear().limit((int) Math.min(CHUNK, offset + size - at));
                int n = ch.read(chunk, at);
                if (n <= 0) {
                    break;
                }
                at += n;
            }
        }
    }

    private static int openForAdvice(Path file) throws IOException {
        try {
            return Fds.open(file, OpenFlags.RDONLY | OpenFlags.CLOEXEC, 0);
        } catch (IoUringException e) {
            throw new IOException(ErrnoText.of(e.errno()), e);
        }
    }
}
