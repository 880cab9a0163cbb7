package io.jring.kernel;

import static io.jring.kernel.BatchWriter.CANCEL_LIKE;
import static io.jring.kernel.BatchWriter.FILELESS;
import static io.jring.kernel.BatchWriter.UNKNOWN_UD;
import static io.jring.kernel.RandomPrograms.MS;
import static io.jring.kernel.RandomPrograms.NEVER;
import static io.jring.kernel.RandomSqe.Op.CANCEL;
import static io.jring.kernel.RandomSqe.Op.CANCEL_FD;
import static io.jring.kernel.RandomSqe.Op.LINK_TIMEOUT;
import static io.jring.kernel.RandomSqe.Op.MSG_RING;
import static io.jring.kernel.RandomSqe.Op.POLL_ADD;
import static io.jring.kernel.RandomSqe.Op.POLL_MULTISHOT;
import static io.jring.kernel.RandomSqe.Op.POLL_REMOVE;
import static io.jring.kernel.RandomSqe.Op.TIMEOUT;
import static io.jring.kernel.RandomSqe.Op.TIMEOUT_REMOVE;

import io.jring.Cancel;
import io.jring.Timeout;
import io.jring.kernel.ProgramModel.Channel;
import io.jring.kernel.ProgramModel.Op;
import java.util.List;

/**
 * The part of a batch's vocabulary that ends other requests ({@link BatchWriter} keeps the
 * batch's state and chooses flags): POLL_REMOVE, TIMEOUT (with a count, expiring or not),
 * TIMEOUT_REMOVE, LINK_TIMEOUT and ASYNC_CANCEL by user data, ANY or descriptor. A cancel is
 * written only if none of the requests it may hit is a hazard ({@link ProgramModel#cancelHazard}).
 */
final class CancelOps {
    private final BatchWriter bw;
    private final RandomPrograms.Writer w;
    private final ProgramModel m;

    CancelOps(BatchWriter bw) {
        this.bw = bw;
        this.w = bw.w;
        this.m = bw.m;
    }

    Op pollRemove() {
        List<Op> polls = m.ops.stream().filter(o -> o.kind() == POLL_ADD || o.kind() == POLL_MULTISHOT).toList();
        Op victim = !polls.isEmpty() && w.chance(80) ? w.pick(polls) : null;
        if (victim != null && !bw.cancelAllowed(victim, false)) {
            return null;
        }
        long target = victim != null ? victim.sqe.ud : UNKNOWN_UD;
        Op op = bw.finish(bw.sqe(POLL_REMOVE).target(target), POLL_REMOVE, null, false, CANCEL_LIKE);
        if (op != null && victim != null) {
            bw.cancelled.add(victim);
        }
        return op;
    }

    boolean timeoutClassAllowed(boolean counted) {
        if (counted) {
            return bw.timeoutOps.isEmpty() || bw.allow(FuzzFeature.TIMEOUT_COUNT, bw.timeoutOps);
        }
        return bw.countTimeouts.isEmpty() || bw.allow(FuzzFeature.TIMEOUT_COUNT, bw.countTimeouts);
    }

    Op timeout() {
        boolean expiring = w.chance(35);
        int count = w.chance(35) ? 1 + w.rnd.nextInt(3) : 0;
        if (!timeoutClassAllowed(count > 0)) {
            return null;
        }
        if (count > 0 && (bw.chainPrev != null || m.drainSeen || bw.batch.stream().anyMatch(o -> o.kind() == MSG_RING))
                && !bw.allow(FuzzFeature.TIMEOUT_COUNT_FLUSH)) {
            // Armed from task work, or after a MSG_RING whose CQE Linux posted at once rather
            // than at the flush: which completions count depends on Linux's flush.
            return null;
        }
        long nanos = expiring ? (1 + w.rnd.nextInt(6)) * MS : NEVER;
        int flags = w.chance(20) ? Timeout.ABS : 0;
        Op op = bw.finish(bw.sqe(TIMEOUT).nanos(nanos).count(count).arg(flags), TIMEOUT, null, false,
                (expiring || count > 0 ? CANCEL_LIKE : 0) | FILELESS);
        if (op != null) {
            bw.timeoutOps.add(op);
            if (count > 0) {
                bw.countTimeouts.add(op);
            }
        }
        return op;
    }

    Op timeoutRemove() {
        List<Op> timeouts = m.ops.stream().filter(o -> o.kind() == TIMEOUT).toList();
        Op victim = !timeouts.isEmpty() && w.chance(80) ? w.pick(timeouts) : null;
        boolean onlyTheCounted = bw.countTimeouts.size() == 1 && bw.countTimeouts.getFirst() == victim;
        if (!onlyTheCounted && !timeoutClassAllowed(false) || victim != null && !bw.cancelAllowed(victim, false)) {
            return null;
        }
        long target = victim != null ? victim.sqe.ud : UNKNOWN_UD;
        Op op = bw.finish(bw.sqe(TIMEOUT_REMOVE).target(target), TIMEOUT_REMOVE, null, false, CANCEL_LIKE);
        if (op != null) {
            bw.timeoutOps.add(op);
            if (victim != null) {
                bw.cancelled.add(victim);
            }
        }
        return op;
    }

    Op linkTimeout() {
        Op target = bw.chainPrev;
        if (target.kind() == LINK_TIMEOUT) {
            if (!bw.lastSlot) {
                return null;
            }
            bw.prepFailure = true;     // Linux fails a link timeout after a link timeout at prep
        }
        boolean expiring = w.chance(50);
        // An expiring target (a TIMEOUT) would race the link timeout's own timer.
        boolean racing = target.kind() == TIMEOUT && target.sqe.nanos < NEVER;
        if (expiring && (target.ioWq || racing || !bw.cancelAllowed(target, true))) {
            return null;
        }
        if (!timeoutClassAllowed(false)
                || bw.chainHasSkip && !bw.allow(FuzzFeature.LINK_TIMEOUT_SKIP, bw.chainMembers())) {
            return null;
        }
        long nanos = expiring ? (1 + w.rnd.nextInt(6)) * MS : NEVER;
        // An absolute deadline counts from now, so a target issued later (a chain member) could
        // find it passed: the timer would race the target's inline completion.
        int flags = w.chance(20) && !(expiring && target.chained) ? Timeout.ABS : 0;
        Op op = bw.finish(bw.sqe(LINK_TIMEOUT).nanos(nanos).arg(flags), LINK_TIMEOUT, null, false,
                (expiring ? CANCEL_LIKE : 0) | FILELESS);
        if (op != null) {
            bw.timeoutOps.add(op);
            if (expiring && target.isConsumer()) {
                bw.timedChannels.add(target.channel);
            }
        }
        return op;
    }

    Op cancelOp() {
        int r = w.rnd.nextInt(10);
        if (r < 5) {
            List<Op> recent = bw.batch.isEmpty() || w.chance(50) ? m.ops : bw.batch;
            long target = !recent.isEmpty() && w.chance(85) ? w.pick(recent).sqe.ud : UNKNOWN_UD;
            return cancel(target, w.chance(30) ? Cancel.ALL : 0, null);
        }
        if (r < 7) {
            return cancel(0, Cancel.ANY | (w.chance(50) ? Cancel.ALL : 0), null);
        }
        String fd;
        if (w.chance(5) && bw.allow(FuzzFeature.HUGE_FD)) {
            fd = w.chance(50) ? RandomPrograms.HUGE_FD : "bad";
        } else if (m.channels.isEmpty() || w.chance(15)) {
            fd = "file";
        } else {
            Channel c = w.pick(m.channels);
            fd = w.chance(70) ? c.read : c.write;
        }
        return cancel(0, w.chance(50) ? Cancel.ALL : 0, fd);
    }

    /** ASYNC_CANCEL by user data, ANY, or (with {@code fd}) by descriptor, if no victim is a hazard. */
    Op cancel(long target, int flags, String fd) {
        if ((fd != null || (flags & Cancel.ANY) != 0) && m.drainSeen && !bw.allow(FuzzFeature.DRAIN_MODE)) {
            return null;
        }
        List<Op> victims;
        if (fd != null) {
            victims = m.ops.stream().filter(o -> fd.equals(o.sqe.fd) || o.channel != null
                    && (fd.equals(o.channel.read) || fd.equals(o.channel.write))).toList();
            if (victims.stream().anyMatch(o -> o.sqe.fd != null && o.sqe.fd.startsWith("#"))) {
                return null;    // Linux matches the registered file too; jring's table holds a duplicate
            }
        } else if ((flags & Cancel.ANY) != 0) {
            victims = m.ops;
        } else {
            Op v = m.byUserData(target);
            victims = v == null ? List.of() : List.of(v);
        }
        for (Op v : victims) {
            if (!bw.cancelAllowed(v, false)) {
                return null;
            }
        }
        RandomSqe.Builder b = fd != null ? bw.sqe(CANCEL_FD).fd(fd).arg(flags)
                : bw.sqe(CANCEL).target(target).arg(flags);
        Op op = bw.finish(b, fd != null ? CANCEL_FD : CANCEL, null, false, CANCEL_LIKE);
        if (op != null) {
            bw.cancelled.addAll(victims);
        }
        return op;
    }
}
