package io.jring.core;

import io.jring.RingStats;
import io.jring.iowq.IoWq;

/**
 * Reads a ring's counters into a {@link RingStats} (any thread, without stopping the ring).
 * Each counter stays with the part and thread that change it (see each field's contract);
 * this only loads them: opaque reads of single-writer counters, and io-wq's worker counts
 * under its accounts' monitors (a few field reads each, off the hot path).
 */
public final class RingStatsReader {
    private RingStatsReader() {}

    /** {@return the counters of {@code ring} now} */
    public static RingStats read(RingContext ring) {
        IoWq wq = ring.ioWq();
        return new RingStats(
                ring.sq.submitted(),
                ring.cq.publishedCount(),
                ring.pool.inFlight(),
                ring.cq.overflowedCount(),
                wq.workerCount(true),
                wq.workerCount(false),
                wq.busyCount(true),
                wq.busyCount(false),
                ring.poster.taskRuns(),
                ring.poster.taskItems(),
                ring.polls.armed.size(),
                ring.directRw.inFlight(),
                ring.msgRing.sentCount(),
                ring.msgRing.receivedCount());
    }
}
