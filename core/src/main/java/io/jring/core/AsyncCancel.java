package io.jring.core;

import io.jring.Cancel;
import io.jring.Errno;
import io.jring.Opcode;
import io.jring.iowq.IoWq;

import java.util.function.Predicate;

/**
 * Cancellation (Linux's cancel.c): ASYNC_CANCEL's search for the requests that match, in
 * io-wq, among requests on their way to arm poll, among armed polls and among timeouts, in
 * the order of io_try_cancel; and a link timeout's cancel of its target. Posting right.
 */
public final class AsyncCancel {
    private final RingContext ring;

    AsyncCancel(RingContext ring) {
        this.ring = ring;
    }

    /**
     * ASYNC_CANCEL: cancels the requests that match (by user data, by fd with
     * {@code Cancel.FD}, or any with {@code Cancel.ANY}; all of them with {@code Cancel.ALL}
     * or ANY) in io-wq, on their way to arm poll, among armed polls and among timeouts, in
     * Linux's order. Returns 0 (or the count with ALL/ANY), -ENOENT, or -EALREADY if a match
     * runs in io-wq.
     */
    public int cancel(Request canceller, int flags, long userData, int fd) {
        boolean all = (flags & (Cancel.ALL | Cancel.ANY)) != 0;
        // Task work queued meanwhile is not run first: its requests are found where Linux finds
        // them (a poll whose readiness is queued is still armed, a request a worker handed back
        // to arm poll is in ArmTransit), and what it completes posts after this cancel's CQE.
        Predicate<Request> match;
        if ((flags & Cancel.ANY) != 0) {
            match = r -> r != canceller;
        } else if ((flags & Cancel.FD) != 0) {
            match = r -> r != canceller && r.fd == fd;
        } else {
            match = r -> r != canceller && r.userData == userData;
        }
        int count = 0;
        // One in transit may still look busy to io-wq: it is found (once) in ArmTransit below.
        IoWq.Cancellation c = ring.ioWq().cancel(w -> w instanceof Request r && r.ring == ring && match.test(r)
                && !ring.polls.transit.contains(r) && flag(r), all);
        count += c.cancelled();
        boolean running = c.result() == IoWq.CancelResult.RUNNING;
        if (all && running) {
            count++;   // Linux counts a running match too (it signals the worker)
        }
        if (!all && (count > 0 || running)) {
            return count > 0 ? 0 : -Errno.EALREADY;
        }
        int n = ring.polls.transit.cancel(match, all);
        count += n;
        if (!all && n > 0) {
            return 0;
        }
        for (Request r = ring.polls.armed.first(); r != null; r = r.armedNext) {
            if (match.test(r)) {   // a claimed one too: Linux's cancel hash holds it until its task work runs
                ring.polls.cancelArmed(r);
                count++;
                if (!all) {
                    return 0;
                }
            }
        }
        if ((flags & Cancel.FD) == 0) {
            n = ring.timeouts.cancel(match, all);
            count += n;
            if (!all && n > 0) {
                return 0;
            }
        }
        if (all) {
            return count;   // ALL and ANY answer with the count, 0 included, as Linux
        }
        return running ? -Errno.EALREADY : -Errno.ENOENT;
    }

    /**
     * A link timeout expired: cancels its target. 0, -EALREADY (running in io-wq: it is
     * flagged, so it ends -ECANCELED rather than arm or block again), or -ENOENT. Armed
     * requests are looked for first: a worker that just handed one over to its poll may
     * still look busy to io-wq.
     */
    int cancelTarget(Request target) {
        if (target.inArmedList) {
            ring.polls.cancelArmed(target);   // claimed already or now: found, as io_poll_cancel finds it
            return 0;
        }
        if (target.opcode == Opcode.TIMEOUT && ring.timeouts.cancel(r -> r == target, false) > 0) {
            return 0;
        }
        IoWq.Cancellation c = ring.ioWq().cancel(w -> w == target && flag(target), false);
        if (c.cancelled() > 0) {
            return 0;
        }
        if (c.result() == IoWq.CancelResult.RUNNING) {
            return -Errno.EALREADY;
        }
        // In transit between a worker and its poll (its ARM task work is queued): the mark
        // makes that task work end it with -ECANCELED instead of arming it.
        flag(target);
        return 0;
    }

    /**
     * Marks a request a cancel found in io-wq (queued ones are removed; a running one sees the
     * mark) or in {@link ArmTransit} (its ARM task work sees it). True, for use in predicates.
     */
    static boolean flag(Request r) {
        r.markSideState(Request.SIDE_CANCEL);
        r.cancelRequested = true;
        return true;
    }
}
