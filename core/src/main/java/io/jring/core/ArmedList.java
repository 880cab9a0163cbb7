package io.jring.core;

/**
 * A ring's requests armed in some poller (POLL_ADD, multishot and retried ops): where
 * POLL_REMOVE, cancellation and close() find them, whichever thread's poller holds them
 * (Linux's cancel hash). Posting right only; links are intrusive in {@link Request}.
 */
final class ArmedList {
    private Request head;

    void add(Request req) {
        if (req.inArmedList) {
            return;
        }
        req.inArmedList = true;
        req.armedPrev = null;
        req.armedNext = head;
        if (head != null) {
            head.armedPrev = req;
        }
        head = req;
    }

    void remove(Request req) {
        if (!req.inArmedList) {
            return;
        }
        req.inArmedList = false;
        if (req.armedPrev == null) {
            head = req.armedNext;
        } else {
            req.armedPrev.armedNext = req.armedNext;
        }
        if (req.armedNext != null) {
            req.armedNext.armedPrev = req.armedPrev;
        }
        req.armedPrev = null;
        req.armedNext = null;
    }

    /**
     * An armed request with this user data, or null. {@code pollOnly}: POLL_ADD requests only
     * (POLL_REMOVE), as Linux's io_poll_find. A request a cancel claimed is still here until
     * its task work runs, as in Linux's cancel hash; one POLL_REMOVE took is not.
     */
    Request find(long userData, boolean pollOnly) {
        for (Request r = head; r != null; r = r.armedNext) {
            if (r.userData == userData && (!pollOnly || r.opcode == io.jring.Opcode.POLL_ADD)) {
                return r;
            }
        }
        return null;
    }

    Request first() {
        return head;
    }

    boolean isEmpty() {
        return head == null;
    }
}
