package io.jring.core;

import io.jring.Cqe;
import io.jring.IoUring;
import io.jring.Sqe;

/**
 * The engine's window into package-private parts of the public API (the JDK's
 * "SharedSecrets" pattern): the API stays small while the engine fills CQE slots and
 * finds the ring behind an {@link IoUring}. Installed once by {@code IoUring}'s static
 * initialiser; the field is final after that, so calls inline.
 *
 * <p>The one import cycle it makes (IoUring names ApiAccess to install itself, ApiAccess
 * names IoUring in {@link #contextOf}) is the pattern's price: the alternative, public
 * constructors for Sqe and Cqe and a public ring accessor, would put the engine in the API.
 */
public interface ApiAccess {

    Sqe newSqe();

    Cqe newCqe();

    void fillCqe(Cqe cqe, long userData, int res, int flags);

    RingContext contextOf(IoUring ring);

    /** The installed access; loading IoUring installs it. */
    static ApiAccess get() {
        return Holder.ACCESS;
    }

    /** Called once by IoUring's static initialiser. */
    static void install(ApiAccess access) {
        Slot.value = access;
    }

    /** Written once by install (during IoUring's class initialisation), read by Holder's initialiser. */
    final class Slot {
        static volatile ApiAccess value;

        private Slot() {}
    }

    final class Holder {
        static final ApiAccess ACCESS;

        static {
            try {
                Class.forName(IoUring.class.getName(), true, IoUring.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new ExceptionInInitializerError(e);
            }
            ACCESS = Slot.value;
        }

        private Holder() {}
    }
}
