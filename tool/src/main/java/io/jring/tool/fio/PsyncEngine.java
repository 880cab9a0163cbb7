package io.jring.tool.fio;

import io.jring.sys.FileCalls;
import io.jring.sys.FsCalls;
import io.jring.sys.SysCallContext;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * fio's psync engine: one pread(2) or pwrite(2) per I/O, straight through FFM
 * ({@link FileCalls} on the job thread's own {@link SysCallContext}), depth 1 by
 * definition. The baseline a ring has to beat. clat and lat are the call's duration; there
 * is no slat, as in fio's sync engines.
 */
final class PsyncEngine implements IoEngine {
    private SysCallContext ctx;
    private Arena arena;
    private MemorySegment buf;
    private int fd = -1;

    @Override
    public void open(Job job) throws IOException {
        ctx = SysCallContext.confined();
        openFile(job);
        arena = Arena.ofConfined();
        buf = EngineFiles.buffer(arena, job.spec.maxBs(), 17L * job.number + 1);
        // One unmeasured, unchecked read first: the first FFM call links its downcall (see JringEngine.warmUp).
        FileCalls.pread(ctx, fd, buf, job.spec.maxBs(), 0);
        job.fileOpened(fd);
    }

    private void openFile(Job job) throws OpenFailure {
        int r = FsCalls.openat(ctx, FsCalls.AT_FDCWD, job.file.toAbsolutePath().toString(), EngineFiles.openFlags(job.spec), 0);
        if (r < 0) {
            close();
            throw new OpenFailure(-r, "cannot open " + job.file, null);
        }
        fd = r;
    }

    @Override
    public void reopen(Job job) throws IOException {
        FsCalls.close(ctx, fd);
        fd = -1;
        openFile(job);
        job.fileOpened(fd);
    }

    @Override
    public void run(Job job) {
        long now = System.nanoTime();
        while (job.nextIo(now)) {
            int dir = job.ioDir();
            long start = System.nanoTime();
            if (dir == Ddir.SYNC) {
                long r = job.syncDataOnly() ? FsCalls.fdatasync(ctx, fd) : FsCalls.fsync(ctx, fd);
                now = System.nanoTime();
                job.completeSync(r, start, now);
                continue;
            }
            long offset = job.ioOffset();
            int len = job.ioLength();
            long r = dir == Ddir.READ
                    ? FileCalls.pread(ctx, fd, buf, len, offset)
                    : FileCalls.pwrite(ctx, fd, buf, len, offset);
            now = System.nanoTime();
            job.completeInline(dir, r, len, offset, start, now);
        }
    }

    @Override
    public void close() {
        if (fd >= 0) {
            FsCalls.close(ctx, fd);
            fd = -1;
        }
        if (arena != null) {
            arena.close();
            arena = null;
        }
        if (ctx != null) {
            ctx.close();
        }
    }
}
