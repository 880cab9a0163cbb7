package io.jring.core;

import io.jring.Errno;
import io.jring.Opcode;
import io.jring.SqeFlags;

/**
 * IO_LINK / IO_HARDLINK chains (the kernel's {@code io_submit_link} and
 * {@code io_queue_next}/{@code io_fail_links}). The submit path assembles a chain; it is
 * queued when a member without a link flag ends it, or at the end of the submit call (a
 * chain never spans two submits). A chain runs one request at a time: each member is
 * queued, as task work, when the one before it completes. If a member fails (an error or a
 * short read/write) and is not IO_HARDLINK, the rest complete with -ECANCELED; when the
 * failing member carries CQE_SKIP_SUCCESS, their CQEs are skipped, as in Linux. A
 * LINK_TIMEOUT right after the member it guards is not part of "the rest": it completes
 * -ECANCELED with its own CQE_SKIP_SUCCESS, however that member ended (even at prep).
 *
 * <p>A member that fails while the chain is assembled keeps its error and marks the head
 * failed (-ECANCELED); assembly goes on, and the whole chain fails when it ends.
 *
 * <p>Posting right only: plain fields.
 */
final class LinkChains {
    static final int LINK_FLAGS = SqeFlags.IO_LINK | SqeFlags.IO_HARDLINK;

    /** Task work: issue a chain member whose predecessor completed. */
    static final TaskWorkFunc ISSUE_LINKED = (req, cancel) -> {
        if (cancel || req.ring.isClosing()) {
            req.ring.links.cancelChain(req, false);
        } else {
            req.ring.issuer.issue(req);
        }
    };

    /**
     * Task work: the members after the head of a chain that failed while it was assembled
     * complete (their own error, else -ECANCELED), after whatever the submit call posted
     * meanwhile, as Linux's io_fail_links does through task work. The _QUIET variant skips
     * their CQEs (the head carried CQE_SKIP_SUCCESS).
     */
    static final TaskWorkFunc FAIL_LINKED = (req, cancel) -> req.ring.links.cancelChain(req, false);
    static final TaskWorkFunc FAIL_LINKED_QUIET = (req, cancel) -> req.ring.links.cancelChain(req, true);

    /**
     * Task work: a LINK_TIMEOUT whose request ended without it completes -ECANCELED. That is
     * no failure in Linux's eyes (io_req_queue_tw_complete): its own CQE_SKIP_SUCCESS holds.
     */
    static final TaskWorkFunc TIMEOUT_DISARMED = (req, cancel) ->
            req.ring.poster.finishQuietly(req, -Errno.ECANCELED, (req.flags & SqeFlags.CQE_SKIP_SUCCESS) != 0);

    private final RingContext ring;
    private Request head;
    private Request tail;

    LinkChains(RingContext ring) {
        this.ring = ring;
    }

    /** A chain is being assembled (LINK_TIMEOUT needs one before it). */
    boolean assembling() {
        return head != null;
    }

    /** The last member of the chain being assembled, or null. */
    Request lastMember() {
        return tail;
    }

    /** Submit path: a validated request joins the chain, starts one, or is queued alone. */
    void submit(Request req) {
        boolean linked = (req.flags & LINK_FLAGS) != 0;
        if (head != null) {
            append(req);
            if (!linked) {
                queueChain();
            }
        } else if (linked) {
            req.markSideState(Request.SIDE_LINK);
            head = req;
            tail = req;
            req.drainChain = (req.flags & SqeFlags.IO_DRAIN) != 0;
        } else {
            ring.issuer.queue(req);
        }
    }

    /**
     * Submit path: a request failed validation. Returns true if submission goes on (the chain
     * is still being assembled), false if it stops here.
     */
    boolean submitFailed(Request req, int err) {
        req.res = err;
        req.markSideState(Request.SIDE_LINK);
        req.failed = true;
        boolean linked = (req.flags & LINK_FLAGS) != 0;
        if (head == null && !linked) {
            return false;   // the caller posts the error
        }
        if (head == null) {
            head = req;
            tail = req;
            return true;
        }
        if (!head.failed) {
            head.failed = true;
            head.res = -Errno.ECANCELED;
        }
        append(req);
        if (linked) {
            return true;
        }
        queueChain();
        return false;
    }

    /** End of a submit call: an unterminated chain is queued as it is. */
    void endSubmit() {
        if (head != null) {
            queueChain();
        }
    }

    private void append(Request req) {
        req.markSideState(Request.SIDE_LINK);
        tail.link = req;
        tail = req;
        if ((req.flags & SqeFlags.IO_DRAIN) != 0) {
            head.drainChain = true;
        }
    }

    private void queueChain() {
        Request h = head;
        head = null;
        tail = null;
        if (h.failed) {
            failChain(h);
        } else {
            ring.issuer.queue(h);
        }
    }

    /**
     * A chain that failed while assembled: the head posts its error now, the rest theirs or
     * -ECANCELED from task work (checked on 6.18: a later SQE of the same submit that
     * completes inline posts before them). A LINK_TIMEOUT guarding the head is disarmed
     * first, as after any completion of its request.
     */
    private void failChain(Request h) {
        Request next = h.link;
        h.link = null;
        boolean skip = (h.flags & SqeFlags.CQE_SKIP_SUCCESS) != 0;
        ring.poster.postAndFree(h, h.res, 0);
        if (next != null && next.opcode == Opcode.LINK_TIMEOUT && next.timeoutTarget == h) {
            Request lt = next;
            next = lt.link;
            lt.link = null;
            lt.timeoutTarget = null;
            queue(lt, TIMEOUT_DISARMED);
        }
        if (next != null) {
            queue(next, skip ? FAIL_LINKED_QUIET : FAIL_LINKED);
        }
    }

    private void queue(Request r, TaskWorkFunc func) {
        r.taskFunc = func;
        r.setCompletionWork(false);
        ring.issuer.queueTaskWork(r, false);
    }

    /**
     * Posting right, from {@code postAndFree}: {@code done} completed ({@code failed} or
     * not) and {@code next} followed it (Linux's io_disarm_next). Disarms a link timeout
     * that guarded it, then queues the next member or the cancellation of the rest, all
     * through task work: CQEs posted meanwhile come first.
     */
    void completed(Request done, Request next, boolean failed) {
        if (next.opcode == Opcode.LINK_TIMEOUT && next.timeoutTarget == done) {
            Request lt = next;
            next = lt.link;
            lt.link = null;
            lt.timeoutTarget = null;
            if (ring.timeouts.timers.cancel(lt)) {
                queue(lt, TIMEOUT_DISARMED);
            }
            // else the timer fired: its task work posts -ETIME
            if (next == null) {
                return;
            }
        }
        if (failed && (done.flags & SqeFlags.IO_HARDLINK) == 0) {
            queue(next, (done.flags & SqeFlags.CQE_SKIP_SUCCESS) != 0 ? FAIL_LINKED_QUIET : FAIL_LINKED);
            return;
        }
        queue(next, ISSUE_LINKED);
    }

    /** Completes {@code first} and its successors: their own error if they failed, else -ECANCELED. */
    void cancelChain(Request first, boolean skipCqes) {
        for (Request r = first; r != null; ) {
            Request nx = r.link;
            r.link = null;
            int res = r.failed ? r.res : -Errno.ECANCELED;
            ring.poster.finishQuietly(r, res, skipCqes);
            r = nx;
        }
    }
}
