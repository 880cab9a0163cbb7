package io.jring.poll;

import io.jring.Errno;
import io.jring.sys.NativeMemory;
import io.jring.sys.PollCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The blocking epoll wait of virtual threads, done on their behalf (issue 22): a virtual
 * thread whose ring wait must watch its {@link Poller} (armed polls, direct I/O in flight)
 * must not block in epoll_wait, which would hold its carrier. Instead its poller's epoll fd
 * is registered one-shot in this watcher's epoll instance (an epoll fd is readable when it
 * has events), the virtual thread parks, and the watcher's one platform thread
 * ({@code jring-vt-watch-0}) unparks it when the fd becomes readable. Wakers need nothing
 * new: the poller's wake eventfd makes its epoll fd readable like any armed fd.
 *
 * <p>One thread serves every virtual thread: it only maps readiness to an unpark, so the
 * carriers plus this thread are all the platform threads virtual-thread waits need.
 */
final class VtSleepWatcher {
    private static final int MAX_EVENTS = 256;

    /** Created on first use by a virtual thread; the holder class idiom publishes it safely. */
    private static final class Holder {
        static final VtSleepWatcher INSTANCE = new VtSleepWatcher();
    }

    private final int epfd;
    /** Pollers by their registration key: put by their owner before it parks, removed on close; read by the watcher. */
    private final ConcurrentHashMap<Long, Poller> pollers = new ConcurrentHashMap<>();
    private final AtomicLong keys = new AtomicLong();

    private VtSleepWatcher() {
        SysCallContext sc = SysCallContext.current();
        int ep = PollCalls.epollCreate(sc, PollCalls.EPOLL_CLOEXEC);
        if (ep < 0) {
            throw new IllegalStateException("epoll_create1 failed: " + Errno.name(-ep));
        }
        epfd = ep;
        Thread.ofPlatform().daemon().name("jring-vt-watch-0").start(this::run);
    }

    static VtSleepWatcher get() {
        return Holder.INSTANCE;
    }

    /** A new key for a poller's epoll fd in this watcher. */
    long register(Poller p) {
        long key = keys.incrementAndGet();
        pollers.put(key, p);
        return key;
    }

    /** The poller of {@code key} is closing: readiness reported for it from now on is ignored. */
    void unregister(long key) {
        pollers.remove(key);
    }

    /**
     * Arms (first time: adds) the poller's epoll fd {@code pollerEpfd}, one-shot, under
     * {@code key}: the watcher unparks the poller's sleeper once the fd is readable (at once
     * if it already is). 0 or -errno.
     */
    int arm(SysCallContext sc, int pollerEpfd, long key, boolean added) {
        int ev = PollCalls.EPOLLIN | PollCalls.EPOLLONESHOT;
        return PollCalls.epollCtl(sc, epfd, added ? PollCalls.EPOLL_CTL_MOD : PollCalls.EPOLL_CTL_ADD,
                pollerEpfd, ev, key);
    }

    private void run() {
        Arena arena = NativeMemory.shared();
        MemorySegment events = arena.allocate(MAX_EVENTS * Structs.EpollEvent.SIZE, 8);
        try (SysCallContext sc = SysCallContext.confined()) {
            for (;;) {
                int n = PollCalls.epollWait(sc, epfd, events, MAX_EVENTS, -1);
                for (int i = 0; i < n; i++) {
                    Poller p = pollers.get(Structs.EpollEvent.data(events, i));
                    if (p != null) {
                        p.watcherFired();
                    }
                }
            }
        }
    }

    /** Parks the calling virtual thread for at most {@code nanos} (-1: no limit). */
    static void park(Object blocker, long nanos) {
        if (nanos < 0) {
            LockSupport.park(blocker);
        } else {
            LockSupport.parkNanos(blocker, nanos);
        }
    }
}
