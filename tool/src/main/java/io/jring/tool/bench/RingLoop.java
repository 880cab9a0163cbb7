package io.jring.tool.bench;

import io.jring.tool.report.Latency;
import org.HdrHistogram.Histogram;

/**
 * A bench thread that owns a ring and loops until its controller stops it (the NOP and
 * MSG_RING benches). It builds the ring itself, so a SINGLE_ISSUER ring is owned by it.
 * Here: the controller's two switches, and what the loop hands back once it has ended.
 */
abstract class RingLoop implements Runnable {

    /** Set by the controller; read by the loop once per batch. */
    volatile boolean stop;
    /** Set by the controller after warmup: from then on round trips are sampled. */
    volatile boolean measuring;

    // Loop thread only until it ends; the controller reads them after join().
    long errors;
    int sqEntries;
    final Histogram roundTrips = Latency.newHistogram();
    Throwable failure;

    /** Throws what ended the loop, if anything did. */
    void rethrowFailure() {
        KernelAnchor.rethrow(failure);
    }

    void startMeasuring() {
        measuring = true;
    }

    void stop() {
        stop = true;
    }

    // After join():
    long errors() {
        return errors;
    }

    Histogram roundTrips() {
        return roundTrips;
    }

    int sqEntries() {
        return sqEntries;
    }
}
