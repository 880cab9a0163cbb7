package io.jring.tool.fio;

import io.jring.Errno;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.file.OpenOption;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * The JDK's asynchronous peer: {@link AsynchronousFileChannel} with completion handlers,
 * {@code iodepth} operations in flight. On Linux the JDK runs each operation as a blocking
 * pread/pwrite on its default thread pool; the handler (on a pool thread) stamps the
 * completion time and hands its slot back through a queue, and the job's thread does all
 * accounting, so the statistics need no locks. Each slot is its own handler and owns a
 * direct buffer; the JDK still allocates per operation (its task, the boxed result).
 * slat is the time the read/write call took to hand the operation over.
 */
final class AfcEngine implements IoEngine {
    private AsynchronousFileChannel channel;
    private Slot[] free;
    private int nfree;
    private int inflight;
    private ArrayBlockingQueue<Slot> done;

    /** One operation's buffer and timestamps; the pool thread writes res/end before queueing it (the queue orders them). */
    private static final class Slot implements CompletionHandler<Integer, Void> {
        final ByteBuffer buf;
        final ArrayBlockingQueue<Slot> done;
        int dir;
        long offset;
        int len;
        long start;
        long issue;
        long end;
        int res;

        Slot(ByteBuffer buf, ArrayBlockingQueue<Slot> done) {
            this.buf = buf;
            this.done = done;
        }

        @Override
        public void completed(Integer n, Void unused) {
            end = System.nanoTime();
            res = Math.max(0, n);
            done.add(this);
        }

        @Override
        public void failed(Throwable t, Void unused) {
            end = System.nanoTime();
            res = t instanceof AsynchronousCloseException || t instanceof ClosedChannelException ? -Errno.EBADF : -Errno.EIO;
            done.add(this);
        }
    }

    @Override
    public void open(Job job) throws IOException {
        int depth = job.spec.iodepth();
        channel = AsynchronousFileChannel.open(job.file, EngineFiles.openOptions(job.spec).toArray(OpenOption[]::new));
        done = new ArrayBlockingQueue<>(depth);
        free = new Slot[depth];
        for (int i = 0; i < depth; i++) {
            free[i] = new Slot(EngineFiles.byteBuffer(job.spec.maxBs(), 7L * job.number + i), done);
        }
        nfree = depth;
        // One unmeasured, unchecked read: starts the JDK's thread pool before the clock (see JringEngine.warmUp).
        try {
            free[0].buf.clear();
            channel.read(free[0].buf, 0).get();
        } catch (java.util.concurrent.ExecutionException firstReadFails) {
            // the job's first measured read reports it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during setup", e);
        }
        job.fileOpened(-1);
    }

    /** Between passes nothing is in flight: the channel can be closed and opened again. */
    @Override
    public void reopen(Job job) throws IOException {
        EngineFiles.closeQuietly(channel);
        channel = AsynchronousFileChannel.open(job.file, EngineFiles.openOptions(job.spec).toArray(OpenOption[]::new));
        job.fileOpened(-1);
    }

    @Override
    public void run(Job job) {
        JobSpec spec = job.spec;
        int depth = spec.iodepth();
        long now = System.nanoTime();
        boolean issuing = job.keepIssuing(now);
        while (issuing || inflight > 0) {
            while (issuing && inflight < depth) {
                long start = System.nanoTime();
                if (!job.nextIo(start)) {
                    issuing = false;
                    break;
                }
                int dir = job.ioDir();
                if (dir == Ddir.SYNC) {
                    long r = EngineFiles.errnoOf(() -> channel.force(!job.syncDataOnly()));
                    now = System.nanoTime();
                    job.completeSync(r, start, now);
                } else {
                    Slot s = free[--nfree];
                    s.dir = dir;
                    s.offset = job.ioOffset();
                    s.len = job.ioLength();
                    s.start = start;
                    s.buf.clear().limit(s.len);
                    if (dir == Ddir.READ) {
                        channel.read(s.buf, s.offset, null, s);
                    } else {
                        channel.write(s.buf, s.offset, null, s);
                    }
                    now = System.nanoTime();
                    s.issue = now;
                    inflight++;
                    job.stats.markSubmit(1, inflight);
                }
                issuing = job.keepIssuing(now);
            }
            if (inflight == 0) {
                break;
            }
            int min = issuing ? Math.max(1, Math.min(spec.batchCompleteMin(), inflight)) : inflight;
            int got = 0;
            while (got < min) {
                account(job, take());
                got++;
            }
            Slot s;
            while (got < spec.batchCompleteMax() && (s = done.poll()) != null) {
                account(job, s);
                got++;
            }
            job.stats.markComplete(got);
            issuing = issuing && job.keepIssuing(System.nanoTime());
        }
    }

    /** The next completion. Job threads are not interrupted; if one is, its buffers must still come back first. */
    private Slot take() {
        while (true) {
            try {
                return done.take();
            } catch (InterruptedException ignored) {
                // keep waiting: the operation still owns the slot's buffer
            }
        }
    }

    private void account(Job job, Slot s) {
        inflight--;
        free[nfree++] = s;
        job.complete(s.dir, s.res, s.len, s.offset, s.start, s.issue, s.end, true);
    }

    @Override
    public void close() {
        EngineFiles.closeQuietly(channel);
        channel = null;
    }
}
