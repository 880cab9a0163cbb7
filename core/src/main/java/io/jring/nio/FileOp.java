package io.jring.nio;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * One file operation handed to a {@link RingWorker}: what to prepare (an opcode of
 * {@link Kind}, the fd, the buffers, the offset or length) and, once its CQE arrived, the
 * result. The caller parks until then: a virtual thread unmounts, a platform thread blocks.
 *
 * <p>Threads: the caller fills the request fields before it queues the op (the queue's
 * CAS publishes them); the worker writes {@link #result} then {@link #done} (volatile) and
 * unparks {@link #waiter}; the caller reads {@code done}, then {@code result}.
 */
final class FileOp {
    enum Kind { READV, WRITEV, FSYNC, FDATASYNC, FTRUNCATE }

    final Kind kind;
    final int fd;
    final MemorySegment[] bufs;
    /** The file offset of a read or write (-1: the file's position, for O_APPEND), or FTRUNCATE's length. */
    final long offset;
    final Thread waiter = Thread.currentThread();

    /** The CQE's result; written by the worker before {@link #done}. */
    int result;
    /** Written (volatile) by the worker after {@link #result}; read by the waiting caller. */
    private volatile boolean done;

    FileOp(Kind kind, int fd, MemorySegment[] bufs, long offset) {
        this.kind = kind;
        this.fd = fd;
        this.bufs = bufs;
        this.offset = offset;
    }

    /** Worker: the CQE's result arrived. */
    void complete(int res) {
        result = res;
        done = true;
        LockSupport.unpark(waiter);
    }

    /**
     * Caller: parks until the CQE, whatever interrupts come (the buffers stay in use until
     * then); a pending interrupt is set again on return. The result, or -errno.
     */
    int await() {
        boolean interrupted = false;
        while (!done) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return result;
    }
}
