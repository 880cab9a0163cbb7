package io.jring.core;

import io.jring.Opcode;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.ops.OpDef;
import io.jring.trace.SubmitSqeEvent;
import io.jring.trace.Tracing;
import io.jring.tw.TaskContext;

/**
 * A request that failed before it was issued (Linux's io_init_req and the op's prep, whose
 * failures io_submit_fail_init reports), an op's prep that threw among them: its -errno CQE,
 * and its ReqFailed event saying why. Also the SubmitSqe event of every request. Submitting
 * thread, posting right.
 */
final class PrepFailure {
    private PrepFailure() {}

    /** Fails a request before issue, saying why in the ReqFailed event. */
    static void reject(Request req, int err, Sqe sqe) {
        req.ring.poster.fail(req, err, Tracing.reqFailed ? reason(req, sqe) : null);
    }

    /** A chain member failed before issue: only the event now; the chain posts when it ends. */
    static void rejectEvent(Request req, int err, Sqe sqe) {
        if (Tracing.reqFailed) {
            req.ring.poster.failedEvent(req, err, reason(req, sqe));
        }
        req.thrown = null;   // told now: the chain's CQE for it is not told again
    }

    /**
     * The submit loop caught {@code t} from {@code RequestIssuer.submitOne} of {@code sqe}. An
     * issue that throws is caught where it runs, so this is op code on the way there: the prep
     * (or forceAsync, pollMask...; submitOne has no try of its own, which costs the NOP path
     * measurably). The request the pool handed out last is that SQE's: it fails as an invalid
     * SQE does ({@link ThrownOp}), disarmed if it got that far. Returns submitOne's answer for
     * it; rethrows {@code t} if no request of that SQE is being submitted (none could be made).
     */
    static boolean submitThrew(RingContext ring, Throwable t, Sqe sqe, TaskContext tc) {
        Request req = ring.pool.lastAllocated();
        if (req == null || req.def == null || req.task != tc || req.userData != sqe.userData()
                || req.opcode != sqe.opcode()) {
            if (t instanceof Error e) {
                throw e;
            }
            throw t instanceof RuntimeException e ? e : new IllegalStateException(t);
        }
        ring.polls.disarm(req);
        int err = ThrownOp.fail(req, t);
        if (ring.links.assembling() || (req.flags & LinkChains.LINK_FLAGS) != 0) {
            rejectEvent(req, err, sqe);
            return ring.links.submitFailed(req, err);
        }
        reject(req, err, sqe);
        return false;
    }

    private static String reason(Request req, Sqe sqe) {
        OpDef def = req.def;
        String reason;
        if (req.thrown != null) {
            reason = req.thrown;   // its prep threw (ThrownOp)
        } else if (def == null) {
            reason = "unknown or unsupported opcode " + req.opcode;
        } else if ((req.flags & ~SqeFlags.VALID) != 0) {
            reason = "unknown SQE flag bits 0x" + Integer.toHexString(req.flags & ~SqeFlags.VALID);
        } else if ((req.flags & SqeFlags.BUFFER_SELECT) != 0 && !def.bufferSelect()) {
            reason = "BUFFER_SELECT is not valid for " + Opcode.name(req.opcode);
        } else if (sqe.ioprio() != 0 && !def.ioprio()) {
            reason = "ioprio must be 0 for " + Opcode.name(req.opcode);
        } else {
            reason = "invalid SQE for " + Opcode.name(req.opcode);
        }
        return reason;
    }

    static void traceSubmit(Request req) {
        SubmitSqeEvent ev = new SubmitSqeEvent();
        ev.ring = req.ring.id;
        ev.opcode = Opcode.name(req.opcode);
        ev.userData = req.userData;
        ev.flags = req.flags;
        ev.commit();
    }
}
