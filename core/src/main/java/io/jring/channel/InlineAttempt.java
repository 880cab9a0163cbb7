package io.jring.channel;

import io.jring.Errno;
import io.jring.sys.SocketCalls;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The non-blocking first attempt of a socket read or write started by a thread outside the
 * channel's ring, made by that thread (as io_uring's submitter makes a request's first
 * attempt with MSG_DONTWAIT before it arms a poll): data already there, or room in the send
 * buffer, is transferred at once, and only an operation that would wait (-EAGAIN) goes to
 * the ring. The JDK's socket channels try the same way first. A heap buffer's bytes pass
 * through a native buffer of the calling thread's own for the call.
 */
final class InlineAttempt {
    private InlineAttempt() {}

    /** Heap buffers above this go to the ring (its pooled bounce buffers) without an attempt here. */
    static final int MAX_HEAP_BYTES = 64 * 1024;

    /**
     * One recv or send of {@code buf}'s remaining bytes with MSG_DONTWAIT, moving its position
     * by the bytes transferred. The caller holds a pin on the descriptor.
     *
     * @param fd the socket
     * @param buf a buffer with bytes remaining
     * @param write send instead of recv
     * @return the bytes transferred (0 for a recv: end of stream), -EAGAIN if the operation
     *         would wait (or was not tried), or another -errno
     */
    static long transfer(int fd, ByteBuffer buf, boolean write) {
        int len = buf.remaining();
        if (buf.isDirect()) {
            MemorySegment s = MemorySegment.ofBuffer(buf);
            long r = call(fd, s.address(), len, write);
            if (r > 0) {
                buf.position(buf.position() + (int) r);
            }
            return r;
        }
        if (len > MAX_HEAP_BYTES) {
            return -Errno.EAGAIN;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(len);
            if (write) {
                MemorySegment.copy(MemorySegment.ofBuffer(buf), 0, s, 0, len);
            }
            long r = call(fd, s.address(), len, write);
            if (r > 0) {
                if (!write) {
                    MemorySegment.copy(s, 0, MemorySegment.ofBuffer(buf), 0, r);
                }
                buf.position(buf.position() + (int) r);
            }
            return r;
        }
    }

    private static long call(int fd, long address, int len, boolean write) {
        SysCallContext ctx = SysCallContext.current();
        long r = write
                ? SocketCalls.sendAt(ctx, fd, address, len, 0, true)
                : SocketCalls.recvAt(ctx, fd, address, len, 0, true);
        return r;
    }
}
