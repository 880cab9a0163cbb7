package io.jring.poll;

import io.jring.sys.PollCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A {@link Poller}'s epoll set: what is registered in it (the fds armed waits sit on, a
 * ring's direct-I/O eventfd) and the source each event goes to. Event data is
 * {@code generation << 32 | slot}: a slot freed while its event sat in the buffer of the same
 * epoll_wait has a new generation, so the stale event is dropped. Slot 0 is the poller's
 * wake eventfd, whose events are dropped too (they only end the wait).
 *
 * <p>Holder of the poller's task only (see {@link Poller}): plain fields.
 */
final class EpollSet {
    static final int WAKE_SLOT = 0;

    private final SysCallContext sc;
    /** The epoll instance the owner waits in. */
    private final int epfd;
    /**
     * Where armed fds are registered: {@link #epfd} itself (the owner waits on them), or,
     * with a {@link PollerThread}, a second epoll instance that thread waits on.
     */
    private final int armEpfd;

    private PollSource[] sources = new PollSource[16];
    private int[] generations = new int[16];
    private int[] free = new int[16];
    private int nFree;

    /** Sources kept for the poller's life (a ring's direct-I/O eventfd), by identity. */
    private PollSource[] persistent = new PollSource[0];

    EpollSet(SysCallContext sc, int epfd, int armEpfd) {
        this.sc = sc;
        this.epfd = epfd;
        this.armEpfd = armEpfd;
        for (int i = sources.length - 1; i > WAKE_SLOT; i--) {
            free[nFree++] = i;
        }
    }

    /** Registers an armed fd where armed fds are watched: its handle, or -errno. */
    long addArmed(ArmedFd a, int fd, int interest) {
        return add(a, fd, interest, armEpfd);
    }

    /**
     * Registers {@code fd} for {@code events} (epoll bits) in {@code ep} on behalf of
     * {@code source}. Returns a handle for {@link #modify}/{@link #remove}, or -errno.
     */
    private long add(PollSource source, int fd, int events, int ep) {
        int slot = allocSlot(source);
        long handle = handle(slot);
        int r = PollCalls.epollCtl(sc, ep, PollCalls.EPOLL_CTL_ADD, fd, events, handle);
        if (r < 0) {
            freeSlot(slot);
            return r;
        }
        return handle;
    }

    /** Re-arms or changes the interest of a registered armed fd: 0 or -errno. */
    int modify(long handle, int fd, int events) {
        return PollCalls.epollCtl(sc, armEpfd, PollCalls.EPOLL_CTL_MOD, fd, events, handle);
    }

    /**
     * Forgets a source. {@code deregister}: also removes {@code fd} from the epoll set (false
     * when the fd is known closed, which removed it already).
     */
    void remove(long handle, int fd, boolean deregister) {
        int slot = (int) handle;
        if (slot <= WAKE_SLOT || slot >= sources.length || generations[slot] != (int) (handle >>> 32)) {
            return;
        }
        if (deregister) {
            PollCalls.epollCtl(sc, armEpfd, PollCalls.EPOLL_CTL_DEL, fd, 0, 0L);
        }
        freeSlot(slot);
    }

    /** See {@link Poller#ensurePersistent}. */
    void ensurePersistent(Poller.PersistentSource source) {
        PollSource[] cur = persistent;
        int live = 0;
        boolean found = false;
        for (PollSource s : cur) {
            if (s == source) {
                found = true;
            }
            if (!((Poller.PersistentSource) s).retired()) {
                live++;
            }
        }
        if (found) {
            return;
        }
        PollSource[] next = new PollSource[live + 1];
        int n = 0;
        for (PollSource s : cur) {
            if (((Poller.PersistentSource) s).retired()) {
                forgetPersistent(s);
            } else {
                next[n++] = s;
            }
        }
        if (add(source, source.fd(), PollCalls.EPOLLIN | PollCalls.EPOLLET, epfd) >= 0) {
            next[n++] = source;
        }
        persistent = Arrays.copyOf(next, n);
    }

    private void forgetPersistent(PollSource s) {
        for (int i = 1; i < sources.length; i++) {
            if (sources[i] == s) {
                freeSlot(i);
            }
        }
    }

    private int allocSlot(PollSource source) {
        if (nFree == 0) {
            grow();
        }
        int slot = free[--nFree];
        sources[slot] = source;
        return slot;
    }

    private void freeSlot(int slot) {
        sources[slot] = null;
        generations[slot]++;
        free[nFree++] = slot;
    }

    private void grow() {
        int old = sources.length;
        int size = old * 2;
        sources = Arrays.copyOf(sources, size);
        generations = Arrays.copyOf(generations, size);
        free = Arrays.copyOf(free, size);
        for (int i = size - 1; i >= old; i--) {
            free[nFree++] = i;
        }
    }

    private long handle(int slot) {
        return ((long) generations[slot] << 32) | slot;
    }

    /** Runs the sources of {@code n} events in {@code events} (an epoll_wait's buffer); returns how many ran. */
    int dispatch(Poller poller, MemorySegment events, int n) {
        int done = 0;
        for (int i = 0; i < n; i++) {
            long data = Structs.EpollEvent.data(events, i);
            int revents = Structs.EpollEvent.events(events, i);
            int slot = (int) data;
            if (slot == WAKE_SLOT || slot >= sources.length || generations[slot] != (int) (data >>> 32)) {
                continue;
            }
            PollSource s = sources[slot];
            if (s != null) {
                done++;
                s.onReady(poller, revents);
            }
        }
        return done;
    }

    /** close(): the registrations died with the epoll fd; the sources are let go. */
    void clear() {
        Arrays.fill(sources, null);
        persistent = new PollSource[0];
    }
}
