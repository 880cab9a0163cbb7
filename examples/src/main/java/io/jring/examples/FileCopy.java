package io.jring.examples;

import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.SqeFlags;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Random;

/**
 * Copies a file with linked READ -&gt; WRITE pairs (liburing's examples/link-cp.c): each pair
 * reads a chunk into a buffer and, linked with {@code IO_LINK}, writes that buffer at the same
 * offset. The write starts only once the read has succeeded in full; a short or failed read
 * cancels it ({@code -ECANCELED}) and the chunk is queued again. Up to {@link #PAIRS} pairs are
 * in flight at once.
 *
 * <pre>
 * FileCopy SRC DST     copies SRC to DST
 * FileCopy             copies a 4 MiB temporary file and checks that the copy is identical
 * </pre>
 */
public final class FileCopy {
    static final int PAIRS = 16;
    static final int CHUNK = 64 * 1024;

    private FileCopy() {}

    public static void main(String[] args) throws IOException {
        if (args.length == 2) {
            long n = copy(Path.of(args[0]), Path.of(args[1]));
            System.out.println("copied " + n + " bytes");
            return;
        }
        if (args.length != 0) {
            System.err.println("usage: FileCopy [SRC DST]");
            System.exit(2);
        }
        Path src = Files.createTempFile("jring-copy-src", ".bin");
        Path dst = Files.createTempFile("jring-copy-dst", ".bin");
        try {
            byte[] data = new byte[4 * 1024 * 1024 + 1234];   // the last chunk is a short one
            new Random(42).nextBytes(data);
            Files.write(src, data);
            long n = copy(src, dst);
            long mismatch = Files.mismatch(src, dst);
            if (n != data.length || mismatch != -1) {
                throw new IOException("bad copy: " + n + " bytes copied, first difference at " + mismatch);
            }
            System.out.println("copied " + n + " bytes with linked READ -> WRITE pairs; the copy is identical");
        } finally {
            Files.deleteIfExists(src);
            Files.deleteIfExists(dst);
        }
    }

    /** A chunk of the file to copy. */
    private record Chunk(long offset, int length) {}

    static long copy(Path src, Path dst) throws IOException {
        long size = Files.size(src);
        int in = Fds.open(src, OpenFlags.RDONLY, 0);
        int out = Fds.open(dst, OpenFlags.WRONLY | OpenFlags.CREAT | OpenFlags.TRUNC, 0644);
        try (IoUring ring = IoUring.open(2 * PAIRS); Arena arena = Arena.ofConfined()) {
            ArrayDeque<Chunk> todo = new ArrayDeque<>();
            for (long off = 0; off < size; off += CHUNK) {
                todo.add(new Chunk(off, (int) Math.min(CHUNK, size - off)));
            }
            MemorySegment[] buffers = new MemorySegment[PAIRS];
            Chunk[] inFlight = new Chunk[PAIRS];
            ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
            for (int slot = 0; slot < PAIRS; slot++) {
                buffers[slot] = arena.allocate(CHUNK);
                freeSlots.add(slot);
            }
            long copied = 0;
            int pending = 0;
            while (copied < size) {
                while (!todo.isEmpty() && !freeSlots.isEmpty()) {
                    int slot = freeSlots.poll();
                    Chunk c = todo.poll();
                    inFlight[slot] = c;
                    MemorySegment buf = buffers[slot].asSlice(0, c.length());
                    // user data: the slot, and which half of the pair (0 read, 1 write)
                    ring.getSqe().prepRead(in, buf, c.offset()).flags(SqeFlags.IO_LINK).userData(slot << 1);
                    ring.getSqe().prepWrite(out, buf, c.offset()).userData(slot << 1 | 1);
                    pending++;
                }
                ring.submitAndWait(1);
                for (Cqe cqe = ring.waitCqe(); cqe != null; cqe = ring.peekCqe()) {
                    int slot = (int) (cqe.userData() >>> 1);
                    boolean write = (cqe.userData() & 1) != 0;
                    int res = cqe.res();
                    ring.cqeSeen(cqe);
                    Chunk c = inFlight[slot];
                    if (!write) {
                        if (res < 0) {
                            throw new IOException("read at " + c.offset() + " failed: " + Errno.name(res));
                        }
                        continue;   // a short read cancels the write: handled with the write's CQE
                    }
                    if (res == c.length()) {
                        copied += res;
                    } else if (res == -Errno.ECANCELED || res >= 0) {
                        todo.add(c);   // short read (write cancelled) or short write: do the chunk again
                    } else {
                        throw new IOException("write at " + c.offset() + " failed: " + Errno.name(res));
                    }
                    inFlight[slot] = null;
                    freeSlots.add(slot);
                    pending--;
                }
            }
            if (pending != 0) {
                throw new IllegalStateException(pending + " pairs still in flight");
            }
            return copied;
        } finally {
            Fds.close(in);
            Fds.close(out);
        }
    }
}
