package io.jring.nio;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The native view of one read or write over ByteBuffers: a segment per buffer with bytes
 * remaining (a direct buffer's own memory; a heap buffer's slice of one bounce buffer,
 * filled first for a write), and after the transfer the positions advanced (and, for a
 * read, the bytes copied back into heap buffers). At most {@link #IOV_MAX} buffers, as
 * Linux's iovec limit; the rest wait for the next call, as the JDK does.
 */
final class Transfer {
    static final int IOV_MAX = 1024;

    private final ByteBuffer[] bufs;
    private final MemorySegment[] segs;
    private final int count;
    private final MemorySegment temp;

    private Transfer(ByteBuffer[] bufs, MemorySegment[] segs, int count, MemorySegment temp) {
        this.bufs = bufs;
        this.segs = segs;
        this.count = count;
        this.temp = temp;
    }

    /** The transfer over {@code src[off, off + len)}, or null if no buffer has bytes remaining. */
    static Transfer of(ByteBuffer[] src, int off, int len, boolean write) {
        int n = 0;
        long heap = 0;
        for (int i = off; i < off + len && n < IOV_MAX; i++) {
            ByteBuffer b = src[i];
            if (b.hasRemaining()) {
                n++;
                if (!b.isDirect()) {
                    heap += b.remaining();
                }
            }
        }
        if (n == 0) {
            return null;
        }
        ByteBuffer[] bufs = new ByteBuffer[n];
        MemorySegment[] segs = new MemorySegment[n];
        MemorySegment temp = heap > 0 ? IoBuffers.take(heap) : null;
        long at = 0;
        int k = 0;
        for (int i = off; k < n; i++) {
            ByteBuffer b = src[i];
            if (!b.hasRemaining()) {
                continue;
            }
            bufs[k] = b;
            if (b.isDirect()) {
                segs[k] = MemorySegment.ofBuffer(b);
            } else {
                segs[k] = temp.asSlice(at, b.remaining());
                at += b.remaining();
                if (write) {
                    MemorySegment.copy(MemorySegment.ofBuffer(b), 0, segs[k], 0, b.remaining());
                }
            }
            k++;
        }
        return new Transfer(bufs, segs, n, temp);
    }

    MemorySegment[] segments() {
        return segs;
    }

    /** After {@code n} bytes moved: positions advanced, heap buffers filled from the bounce buffer for a read. */
    void done(long n, boolean read) {
        for (int i = 0; i < count && n > 0; i++) {
            ByteBuffer b = bufs[i];
            int k = (int) Math.min(b.remaining(), n);
            if (read && !b.isDirect()) {
                MemorySegment.copy(segs[i], 0, MemorySegment.ofBuffer(b), 0, k);
            }
            b.position(b.position() + k);
            n -= k;
        }
    }

    /** Gives the bounce buffer back; the transfer is finished (its ring op completed). */
    void release() {
        if (temp != null) {
            IoBuffers.give(temp);
        }
    }
}
