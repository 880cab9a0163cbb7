package io.jring.tool.fio;

import io.jring.Errno;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;

/**
 * The JDK's synchronous peer: {@link FileChannel} positional read/write with one direct
 * ByteBuffer (aligned for O_DIRECT, opened with ExtendedOpenOption.DIRECT for --direct=1).
 * Depth 1, like psync; an IOException is the job's error (EIO: the JDK hides the errno).
 */
final class FileChannelEngine implements IoEngine {
    private FileChannel channel;
    private ByteBuffer buf;

    @Override
    public void open(Job job) throws IOException {
        channel = FileChannel.open(job.file, EngineFiles.openOptions(job.spec).toArray(OpenOption[]::new));
        buf = EngineFiles.byteBuffer(job.spec.maxBs(), 13L * job.number + 1);
        try {
            channel.read(buf, 0);   // one unmeasured, unchecked read: first-use setup is not I/O (see JringEngine.warmUp)
        } catch (IOException firstReadFails) {
            // the job's first measured read reports it
        }
        job.fileOpened(-1);
    }

    @Override
    public void reopen(Job job) throws IOException {
        EngineFiles.closeQuietly(channel);
        channel = FileChannel.open(job.file, EngineFiles.openOptions(job.spec).toArray(OpenOption[]::new));
        job.fileOpened(-1);
    }

    @Override
    public void run(Job job) {
        long now = System.nanoTime();
        while (job.nextIo(now)) {
            int dir = job.ioDir();
            long start = System.nanoTime();
            if (dir == Ddir.SYNC) {
                // force(false): data only, as fdatasync (the JDK's FileChannel uses fdatasync for it).
                long r = EngineFiles.errnoOf(() -> channel.force(!job.syncDataOnly()));
                now = System.nanoTime();
                job.completeSync(r, start, now);
                continue;
            }
            long offset = job.ioOffset();
            int len = job.ioLength();
            buf.clear().limit(len);
            long r;
            try {
                r = dir == Ddir.READ ? channel.read(buf, offset) : channel.write(buf, offset);
                if (r < 0) {
                    r = 0;   // EOF: a short read of nothing
                }
            } catch (IOException e) {
                r = -Errno.EIO;
            }
            now = System.nanoTime();
            job.completeInline(dir, r, len, offset, start, now);
        }
    }

    @Override
    public void close() {
        EngineFiles.closeQuietly(channel);
        channel = null;
    }
}
