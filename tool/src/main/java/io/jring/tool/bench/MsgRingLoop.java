package io.jring.tool.bench;

import io.jring.CqeHandler;
import io.jring.IoUring;
import io.jring.SqeFlags;
import io.jring.TaskWorkKind;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One of the two threads of the MSG_RING bench: owns a ring and sends MSG_RING messages to
 * its peer's ring, either streaming in batches or, in ping-pong mode, one message in flight
 * (the initiator sends, the other side answers each message it receives). Allocates nothing
 * per loop.
 */
final class MsgRingLoop extends RingLoop {

    /** userData of a counted message. */
    static final long MSG = 1L;
    /** userData of the messages a side sends when it stops: its peer stops too. */
    static final long BYE = 2L;
    /** userData of the sender's own SQE: it only shows up (despite CQE_SKIP_SUCCESS) on an error. */
    static final long SENDER = 3L;

    private static final long BARRIER_TIMEOUT_SECONDS = 10;

    private final int batch;
    private final RingFlags flags;
    private final TaskWorkKind kind;
    private final boolean pingpong;
    private final boolean initiator;
    /** Parties: both loops and the controller; passed once both rings exist. */
    private final CyclicBarrier ready;
    /** Parties: both loops; passed once both have stopped, so neither ring closes under a message. */
    private final CyclicBarrier finished;

    /** CPU, wakeups and sleeps of this loop's thread, for the bench's cost line. */
    final LoopCounters counters = new LoopCounters();

    private MsgRingLoop peer;
    /** Written before {@link #ready} is passed, read by the peer after it: the barrier orders it. */
    private IoUring ring;

    /**
     * Messages received so far (streaming), or round trips completed (ping-pong initiator).
     * Written only by the loop thread with setOpaque; read with getOpaque by the controller.
     */
    @SuppressWarnings("unused")
    private long received;

    // What the last forEachCqe pass saw (loop thread only).
    private int gotMsgs;
    private boolean gotBye;

    private static final VarHandle RECEIVED;

    static {
        try {
            RECEIVED = MethodHandles.lookup().findVarHandle(MsgRingLoop.class, "received", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Rings built with legacyMsgRing: seed 004's "before" path (the sender posts under the target's lock). */
    private final boolean legacy;

    private MsgRingLoop(int batch, RingFlags flags, TaskWorkKind kind, boolean pingpong, boolean legacy,
                        boolean initiator, CyclicBarrier ready, CyclicBarrier finished) {
        this.legacy = legacy;
        this.batch = batch;
        this.flags = flags;
        this.kind = kind;
        this.pingpong = pingpong;
        this.initiator = initiator;
        this.ready = ready;
        this.finished = finished;
    }

    /** The two sides, peers of each other; the first is the ping-pong initiator. */
    static MsgRingLoop[] pair(int batch, RingFlags flags, TaskWorkKind kind, boolean pingpong, boolean legacy) {
        CyclicBarrier ready = new CyclicBarrier(3);
        CyclicBarrier finished = new CyclicBarrier(2);
        MsgRingLoop a = new MsgRingLoop(batch, flags, kind, pingpong, legacy, true, ready, finished);
        MsgRingLoop b = new MsgRingLoop(batch, flags, kind, pingpong, legacy, false, ready, finished);
        a.peer = b;
        b.peer = a;
        return new MsgRingLoop[] {a, b};
    }

    @Override
    public void run() {
        try (IoUring r = IoUring.builder()
                .entries(Math.max(64, 2 * batch))
                .cqEntries(Math.max(256, 16 * batch))
                .flags(flags.setupFlags())
                .taskWorkList(kind)
                .legacyMsgRing(legacy)
                .build()) {
            r.submit(); // the first submit makes this thread the owner of a SINGLE_ISSUER ring
            ring = r;
            sqEntries = r.sqEntries();
            counters.register();
            ready.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!pingpong) {
                stream(r);
            } else if (initiator) {
                ping(r);
            } else {
                pong(r);
            }
            finished.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Throwable t) {
            failure = t;
            // Wakes the controller and the peer at once rather than after the barrier timeout.
            ready.reset();
            finished.reset();
        }
    }

    /**
     * Sends a batch, then consumes what arrived; waits only while more than three batches it
     * sent are unanswered by the peer's (the difference may be negative: the peer can be
     * ahead). So a wait is never for more than one batch, and at most about 8 batches are in
     * flight per direction: the CQ (16 batches) never overflows in steady state.
     */
    private void stream(IoUring r) {
        final long window = 3L * batch;
        final CqeHandler onCqe = this::onCqe;
        long sent = 0;
        long recv = 0;
        while (!stop) {
            send(r, MSG, batch);
            sent += batch;
            r.submitAndWait((int) Math.max(0, sent - recv - window));
            if (reap(r, onCqe)) {
                break;
            }
            recv += gotMsgs;
            while (sent - recv > window) {
                r.submitAndWait((int) (sent - recv - window));
                if (reap(r, onCqe)) {
                    break;
                }
                recv += gotMsgs;
            }
            if (gotBye) {
                break;
            }
            RECEIVED.setOpaque(this, recv);
        }
        // The peer may be waiting for up to one batch: that many byes always wake it.
        send(r, BYE, batch);
        r.submit();
    }

    /** Initiator: one message out, wait for the answer, time the round trip. */
    private void ping(IoUring r) {
        final CqeHandler onCqe = this::onCqe;
        long trips = 0;
        while (!stop) {
            boolean sample = measuring;
            long t0 = System.nanoTime();
            send(r, MSG, 1);
            int answers = 0;
            while (answers == 0) {
                r.submitAndWait(1);
                if (reap(r, onCqe)) {
                    return;
                }
                answers = gotMsgs;
            }
            if (sample) {
                roundTrips.recordValue(System.nanoTime() - t0);
            }
            trips++;
            RECEIVED.setOpaque(this, trips);
        }
        send(r, BYE, 1);
        r.submit();
    }

    /** Answers every message with one, until the initiator says bye. */
    private void pong(IoUring r) {
        final CqeHandler onCqe = this::onCqe;
        for (;;) {
            r.submitAndWait(1); // also submits the answers prepared below
            if (reap(r, onCqe)) {
                return;
            }
            if (gotMsgs > 0) {
                send(r, MSG, gotMsgs);
            }
        }
    }

    private void send(IoUring r, long data, int n) {
        IoUring target = peer.ring;
        for (int i = 0; i < n; i++) {
            r.getSqe().prepMsgRing(target, 0, data, 0).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(SENDER);
        }
    }

    /** One forEachCqe pass: sets {@link #gotMsgs}; true once the peer said bye. */
    private boolean reap(IoUring r, CqeHandler onCqe) {
        gotMsgs = 0;
        r.forEachCqe(onCqe);
        return gotBye;
    }

    private void onCqe(long userData, int res, int cqeFlags) {
        if (userData == MSG) {
            gotMsgs++;
        } else if (userData == BYE) {
            gotBye = true;
        } else if (res < 0) {
            errors++;
        }
    }

    /** Waits until both rings are built (or one failed); rethrows a setup failure. */
    void awaitRings() throws InterruptedException {
        try {
            ready.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (BrokenBarrierException | TimeoutException e) {
            rethrowFailure();
            peer.rethrowFailure();
            throw new IllegalStateException("the MSG_RING bench threads did not start", e);
        }
    }

    long received() {
        return (long) RECEIVED.getOpaque(this);
    }
}
