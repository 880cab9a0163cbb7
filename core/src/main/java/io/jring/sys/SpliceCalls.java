package io.jring.sys;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * splice(2) and tee(2), and the wait for both ends of a splice to be ready. Wrappers return
 * {@code >= 0} or {@code -errno} and never throw. The offsets travel through the context's
 * scratch (two {@code loff_t}), so a call allocates nothing.
 */
public final class SpliceCalls {
    private SpliceCalls() {}

    /** SPLICE_F_NONBLOCK: the pipe side does not wait (the other end may, unless O_NONBLOCK). */
    public static final int SPLICE_F_NONBLOCK = 2;

    /** {@code (capture, int fd_in, loff_t *off_in, int fd_out, loff_t *off_out, size_t len, unsigned flags) -> ssize_t}. */
    private static final MethodHandle SPLICE = Libc.downcall("splice",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    /** {@code (capture, int fd_in, int fd_out, size_t len, unsigned flags) -> ssize_t}. */
    private static final MethodHandle TEE = Libc.downcall("tee",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT));

    private static final short POLLIN = 0x1;
    private static final short POLLOUT = 0x4;

    /**
     * splice(2) of {@code len} bytes (unsigned) from {@code fdIn} to {@code fdOut}. An offset
     * of -1 passes NULL (the file position is used and moved); any other value is the offset
     * the kernel reads, so a negative one is refused by splice(2) itself, as io_uring's is.
     */
    public static long splice(SysCallContext ctx, int fdIn, long offIn, int fdOut, long offOut, long len, int flags) {
        try {
            MemorySegment offs = ctx.scratch();
            offs.set(JAVA_LONG, 0, offIn);
            offs.set(JAVA_LONG, 8, offOut);
            MemorySegment in = offIn == -1 ? MemorySegment.NULL : offs;
            MemorySegment out = offOut == -1 ? MemorySegment.NULL : offs.asSlice(8, 8);
            long r = (long) SPLICE.invokeExact(ctx.capture(), fdIn, in, fdOut, out, len, flags);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /** tee(2): duplicates up to {@code len} bytes of pipe {@code fdIn} into pipe {@code fdOut}. */
    public static long tee(SysCallContext ctx, int fdIn, int fdOut, long len, int flags) {
        try {
            long r = (long) TEE.invokeExact(ctx.capture(), fdIn, fdOut, len, flags);
            return r >= 0 ? r : -ctx.lastErrno();
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    /**
     * Waits up to {@code timeoutMs} until {@code fdIn} is readable and {@code fdOut} writable
     * (or either reports an error, a hang-up or an invalid descriptor, which the splice itself
     * then answers); a negative descriptor is not waited for. 1 when both are, 0 on timeout,
     * or -errno. An end already ready is left out of the next poll(2), so a full output does
     * not spin on a readable input.
     */
    public static int awaitEnds(SysCallContext ctx, int fdIn, int fdOut, int timeoutMs) {
        boolean inReady = fdIn < 0;
        boolean outReady = fdOut < 0;
        try {
            MemorySegment pfds = ctx.scratch();
            while (!inReady || !outReady) {
                setPollFd(pfds, 0, inReady ? -1 : fdIn, POLLIN);
                setPollFd(pfds, 8, outReady ? -1 : fdOut, POLLOUT);
                int r = (int) PollCalls.POLL.invokeExact(ctx.capture(), pfds, 2L, timeoutMs);
                if (r < 0) {
                    return -ctx.lastErrno();
                }
                if (r == 0) {
                    return 0;
                }
                inReady |= pfds.get(JAVA_SHORT, 6) != 0;
                outReady |= pfds.get(JAVA_SHORT, 14) != 0;
            }
            return 1;
        } catch (Throwable t) {
            return Libc.errnoOf(t);
        }
    }

    private static void setPollFd(MemorySegment pfds, long at, int fd, short events) {
        pfds.set(JAVA_INT, at, fd);
        pfds.set(JAVA_SHORT, at + 4, events);
        pfds.set(JAVA_SHORT, at + 6, (short) 0);
    }
}
