package io.jring;

import io.jring.core.ApiAccess;
import io.jring.core.RingContext;

/**
 * The {@link ApiAccess} the engine uses to create and fill the API's flyweights and to find
 * the ring behind an {@link IoUring}: package-private parts of io.jring it may not see.
 */
final class EngineAccess implements ApiAccess {

    private EngineAccess() {}

    /** Installs the access; called once, by IoUring's static initialiser. */
    static void install() {
        ApiAccess.install(new EngineAccess());
    }

    @Override
    public Sqe newSqe() {
        return new Sqe();
    }

    @Override
    public Cqe newCqe() {
        return new Cqe();
    }

    @Override
    public void fillCqe(Cqe cqe, long userData, int res, int flags) {
        cqe.userData = userData;
        cqe.res = res;
        cqe.flags = flags;
    }

    @Override
    public RingContext contextOf(IoUring ring) {
        return ring.ctx;
    }
}
