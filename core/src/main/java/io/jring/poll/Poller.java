package io.jring.poll;

import io.jring.Errno;
import io.jring.sys.FsCalls;
import io.jring.sys.NativeMemory;
import io.jring.sys.PollCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A thread's readiness waiter (Linux's poll wait queues plus the task's sleep): one epoll
 * instance per {@link io.jring.tw.TaskContext} holding the fds its requests armed, and an
 * eventfd that other threads write to wake it. A waiting owner with armed sources blocks in
 * {@link #sleep} instead of parking (DESIGN.md section 4).
 *
 * <p>Threads: everything but {@link #wake()} runs in the owning task, holding its run token
 * (the owner, or a helper that borrowed it), so the source table is plain: successive
 * holders are ordered by the token's volatile writes. {@link #wake()} may be called from
 * any thread at any time before {@link #close()}.
 *
 * <p>Event data is {@code generation << 32 | slot}: a slot freed while its event sat in the
 * buffer of the same epoll_wait has a new generation, so the stale event is dropped.
 */
public final class Poller {
    /**
     * Reported to every wait whatever its mask (Linux's IO_POLL_UNMASK: POLLERR, POLLHUP,
     * POLLNVAL, POLLRDHUP); POLLRDHUP is therefore always part of the epoll interest.
     */
    public static final int ALWAYS_REPORTED = PollCalls.EPOLLERR | PollCalls.EPOLLHUP | 0x20 | PollCalls.EPOLLRDHUP;

    /** Events taken per epoll_wait. */
    private static final int MAX_EVENTS = 128;
    private static final int WAKE_SLOT = 0;

    private final Arena arena = NativeMemory.shared();
    private final SysCallContext sc = SysCallContext.shared();
    private final MemorySegment events;
    private final int epfd;
    /**
     * Where armed fds are registered: {@link #epfd} itself (the owner waits on them), or,
     * with a {@link PollerThread}, a second epoll instance that thread waits on.
     */
    private final int armEpfd;
    private final PollerThread thread;
    private final int wakeFd;

    private PollSource[] sources = new PollSource[16];
    private int[] generations = new int[16];
    private int[] free = new int[16];
    private int nFree;
    /** Sources that need the owner to sleep in epoll (armed polls, busy direct I/O); holder only. */
    private int demand;

    /** The fds armed waits are registered for; holder only. */
    private final ArmedFds armed = new ArmedFds(this);

    /** Sources kept for the poller's life (a ring's direct-I/O eventfd), by identity. */
    private PollSource[] persistent = new PollSource[0];

    /**
     * Set by the owner (volatile) before it publishes SLEEPING for a wait in epoll, cleared
     * after; read by wakers to choose the eventfd over unpark.
     */
    private volatile boolean sleeping;
    /** close() ran: wake() is a no-op from then on. Written once by the closer, read by wakers. */
    private volatile boolean closed;

    /**
     * Wakers inside {@link #wake()}: incremented before they read {@link #closed}, so close()
     * (which sets closed first, then waits for this to drain) never closes the eventfd under
     * a write that could land on a reused fd number. Atomic adds by wakers, volatile read.
     */
    private volatile int wakersInside;
    /** Wake writes issued, for tests and stats; wakers add atomically. */
    private volatile long wakeWrites;
    private static final VarHandle WAKE_WRITES;
    private static final VarHandle WAKERS_INSIDE;

    static {
        try {
            WAKE_WRITES = MethodHandles.lookup().findVarHandle(Poller.class, "wakeWrites", long.class);
            WAKERS_INSIDE = MethodHandles.lookup().findVarHandle(Poller.class, "wakersInside", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Poller(int epfd, int wakeFd, int armEpfd, io.jring.tw.TaskContext owner) {
        this.epfd = epfd;
        this.armEpfd = armEpfd;
        this.thread = armEpfd != epfd ? new PollerThread(this, owner, armEpfd) : null;
        this.wakeFd = wakeFd;
        this.events = arena.allocate(MAX_EVENTS * Structs.EpollEvent.SIZE, 8);
        for (int i = sources.length - 1; i > WAKE_SLOT; i--) {
            free[nFree++] = i;
        }
    }

    /**
     * Which thread waits for armed fds: {@code owner} (default: the owner's wait blocks in
     * epoll) or {@code thread} (a {@link PollerThread} per poller hands readiness over as
     * task work). The two are measured against each other in docs/BENCHMARKS.md.
     */
    static final boolean THREAD_MODE = "thread".equals(System.getProperty("jring.poller", "owner"));

    /**
     * Creates the epoll instance and the wake eventfd for {@code owner}'s context;
     * IllegalStateException with the errno if Linux refuses.
     */
    public static Poller open(io.jring.tw.TaskContext owner) {
        SysCallContext sc = SysCallContext.current();
        int ep = PollCalls.epollCreate(sc, PollCalls.EPOLL_CLOEXEC);
        if (ep < 0) {
            throw new IllegalStateException("epoll_create1 failed: " + Errno.name(-ep));
        }
        int efd = PollCalls.eventfd(sc, 0, PollCalls.EFD_NONBLOCK | PollCalls.EFD_CLOEXEC);
        if (efd < 0) {
            FsCalls.close(sc, ep);
            throw new IllegalStateException("eventfd failed: " + Errno.name(-efd));
        }
        // Edge-triggered: each write is one event, and nobody needs to read the counter.
        int r = PollCalls.epollCtl(sc, ep, PollCalls.EPOLL_CTL_ADD, efd,
                PollCalls.EPOLLIN | PollCalls.EPOLLET, WAKE_SLOT);
        if (r < 0) {
            FsCalls.close(sc, efd);
            FsCalls.close(sc, ep);
            throw new IllegalStateException("epoll_ctl(eventfd) failed: " + Errno.name(-r));
        }
        int armEp = ep;
        if (THREAD_MODE) {
            armEp = PollCalls.epollCreate(sc, PollCalls.EPOLL_CLOEXEC);
            if (armEp < 0) {
                FsCalls.close(sc, efd);
                FsCalls.close(sc, ep);
                throw new IllegalStateException("epoll_create1 failed: " + Errno.name(-armEp));
            }
        }
        Poller p = new Poller(ep, efd, armEp, owner);
        if (p.thread != null) {
            p.thread.start();
        }
        return p;
    }

    // ---------------------------------------------------------------- sources

    /**
     * Registers {@code fd} for {@code events} (epoll bits, e.g. with EPOLLONESHOT) on behalf
     * of {@code source}. Returns a handle for {@link #modify}/{@link #remove}, or -errno.
     */
    public long add(PollSource source, int fd, int events) {
        return add(source, fd, events, epfd);
    }

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

    /** Re-arms or changes the interest of a registered fd: 0 or -errno. */
    public int modify(long handle, int fd, int events) {
        return PollCalls.epollCtl(sc, armEpfd, PollCalls.EPOLL_CTL_MOD, fd, events, handle);
    }

    /**
     * Forgets a source. {@code deregister}: also removes {@code fd} from the epoll set (false
     * when the fd is known closed, which removed it already).
     */
    public void remove(long handle, int fd, boolean deregister) {
        int slot = (int) handle;
        if (slot <= WAKE_SLOT || slot >= sources.length || generations[slot] != (int) (handle >>> 32)) {
            return;
        }
        if (deregister) {
            PollCalls.epollCtl(sc, armEpfd, PollCalls.EPOLL_CTL_DEL, fd, 0, 0L);
        }
        freeSlot(slot);
    }

    /**
     * Registers a source for the poller's life, once per source (edge-triggered input, e.g.
     * an eventfd that Linux AIO signals). Sources that report {@code retired} are dropped
     * first; their fds are closed, which removed them from the epoll set.
     */
    public void ensurePersistent(PersistentSource source) {
        PollSource[] cur = persistent;
        int live = 0;
        boolean found = false;
        for (PollSource s : cur) {
            if (s == source) {
                found = true;
            }
            if (!((PersistentSource) s).retired()) {
                live++;
            }
        }
        if (found) {
            return;
        }
        PollSource[] next = new PollSource[live + 1];
        int n = 0;
        for (PollSource s : cur) {
            if (((PersistentSource) s).retired()) {
                forgetPersistent(s);
            } else {
                next[n++] = s;
            }
        }
        if (add(source, source.fd(), PollCalls.EPOLLIN | PollCalls.EPOLLET) >= 0) {
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

    /** A source registered for the poller's life. */
    public interface PersistentSource extends PollSource {
        int fd();

        /** Its fd was closed (its owner shut down): the poller may forget it. */
        boolean retired();
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

    // ---------------------------------------------------------------- armed waits

    /** {@link #arm} {@code known}: not looked at; the caller's own attempt just found the fd not ready. */
    public static final int UNCHECKED = -1;
    /** {@link #arm} {@code known}: look at the fd's readiness now (the last attempt was another thread's). */
    public static final int CHECK_NOW = -2;

    /**
     * Holder: arms {@code w} for {@code mask} (poll bits) on {@code fd}. Returns 0, or -errno
     * (-EPERM: the fd does not support poll, e.g. a regular file; -EBADF). {@code known} is
     * the fd's {@link #readiness} the caller took just before, {@link #UNCHECKED} or
     * {@link #CHECK_NOW}: readiness there at arm time is reported to {@code w} alone now
     * (a one-shot wait then completes without being linked), and never again to waits
     * armed on the fd before (see {@link ArmedFds}).
     *
     * <p>The fd stays in the epoll set, edge-triggered, so re-arming costs no syscall while
     * the registration is current: its interest covers {@code mask} and no close happened
     * since it was set (a closed number may name a new file now; waits armed on the closed
     * file then stay pending, off the new one). Closes made outside jring are not seen: an
     * fd that jring polls must be closed through jring (CLOSE, {@code Fds.close}) if its
     * number is reused.
     */
    public int arm(PollWait w, int fd, int mask, boolean multishot, int known) {
        return armed.arm(w, fd, mask, multishot, known);
    }

    /**
     * Any thread: what {@code fd} is ready for now (poll(2), timeout 0, every event a wait
     * can ask for), as Linux's arm-time {@code vfs_poll}: the events, or -EBADF.
     */
    public static int readiness(int fd) {
        return ArmedFds.readiness(fd);
    }

    /** Registers an armed fd where armed fds are watched: its handle, or -errno. */
    long addArmed(ArmedFd a, int fd, int interest) {
        return add(a, fd, interest, armEpfd);
    }

    /** The owner waits in epoll itself (no {@link PollerThread}), so {@link #harvest} sees the armed fds. */
    boolean ownerWaits() {
        return thread == null;
    }

    /**
     * Holder: dispatches what is ready now, in batches while they come full (at most
     * {@code rounds}), into the calling thread's own event buffer (the owner's may hold the
     * events of a sleep not dispatched yet).
     */
    void harvest(int rounds) {
        SysCallContext ctx = SysCallContext.current();
        MemorySegment buf = ctx.epollEvents();
        int max = SysCallContext.EPOLL_EVENTS_CAPACITY;
        for (int i = 0; i < rounds; i++) {
            int n = PollCalls.epollPoll(ctx, epfd, buf, max);
            if (n > 0) {
                dispatch(buf, n);
            }
            if (n < max) {
                return;
            }
        }
    }

    /** Holder: unlinks an armed wait (cancel, removal, end of a multishot); no-op if not armed. */
    public void disarm(PollWait w) {
        ArmedFd a = w.on;
        if (a != null) {
            a.unlink(w);
            demand--;
        }
    }

    /** Holder: one more (or fewer, with a negative delta) reason to sleep in epoll. */
    public void demand(int delta) {
        demand += delta;
    }

    /** Holder: a wait should block in epoll rather than park (armed waits, and no poller thread watches them). */
    public boolean hasDemand() {
        return demand > 0 && thread == null;
    }

    /** Holder: registered sources besides the wake eventfd and persistent ones. */
    public int registeredCount() {
        return sources.length - 1 - nFree - persistent.length;
    }

    // ---------------------------------------------------------------- waiting

    /**
     * Holder: dispatches what is ready now (epoll_wait with timeout 0). Returns the number of
     * events dispatched.
     */
    public int pollNow() {
        int n = PollCalls.epollPoll(sc, epfd, events, MAX_EVENTS);
        return n > 0 ? dispatch(n) : 0;
    }

    /**
     * Owner, after publishing {@link #markSleeping()} and SLEEPING: blocks until an event,
     * a {@link #wake()}, or {@code timeoutNanos} (-1 = forever). Returns the number of events
     * ready; they are dispatched by {@link #dispatchPending} once the token is retaken.
     */
    public int sleep(long timeoutNanos) {
        int ms = timeoutNanos < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (timeoutNanos + 999_999L) / 1_000_000L);
        int n = PollCalls.epollWait(sc, epfd, events, MAX_EVENTS, ms);
        return Math.max(n, 0);
    }

    /** Holder: runs the sources of the {@code n} events {@link #sleep} returned. */
    public int dispatchPending(int n) {
        return n > 0 ? dispatch(n) : 0;
    }

    private int dispatch(int n) {
        return dispatch(events, n);
    }

    /** Holder: runs the sources of {@code n} events in {@code events} (this poller's, or its thread's buffer). */
    int dispatch(MemorySegment events, int n) {
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
                s.onReady(this, revents);
            }
        }
        return done;
    }

    /** Owner: the coming sleep is in epoll (wakers write the eventfd). */
    public void markSleeping() {
        sleeping = true;
    }

    /** Owner: back from the sleep. */
    public void clearSleeping() {
        sleeping = false;
    }

    /** Any thread: the owner published a sleep in this poller. */
    public boolean isSleeping() {
        return sleeping;
    }

    /** Any thread: wakes the owner's epoll_wait. */
    public void wake() {
        WAKERS_INSIDE.getAndAdd(this, 1);
        try {
            if (!closed) {
                WAKE_WRITES.getAndAdd(this, 1L);
                PollCalls.eventfdWrite(SysCallContext.current(), wakeFd, 1L);
            }
        } finally {
            WAKERS_INSIDE.getAndAdd(this, -1);
        }
    }

    public long wakeWrites() {
        return wakeWrites;
    }

    /**
     * Holder, with no thread in {@link #sleep}: closes the epoll instance and the eventfd.
     * Registrations die with the epoll fd.
     */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        while (wakersInside != 0) {
            Thread.onSpinWait();
        }
        if (thread != null) {
            thread.stop();
            FsCalls.close(sc, armEpfd);
        }
        FsCalls.close(sc, wakeFd);
        FsCalls.close(sc, epfd);
        Arrays.fill(sources, null);
        persistent = new PollSource[0];
        sc.close();
        arena.close();
    }

    public boolean isClosed() {
        return closed;
    }

    /** For tests: the epoll fd. */
    public int epollFd() {
        return epfd;
    }
}
