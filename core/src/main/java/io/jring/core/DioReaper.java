package io.jring.core;

import io.jring.poll.Poller;
import io.jring.sys.AioCalls;
import io.jring.sys.AioRing;
import io.jring.sys.NativeMemory;
import io.jring.sys.PollCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The reaping side of a ring's {@link DirectIo}: who takes the device's completions from the
 * AIO context and hands each to {@link DirectIo#complete}. Two kinds of reaping thread:
 * <ul>
 * <li>a thread using the ring reaps them itself: before it looks for CQEs or sleeps it
 *     takes what the kernel appended to the context's completion ring ({@link AioRing},
 *     read in user space, no syscall); and every iocb signals the ring's eventfd
 *     ({@code IOCB_FLAG_RESFD}), which sits in the waiter's {@link Poller}, so the device
 *     wakes a sleeping waiter directly (one wakeup per completion batch, as an interrupt
 *     that runs task work would);</li>
 * <li>the reaper thread (the "interrupt" proper) reaps only when no thread has waited on
 *     the ring or looked for its CQEs for a while ({@link #REAPER_GRACE_NANOS}), so
 *     completions still reach an owner that submitted and went away; it does not compete
 *     with an owner that is around.</li>
 * </ul>
 * Where the kernel's ring layout is not the known one, io_getevents does the reaping instead.
 * One reaping thread at a time, the reaper included, under {@link #reapGuard}.
 */
final class DioReaper implements Poller.PersistentSource {
    /** The reaper's wait for a completion (poll, or io_getevents): how soon it notices a returning waiter or close(). */
    private static final long REAP_TIMEOUT_NANOS = 1_000_000L;
    /** How long the reaper leaves completions to waiters after the last wait began. */
    private static final long REAPER_GRACE_NANOS = 1_000_000L;
    /** Idle checks with nothing in flight before the reaper parks until the next submit. */
    private static final int IDLE_CHECKS = 16;
    private static final int EVENTS = 64;

    private final DirectIo dio;
    private final long aioContext;
    /** The context's completion ring in user space; null: reap with io_getevents. Its head is moved under {@link #reapGuard}. */
    private final AioRing aioRing;
    private final int eventFd;
    /** The in-flight count (written by {@link DirectIo}'s submitter) and the reaper's idle sleep; its own contract. */
    private final ReaperIdle idle;
    /** Waiters' reap buffer and zero timeout: used only under {@link #reapGuard}. */
    private final MemorySegment waiterEvents;
    private final MemorySegment zeroTimeout;
    private final SysCallContext waiterSc = SysCallContext.shared();
    private final Thread thread;
    /**
     * close() has begun. Written once (true) by the closing thread before it unparks the
     * reaper; read volatile by the reaper's loop, by every reaping entry, by submit and by
     * the waiters' pollers ({@link #retired}): volatile so that the reaper, unparked, sees
     * it at once and a late reap backs off before the context goes away.
     */
    private volatile boolean stopping;
    /**
     * Threads now waiting on the ring with the eventfd in their poller. Written by them
     * with atomic adds ({@link #beginWait}/{@link #endWait}); read volatile by the reaper,
     * as a hint: a missed one only lets the reaper reap once while a waiter is around,
     * which is correct, just slower.
     */
    private volatile int waiters;
    /**
     * Moves whenever a thread begins a wait (atomic add) or looks for the ring's CQEs
     * ({@link #visit}, an opaque increment: racing visitors may lose one); read volatile by
     * the reaper, which only asks whether it moved during its grace period. A hint, as
     * {@link #waiters}.
     */
    private volatile long waitEpoch;
    /**
     * 1 while a thread reaps. Taken by CAS (0 to 1) by any reaping thread, freed by a release
     * store; close() takes it for good. They share the completion ring's head (or, without
     * it, one event buffer), and the release/acquire orders one reaper's head store before
     * the next one's head load.
     */
    private volatile int reapGuard;

    private static final VarHandle WAITERS;
    private static final VarHandle WAIT_EPOCH;
    private static final VarHandle REAP_GUARD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            WAITERS = l.findVarHandle(DioReaper.class, "waiters", int.class);
            WAIT_EPOCH = l.findVarHandle(DioReaper.class, "waitEpoch", long.class);
            REAP_GUARD = l.findVarHandle(DioReaper.class, "reapGuard", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code dio}'s reaping side; {@link #start} it once {@code dio} is fully built. */
    DioReaper(DirectIo dio, int ringId, long aioContext, int eventFd, ReaperIdle idle, Arena arena) {
        this.dio = dio;
        this.aioContext = aioContext;
        this.aioRing = AioRing.map(aioContext);
        this.eventFd = eventFd;
        this.idle = idle;
        this.waiterEvents = arena.allocate(EVENTS * Structs.IoEvent.SIZE, 8);
        this.zeroTimeout = arena.allocate(16, 8);
        this.thread = Thread.ofPlatform().daemon().name("jring-aio-r" + ringId).unstarted(this::reap);
    }

    /** Starts the reaper thread (its start orders every field of {@link DirectIo} before its first reap). */
    void start() {
        thread.start();
    }

    /** Any thread: close() has begun; no new I/O goes to the device. */
    boolean stopping() {
        return stopping;
    }

    /** Any thread, as a hint: requests are with the device. */
    boolean busy() {
        return idle.busy();
    }

    /** Posting right, after a batch went to the device: wakes the reaper if it sleeps for want of work. */
    void afterSubmit() {
        if (idle.wakeAfterSubmit()) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * A thread is about to wait on the ring with this eventfd in its poller: the reaper
     * leaves completions to it until {@link #endWait} and the grace period after.
     */
    void beginWait() {
        WAITERS.getAndAdd(this, 1);
        WAIT_EPOCH.getAndAdd(this, 1L);
    }

    void endWait() {
        WAITERS.getAndAdd(this, -1);
    }

    /**
     * A thread looks for this ring's completions (and reaps them itself, from the AIO ring):
     * the reaper leaves them to it for the grace period, as after {@link #beginWait}, so a
     * busy owner that rarely needs to sleep is not raced by the reaper. Opaque increment:
     * racing visitors may lose one, but the reaper only asks whether the epoch moved (see
     * {@link #waitEpoch} for the rare case where it seems not to).
     */
    void visit() {
        WAIT_EPOCH.setOpaque(this, (long) WAIT_EPOCH.getOpaque(this) + 1L);
    }

    @Override
    public int fd() {
        return eventFd;
    }

    @Override
    public boolean retired() {
        return stopping;
    }

    /** A waiter's poller saw the eventfd: reap what completed, without blocking. */
    @Override
    public void onReady(Poller poller, int revents) {
        reapNow();
    }

    /**
     * Any thread, as a hint: completions wait in the completion ring. False without a
     * user-space ring (the eventfd tells then), and once close() has begun.
     */
    boolean hasCompletions() {
        if (aioRing == null || stopping) {
            return false;
        }
        try {
            return aioRing.hasEvents();
        } catch (IllegalStateException closed) {
            return false;   // close() ended the ring's view under us
        }
    }

    /** Any thread: reaps completed events without blocking, unless another thread is at it. */
    void reapNow() {
        if (stopping || !REAP_GUARD.compareAndSet(this, 0, 1)) {
            return;
        }
        try {
            if (aioRing != null) {
                reapRing();
                return;
            }
            int n;
            do {
                n = AioCalls.ioGetevents(waiterSc, aioContext, 0, EVENTS, waiterEvents, zeroTimeout);
                for (int i = 0; i < n; i++) {
                    dio.complete((int) Structs.IoEvent.data(waiterEvents, i), (int) Structs.IoEvent.res(waiterEvents, i));
                }
            } while (n == EVENTS);
        } finally {
            REAP_GUARD.setRelease(this, 0);
        }
    }

    /** Under {@link #reapGuard}: takes every event in the completion ring, as io_getevents would. */
    private void reapRing() {
        int head = aioRing.head();
        int tail = aioRing.tail();
        while (head != tail) {
            for (; head != tail; head = aioRing.next(head)) {
                dio.complete((int) aioRing.data(head), (int) aioRing.res(head));
            }
            aioRing.consume(head);
            tail = aioRing.tail();
        }
    }

    /**
     * The reaper: while waiters are around it only watches; when none has begun a wait for
     * the grace period and requests are in flight, it reaps, with a short blocking wait for
     * the next completion.
     */
    private void reap() {
        try (SysCallContext sc = SysCallContext.confined(); Arena a = NativeMemory.confined()) {
            MemorySegment events = a.allocate(EVENTS * Structs.IoEvent.SIZE, 8);
            MemorySegment timeout = a.allocate(16, 8);
            timeout.set(JAVA_LONG, 0, 0L);
            timeout.set(JAVA_LONG, 8, REAP_TIMEOUT_NANOS);
            int idleChecks = 0;
            while (!stopping) {
                if (!busy()) {
                    if (++idleChecks >= IDLE_CHECKS) {
                        idleChecks = 0;
                        if (idle.idleNow() && !stopping) {
                            LockSupport.park(this);   // close() sets stopping, then unparks
                        }
                        idle.awake();
                    } else {
                        LockSupport.parkNanos(this, REAPER_GRACE_NANOS);
                    }
                    continue;
                }
                idleChecks = 0;
                long epoch = waitEpoch;
                if (waiters > 0) {
                    LockSupport.parkNanos(this, REAPER_GRACE_NANOS);
                    continue;
                }
                LockSupport.parkNanos(this, REAPER_GRACE_NANOS);
                if (waiters > 0 || waitEpoch != epoch || stopping) {
                    continue;
                }
                if (aioRing != null) {
                    reapWhenSignalled(sc, epoch);
                    continue;
                }
                int n = AioCalls.ioGetevents(sc, aioContext, 1, EVENTS, events, timeout);
                for (int i = 0; i < n; i++) {
                    dio.complete((int) Structs.IoEvent.data(events, i), (int) Structs.IoEvent.res(events, i));
                }
            }
        }
    }

    /**
     * The reaper, with the user-space ring: waits up to {@link #REAP_TIMEOUT_NANOS} for the
     * eventfd (io_getevents would move the ring's head outside {@link #reapGuard}), then
     * reaps unless a waiter came back meanwhile, which takes the completions itself (its
     * epoll saw the same signal). The counter is read before the ring so that a completion
     * after the reap signals again; nobody else reads it (waiters' epoll is edge-triggered).
     */
    private void reapWhenSignalled(SysCallContext sc, long epoch) {
        if (!hasCompletions()
                && PollCalls.pollOne(sc, eventFd, PollCalls.EPOLLIN, (int) (REAP_TIMEOUT_NANOS / 1_000_000L)) <= 0) {
            return;
        }
        if (waiters > 0 || waitEpoch != epoch || stopping) {
            return;
        }
        PollCalls.eventfdRead(sc, eventFd);
        reapNow();
    }

    /** close(), after every request has finished: stops the reaper and keeps every other thread from reaping. */
    void stop() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        while (!REAP_GUARD.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();
        }
    }

    /** close(), after {@link #stop} and before io_destroy unmaps the ring: a late {@link #hasCompletions} fails safely. */
    void close() {
        if (aioRing != null) {
            aioRing.close();
        }
        waiterSc.close();
    }
}
