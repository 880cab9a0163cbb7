package io.jring.poll;

import io.jring.Errno;
import io.jring.sys.FsCalls;
import io.jring.sys.NativeMemory;
import io.jring.sys.PollCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;
import io.jring.tw.TaskPoller;
import io.jring.tw.TaskWorkQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread's readiness waiter (Linux's poll wait queues plus the task's sleep): one epoll
 * instance per task context ({@link EpollSet}) holding the fds its requests armed
 * ({@link ArmedFds}), and an eventfd that other threads write to wake it ({@link PollerWake}).
 * A waiting owner with armed sources blocks in epoll_wait ({@link #sleep}) instead of parking
 * (DESIGN.md section 4). Shared by the task's rings, opened and closed by {@link PollerRef}.
 *
 * <p>Threads: everything but {@link #wake()} and {@link #isSleeping()} runs in the owning
 * task, holding its run token (the owner, or a helper that borrowed it), so the parts'
 * tables are plain: successive holders are ordered by the token's volatile writes.
 * {@link #wake()} may be called from any thread at any time.
 */
public final class Poller implements TaskPoller {
    /**
     * Reported to every wait whatever its mask (Linux's IO_POLL_UNMASK: POLLERR, POLLHUP,
     * POLLNVAL, POLLRDHUP); POLLRDHUP is therefore always part of the epoll interest.
     */
    public static final int ALWAYS_REPORTED = PollCalls.EPOLLERR | PollCalls.EPOLLHUP | 0x20 | PollCalls.EPOLLRDHUP;

    /** Events taken per epoll_wait. */
    private static final int MAX_EVENTS = 128;

    private final Arena arena = NativeMemory.shared();
    private final SysCallContext sc = SysCallContext.shared();
    private final MemorySegment events;
    private final int epfd;
    /** {@link #epfd}, or with a {@link PollerThread} the epoll instance that thread waits on. */
    private final int armEpfd;
    private final PollerThread thread;
    private final EpollSet set;
    private final PollerWake waker;

    /** Sources that need the owner to sleep in epoll (armed polls, busy direct I/O); holder only. */
    private int demand;

    /** The fds armed waits are registered for; holder only. */
    private final ArmedFds armed;

    /**
     * Set by the owner (volatile) before it publishes SLEEPING for a wait in epoll, cleared
     * after; read by wakers to choose the eventfd over unpark.
     */
    private volatile boolean sleeping;

    /** This poller's key in the {@link VtSleepWatcher}, 0 before a virtual thread first slept; owner only, plain. */
    private long vtKey;
    /** The epoll fd was added to the watcher's set (later arms are MODs); owner only, plain. */
    private boolean vtAdded;
    /**
     * The watcher's one-shot registration is armed: set by the owner (volatile) before it
     * arms, cleared by the watcher thread when it fires; the owner re-arms only after that.
     */
    private volatile boolean vtArmed;
    /** The virtual thread parked in {@link #sleep}, or null: written by it, read by the watcher to unpark. */
    private volatile Thread vtSleeper;

    /** Rings using this poller ({@link PollerRef}); token holder only, plain. */
    int refs;
    /** The last ring let go while the owner slept in the poller: the owner closes it on waking ({@link PollerRef}); holder only. */
    boolean retired;

    private Poller(int epfd, int wakeFd, int armEpfd, TaskWorkQueue owner) {
        this.epfd = epfd;
        this.armEpfd = armEpfd;
        this.thread = armEpfd != epfd ? new PollerThread(this, owner, armEpfd) : null;
        this.waker = new PollerWake(wakeFd);
        this.set = new EpollSet(sc, epfd, armEpfd);
        this.armed = new ArmedFds(this, set);
        this.events = arena.allocate(MAX_EVENTS * Structs.EpollEvent.SIZE, 8);
    }

    /**
     * Which thread waits for armed fds: {@code owner} (default: the owner's wait blocks in
     * epoll) or {@code thread} (a {@link PollerThread} per poller hands readiness over as
     * task work). The two are measured against each other in docs/BENCHMARKS.md.
     */
    static final boolean THREAD_MODE = "thread".equals(System.getProperty("jring.poller", "owner"));

    /**
     * Creates the epoll instance and the wake eventfd for {@code owner}'s task context;
     * IllegalStateException with the errno if Linux refuses.
     */
    public static Poller open(TaskWorkQueue owner) {
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
                PollCalls.EPOLLIN | PollCalls.EPOLLET, EpollSet.WAKE_SLOT);
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
     * Registers a source for the poller's life, once per source (edge-triggered input, e.g.
     * an eventfd that Linux AIO signals). Sources that report {@code retired} are dropped
     * first; their fds are closed, which removed them from the epoll set.
     */
    public void ensurePersistent(PersistentSource source) {
        set.ensurePersistent(source);
    }

    /** A source registered for the poller's life. */
    public interface PersistentSource extends PollSource {
        int fd();

        /** Its fd was closed (its owner shut down): the poller may forget it. */
        boolean retired();
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
    @Override
    public boolean hasDemand() {
        return demand > 0 && thread == null;
    }

    // ---------------------------------------------------------------- waiting

    /**
     * Holder: dispatches what is ready now (epoll_wait with timeout 0). Returns the number of
     * events dispatched.
     */
    @Override
    public int pollNow() {
        int n = PollCalls.epollPoll(sc, epfd, events, MAX_EVENTS);
        return n > 0 ? set.dispatch(this, events, n) : 0;
    }

    /**
     * Owner, after publishing {@link #markSleeping()} and SLEEPING: blocks until an event,
     * a {@link #wake()}, or {@code timeoutNanos} (-1 = forever). Returns the number of events
     * ready; they are dispatched by {@link #dispatchPending} once the token is retaken.
     */
    public int sleep(long timeoutNanos) {
        if (Thread.currentThread().isVirtual()) {
            return sleepVirtual(timeoutNanos);
        }
        int ms = timeoutNanos < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (timeoutNanos + 999_999L) / 1_000_000L);
        int n = PollCalls.epollWait(sc, epfd, events, MAX_EVENTS, ms);
        return Math.max(n, 0);
    }

    /**
     * {@link #sleep} on a virtual thread: parks instead of blocking the carrier in
     * epoll_wait; the {@link VtSleepWatcher} unparks it when the epoll fd is readable. An
     * interrupt ends the sleep early (the caller's wait loop then reports it).
     */
    private int sleepVirtual(long timeoutNanos) {
        VtSleepWatcher w = VtSleepWatcher.get();
        if (vtKey == 0L) {
            vtKey = w.register(this);
        }
        Thread me = Thread.currentThread();
        long deadline = timeoutNanos < 0 ? 0L : System.nanoTime() + timeoutNanos;
        vtSleeper = me;
        try {
            for (;;) {
                int n = PollCalls.epollPoll(sc, epfd, events, MAX_EVENTS);
                if (n != 0) {
                    return Math.max(n, 0);
                }
                long left = -1L;
                if (timeoutNanos >= 0 && (left = deadline - System.nanoTime()) <= 0) {
                    return 0;
                }
                if (me.isInterrupted()) {
                    return 0;
                }
                if (!vtArmed) {
                    vtArmed = true;
                    int r = w.arm(sc, epfd, vtKey, vtAdded);
                    if (r < 0) {
                        throw new IllegalStateException("epoll_ctl(watcher) failed: " + Errno.name(-r));
                    }
                    vtAdded = true;
                    continue;   // armed: readiness from now on unparks; look once more first
                }
                VtSleepWatcher.park(this, left);
            }
        } finally {
            vtSleeper = null;
        }
    }

    /** Watcher thread: this poller's epoll fd became readable; unparks the virtual thread sleeping in it. */
    void watcherFired() {
        vtArmed = false;
        Thread t = vtSleeper;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Holder: runs the sources of the {@code n} events {@link #sleep} returned. */
    public int dispatchPending(int n) {
        return n > 0 ? set.dispatch(this, events, n) : 0;
    }

    /** Holder: runs the sources of {@code n} events in {@code events} (this poller's, or its thread's buffer). */
    int dispatch(MemorySegment events, int n) {
        return set.dispatch(this, events, n);
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
    @Override
    public boolean isSleeping() {
        return sleeping;
    }

    /** Any thread: wakes the owner's epoll_wait. */
    @Override
    public void wake() {
        waker.wake();
    }

    public long wakeWrites() {
        return waker.writes();
    }

    /**
     * Holder, with no thread in {@link #sleep}: closes the epoll instance and the eventfd.
     * Registrations die with the epoll fd.
     */
    public void close() {
        if (waker.isClosed()) {
            return;
        }
        waker.close();
        if (vtKey != 0L) {
            VtSleepWatcher.get().unregister(vtKey);
        }
        if (thread != null) {
            thread.stop();
            FsCalls.close(sc, armEpfd);
        }
        waker.closeFd(sc);
        FsCalls.close(sc, epfd);
        set.clear();
        sc.close();
        arena.close();
    }

    @Override
    public boolean isClosed() {
        return waker.isClosed();
    }
}
