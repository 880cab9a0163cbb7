package io.jring.core;

import io.jring.Opcode;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.ops.OpDef;
import io.jring.trace.SubmitSqeEvent;
import io.jring.trace.Tracing;

/**
 * A request that failed before it was issued (Linux's io_init_req and the op's prep, whose
 * failures io_submit_fail_init reports): its -errno CQE, and its ReqFailed event saying why.
 * Also the SubmitSqe event of every request. Submitting thread, posting right.
 */
final class PrepFailure {
    private final RingContext ring;
    private final CompletionPoster poster;

    PrepFailure(RingContext ring, CompletionPoster poster) {
        this.ring = ring;
        this.poster = poster;
    }

    /** Fails a request before issue, saying why in the ReqFailed event. */
    void reject(Request req, int err, Sqe sqe) {
        poster.fail(req, err, Tracing.reqFailed ? reason(req, sqe) : null);
    }

    /** A chain member failed before issue: only the event now; the chain posts when it ends. */
    void rejectEvent(Request req, int err, Sqe sqe) {
        if (Tracing.reqFailed) {
            poster.failedEvent(req, err, reason(req, sqe));
        }
        req.thrown = null;   // told now: the chain's CQE for it is not told again
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

    void traceSubmit(Request req) {
        SubmitSqeEvent ev = new SubmitSqeEvent();
        ev.ring = ring.id;
        ev.opcode = Opcode.name(req.opcode);
        ev.userData = req.userData;
        ev.flags = req.flags;
        ev.commit();
    }
}
