package io.jring.core;

import io.jring.Errno;

/**
 * An op's own code threw (a bug, or the JVM out of memory) in its prep, its issue (inline or
 * in io-wq), its poll retry or other task work. As a kernel op that cannot go on returns an
 * error instead of taking the ring down, its request completes with a -errno CQE, exactly
 * once, and the ring stays usable: nothing is left in flight for close() to wait for.
 *
 * <p>The errno: -ENOMEM for an OutOfMemoryError (what Linux's io_uring returns when an
 * allocation fails); -EFAULT for anything else. The usual cause of a RuntimeException in an
 * op is an FFM access to a closed or too small segment (IllegalStateException,
 * IndexOutOfBoundsException): Java's form of an address that faults, which Linux reports as
 * -EFAULT; a plain bug has no Linux analogue (an oops), and -EFAULT tells the application
 * the request did not run as asked. The ReqFailed event's reason is the exception's class
 * and message.
 *
 * <p>A throw is taken to mean the op did not hand its request on: a poll it armed is
 * disarmed, nothing else is undone.
 */
final class ThrownOp {
    private ThrownOp() {}

    /** The request's owner (prep, issue, worker): records why {@code req} fails; returns its -errno. */
    static int fail(Request req, Throwable t) {
        req.markSideState(Request.SIDE_IO);
        req.thrown = describe(t);
        return errno(t);
    }

    /** Posting right: the inline issue threw; whatever it armed is disarmed. Returns the -errno. */
    static int issueThrew(Request req, Throwable t) {
        req.ring.polls.disarm(req);
        return fail(req, t);
    }

    /**
     * Posting right, in a task-work run: {@code req}'s task work threw. A request it had
     * completed already (released: its CQE is out) only gets the event; any other ends now,
     * disarmed, with its -errno CQE.
     */
    static void taskWorkThrew(Request req, Throwable t) {
        RingContext ring = req.ring;
        if (req.def == null) {
            ring.poster.failedEvent(req, errno(t), describe(t));
            return;
        }
        ring.polls.transit.remove(req);
        int err = fail(req, t);
        ring.polls.finishArmed(req, err);
    }

    private static int errno(Throwable t) {
        return t instanceof OutOfMemoryError ? -Errno.ENOMEM : -Errno.EFAULT;
    }

    /** "class: message"; just the class if even that cannot be built (out of memory, a throwing getMessage). */
    private static String describe(Throwable t) {
        try {
            String m = t.getMessage();
            return m == null ? t.getClass().getName() : t.getClass().getName() + ": " + m;
        } catch (Throwable again) {
            return t.getClass().getName();
        }
    }
}
