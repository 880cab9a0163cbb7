package io.jring.core;

/**
 * A ring's requests armed in some poller (POLL_ADD, multishot and retried ops): where
 * POLL_REMOVE, cancellation and close() find them, whichever thread's poller holds them
 * (Linux's cancel hash). Posting right only; links are intrusive in {@link Request}.
 */
final class ArmedList {
    private Request head;
    /** Requests in the list: written by the posting right (setOpaque), read by stats readers (getOpaque). */
    private int size;

    private static final java.lang.invoke.VarHandle SIZE;

    static {
        try {
            SIZE = java.lang.invoke.MethodHandles.lookup().findVarHandle(ArmedList.class, "size", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    void add(Request req) {
        if (req.inArmedList) {
            return;
        }
        req.inArmedList = true;
        SIZE.setOpaque(this, size + 1);
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
        SIZE.setOpaque(this, size - 1);
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

    /** Any thread: how many requests are armed (a stats reader's snapshot). */
    int size() {
        return (int) SIZE.getOpaque(this);
    }

    Request first() {
        return head;
    }

    boolean isEmpty() {
        return head == null;
    }
}
