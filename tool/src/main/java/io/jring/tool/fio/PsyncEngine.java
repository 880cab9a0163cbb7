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
        int r = FsCalls.openat(ctx, FsCalls.AT_FDCWD, job.file.toAbsolutePath().toString(), EngineFiles.openFlags(job.spec), 0);
        if (r < 0) {
            close();
            throw new OpenFailure(-r, "cannot open " + job.file, null);
        }
        fd = r;
        arena = Arena.ofConfined();
        buf = EngineFiles.buffer(arena, job.spec.bs(), 17L * job.number + 1);
        // One unmeasured, unchecked read first: the first FFM call links its downcall (see JringEngine.warmUp).
        FileCalls.pread(ctx, fd, buf, job.spec.bs(), 0);
    }

    @Override
    public void run(Job job) {
        int bs = job.spec.bs();
        long now = System.nanoTime();
        while (job.keepIssuing(now)) {
            int dir = job.nextDir();
            long start = System.nanoTime();
            if (dir == Ddir.SYNC) {
                long r = FsCalls.fsync(ctx, fd);
                now = System.nanoTime();
                job.completeSync(r, start, now);
                continue;
            }
            long offset = job.nextOffset(dir);
            long r = dir == Ddir.READ
                    ? FileCalls.pread(ctx, fd, buf, bs, offset)
                    : FileCalls.pwrite(ctx, fd, buf, bs, offset);
            now = System.nanoTime();
            job.completeInline(dir, r, bs, offset, start, now);
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
