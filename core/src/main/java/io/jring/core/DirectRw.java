package io.jring.core;

import io.jring.Errno;

/**
 * A ring's O_DIRECT reads and writes (the device path of Linux's io_uring/rw.c, over native
 * AIO here): the read/write ops hand such a request to {@link #submit}, which starts the
 * ring's {@link DirectIo} on first use; the ring hands each batch to the device at the end
 * of its submit and of every task-work run ({@link #flush}). Completions come back through
 * the {@link DirectIo}'s own task work, not through the ring.
 */
public final class DirectRw {
    /** AIO context slots: twice the SQ, at least 64, at most 4096. */
    private static final int MIN_SLOTS = 64;
    private static final int MAX_SLOTS = 4096;

    private final RingContext ring;
    /**
     * Native AIO for O_DIRECT, started on first use. Written once under the posting right
     * (volatile: waiters on other threads read it to reap); close() after the drain.
     */
    private volatile DirectIo directIo;
    /** AIO could not be set up: io-wq does this ring's direct I/O. Posting right, plain. */
    private boolean unavailable;

    DirectRw(RingContext ring) {
        this.ring = ring;
    }

    /**
     * Posting right: submits an O_DIRECT read or write to the device through native AIO.
     * 0 if submitted (completion comes as task work), -EAGAIN to use io-wq instead, or -errno.
     */
    public int submit(Request req, boolean write, long address, long length, long offset) {
        DirectIo d = directIo;
        if (d == null) {
            if (unavailable || ring.isClosing()) {
                return -Errno.EAGAIN;
            }
            d = DirectIo.start(ring, Math.min(Math.max(2 * ring.sqEntries, MIN_SLOTS), MAX_SLOTS));
            if (d == null) {
                unavailable = true;
                return -Errno.EAGAIN;
            }
            directIo = d;
        }
        return d.submit(req, write, address, length, offset);
    }

    /** Posting right: hands the direct I/O queued by this batch to the device. */
    void flush() {
        DirectIo d = directIo;
        if (d != null && d.hasPending()) {
            d.flush();
        }
    }

    /** The reaping side of direct I/O, if started (any thread; see {@link #directIo}). */
    DioReaper reaper() {
        DirectIo d = directIo;
        return d != null ? d.reaper : null;
    }

    /** Any thread: O_DIRECT I/Os with the device (0 before the first). */
    int inFlight() {
        DirectIo d = directIo;
        return d != null ? d.inFlight() : 0;
    }

    /** close(), after every request has finished: stops the reaper and lets go of the AIO context. */
    void close() {
        DirectIo d = directIo;
        if (d != null) {
            d.close();
        }
    }
}
