package io.jring.core;

import java.util.function.Predicate;

/**
 * Requests an io-wq worker found not ready and handed back to their task to arm poll (the
 * async hybrid's ARM task work, seed 003). Linux's worker arms the poll itself, so such a
 * request is in the cancel hash at once; jring arms in the task, and until that task work
 * runs the request is listed here, where ASYNC_CANCEL finds it, flags it, and the ARM task
 * work ends it with -ECANCELED instead of arming it.
 *
 * <p>Workers add, the task removes as its ARM work starts, cancellers (posting right) look:
 * all under this object's monitor, which also orders a canceller's flag before the ARM
 * work's check of it. A worker adds before it leaves io-wq, so a cancel that no longer finds
 * the request running there finds it here. Rare (an ASYNC request on a pollable file that
 * is not ready), so a small array searched linearly; it only grows, steady state allocates
 * nothing.
 */
final class ArmTransit {
    private Request[] reqs = new Request[4];
    private int size;

    /** Worker: {@code req}'s ARM task work is about to be queued. */
    synchronized void add(Request req) {
        if (size == reqs.length) {
            reqs = java.util.Arrays.copyOf(reqs, size * 2);
        }
        reqs[size++] = req;
    }

    /** The request's task, as its ARM task work starts: it leaves the list (if it is in it). */
    synchronized void remove(Request req) {
        for (int i = 0; i < size; i++) {
            if (reqs[i] == req) {
                reqs[i] = reqs[--size];
                reqs[size] = null;
                return;
            }
        }
    }

    /** Whether {@code req} is listed (a canceller asks while io-wq may still call it running). */
    synchronized boolean contains(Request req) {
        for (int i = 0; i < size; i++) {
            if (reqs[i] == req) {
                return true;
            }
        }
        return false;
    }

    /**
     * Posting right: flags for cancellation the requests {@code match} accepts (each, or only
     * the first unless {@code all}); returns how many. A flagged request is still listed and
     * is found again, as a cancelled poll stays in Linux's cancel hash until its task work runs.
     */
    synchronized int cancel(Predicate<Request> match, boolean all) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            Request r = reqs[i];
            if (match.test(r) && AsyncCancel.flag(r)) {
                n++;
                if (!all) {
                    break;
                }
            }
        }
        return n;
    }
}
