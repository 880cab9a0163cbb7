package io.jring.core;

import io.jring.SqeFlags;

import java.util.ArrayDeque;

/**
 * IO_DRAIN (the kernel's defer list): a drain request (or a chain with a drain member)
 * starts only when every request submitted before it has completed, and from then on later
 * requests queue here too, until one without drain finds the queue empty and goes straight
 * through. A queued entry is released when everything
 * alive in the ring is queued here (nothing else in flight) — for the first entry, and for
 * any entry at or after a drain — while entries between the first and the next drain follow
 * the first at once, as Linux's io_queue_deferred does.
 *
 * <p>Posting right only: plain fields.
 */
final class DrainQueue {
    /** Task work: issue a request released from the queue. */
    static final TaskWorkFunc ISSUE_DRAINED = (req, cancel) -> {
        if (cancel || req.ring.isClosing()) {
            req.ring.links.cancelChain(req, false);
        } else {
            req.ring.issuer.issue(req);
        }
    };

    private final RingContext ring;
    private final ArrayDeque<Request> queued = new ArrayDeque<>();
    /** Requests held here, chain members included (they count as alive in the pool). */
    private int held;
    private boolean active;

    DrainQueue(RingContext ring) {
        this.ring = ring;
    }

    /** New submissions must queue here (a drain is pending). */
    boolean active() {
        return active;
    }

    static boolean drains(Request req) {
        return (req.flags & SqeFlags.IO_DRAIN) != 0 || req.drainChain;
    }

    void defer(Request head) {
        active = true;
        queued.addLast(head);
        held += chainLength(head);
        flush();
        if (!drains(head) && queued.isEmpty()) {
            active = false;   // as Linux: only a request without drain that went straight through ends it
        }
    }

    /** Releases what may start now (after a completion, or a new entry). */
    void flush() {
        boolean first = true;
        boolean drainSeen = false;
        while (!queued.isEmpty()) {
            Request r = queued.peekFirst();
            drainSeen |= drains(r);
            if ((drainSeen || first) && ring.pool.inFlight() != held) {
                return;
            }
            queued.pollFirst();
            held -= chainLength(r);
            r.taskFunc = ISSUE_DRAINED;
            r.setCompletionWork(false);
            ring.issuer.queueTaskWork(r, false);
            first = false;
        }
    }

    /** close(): everything still queued completes with -ECANCELED. */
    void cancelAll() {
        Request r;
        while ((r = queued.pollFirst()) != null) {
            held -= chainLength(r);
            ring.links.cancelChain(r, false);
        }
        active = false;
    }

    private static int chainLength(Request head) {
        int n = 0;
        for (Request r = head; r != null; r = r.link) {
            n++;
        }
        return n;
    }
}
