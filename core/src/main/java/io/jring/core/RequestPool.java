package io.jring.core;

/**
 * Per-ring cache of {@link Request}s (the kernel's request cache): a stack of free
 * requests, preallocated for one SQ's worth and grown only when more are in flight than
 * ever before, so steady state allocates nothing. Accessed only by the holder of the
 * ring's posting right (owner token or ring lock): plain fields.
 */
final class RequestPool {
    private final RingContext ring;
    private Request[] free;
    private int size;
    /**
     * Requests handed out and not yet returned. Written plain by the posting right's holder;
     * read by close() with getOpaque after it borrowed the posting right or between its
     * helping rounds (a stale value only costs close() another round).
     */
    private int inFlight;

    RequestPool(RingContext ring, int initial) {
        this.ring = ring;
        this.free = new Request[Math.max(initial, 8)];
        for (int i = 0; i < initial; i++) {
            free[size++] = new Request(ring);
        }
    }

    Request alloc() {
        Request r = size > 0 ? free[--size] : fresh();
        inFlightAdd(1);
        return r;
    }

    /** The pool is empty: a new request, also left in the slot above the top (see {@link #lastAllocated}). */
    private Request fresh() {
        free[0] = null;   // if the allocation fails, no stale request is taken for the new one
        Request r = new Request(ring);
        free[0] = r;
        return r;
    }

    /**
     * The request {@link #alloc} handed out last, or what the slot above the top holds if the
     * pool was used since (callers check it is theirs): alloc leaves its request there,
     * without a store on the common path. For a submit whose op threw in prep.
     */
    Request lastAllocated() {
        return size < free.length ? free[size] : null;
    }

    void release(Request r) {
        if (r.hasSideState()) {
            if (r.fixedFd >= 0) {
                releaseFixedFile(r);
            }
            if (r.fixedFdIn >= 0) {
                ring.resources().files.releaseUse(r.fixedFdIn);
                r.fixedFdIn = -1;
            }
            r.clearSideRefs();
        }
        releasePlain(r);
    }

    /** {@link #release} of a request known to have no side state: the completion fast path. */
    void releasePlain(Request r) {
        r.clearRefs();
        if (size == free.length) {
            free = java.util.Arrays.copyOf(free, size * 2);
        }
        free[size++] = r;
        inFlightAdd(-1);
    }

    private void releaseFixedFile(Request r) {
        ring.resources().files.releaseUse(r.fixedFd);
        r.fixedFd = -1;
    }

    private void inFlightAdd(int d) {
        // Single writer at a time (the posting right): a plain update, read opaquely by close().
        inFlight += d;
    }

    int inFlight() {
        return (int) INFLIGHT.getOpaque(this);
    }

    private static final java.lang.invoke.VarHandle INFLIGHT;

    static {
        try {
            INFLIGHT = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(RequestPool.class, "inFlight", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
