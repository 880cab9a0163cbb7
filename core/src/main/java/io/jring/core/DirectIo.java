package io.jring.core;

import io.jring.Errno;
import io.jring.poll.Poller;
import io.jring.sys.AioCalls;
import io.jring.sys.AioRing;
import io.jring.sys.DirectFds;
import io.jring.sys.DirectFile;
import io.jring.sys.FileCalls;
import io.jring.sys.FsCalls;
import io.jring.sys.NativeMemory;
import io.jring.sys.PollCalls;
import io.jring.sys.Structs;
import io.jring.sys.SysCallContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The block-device path for O_DIRECT reads and writes (DESIGN.md section 6): Linux native
 * AIO submits the I/O without a thread per request, and completions come back two ways:
 * <ul>
 * <li>a thread using the ring reaps them itself: before it looks for CQEs or sleeps it
 *     takes what the kernel appended to the context's completion ring ({@link AioRing},
 *     read in user space, no syscall); and every iocb signals this ring's eventfd
 *     ({@code IOCB_FLAG_RESFD}), which sits in the waiter's {@link Poller}, so the device
 *     wakes a sleeping waiter directly (one wakeup per completion batch, as an interrupt
 *     that runs task work would);</li>
 * <li>the reaper thread (the "interrupt" proper) reaps only when no thread has waited on
 *     the ring or looked for its CQEs for a while ({@link #REAPER_GRACE_NANOS}), so
 *     completions still reach an owner that submitted and went away; it does not compete
 *     with an owner that is around.</li>
 * </ul>
 * Either way each request goes back to its task as completion work. Where the kernel's ring
 * layout is not the known one, io_getevents does the reaping instead.
 *
 * <p>A write that needs completion processing (an O_DSYNC/O_SYNC file, or RWF_DSYNC/RWF_SYNC)
 * is written through the file's companion descriptor without the sync flag and flushed by
 * jring after the device finished it (seed 002): on the ring's {@link DioCompletionPool}
 * by default (the kernel's workqueue punt), or in the issuer's task with caller completion.
 * The CQE follows the flush. Per slot, {@link #slotFile}, {@link #slotSync} and
 * {@link #slotFd} are written by {@link #submit} and {@link #slotSeq} by the reaping thread,
 * all plain: the slot table's release/acquire and the hand-offs to the pool or the task
 * (queue, task list) order them for the readers.
 *
 * <p>Threads: {@link #submit} runs under the ring's posting right, and so does the slot
 * release in the completion's task work, so the free-slot stack is plain. The slot table is
 * written by the submitter before {@code io_submit} (release) and read by a reaping thread
 * after it saw the event (acquire). The in-flight count and the reaper's idle sleep are
 * {@link ReaperIdle}'s (its handshake is tested by jcstress). {@link #waiters}/{@link #waitEpoch} are
 * written by waiting threads (atomic; {@link #visit} bumps the epoch with an opaque
 * increment) and read by the reaper (volatile), as hints: a missed one only lets the
 * reaper reap once while a waiter is around, which is correct, just slower. {@link #stopping}
 * is written by close(), read by everyone else. One reaping thread at a time, the reaper
 * included, guarded by {@link #reapGuard} (CAS acquires, release store frees): they share
 * the completion ring's head (or, without it, one event buffer), and the guard's
 * release/acquire orders one reaper's head store before the next one's head load.
 */
final class DirectIo implements Poller.PersistentSource {
    /** The reaper's wait for a completion (poll, or io_getevents): how soon it notices a returning waiter or close(). */
    private static final long REAP_TIMEOUT_NANOS = 1_000_000L;
    /** How long the reaper leaves completions to waiters after the last wait began. */
    private static final long REAPER_GRACE_NANOS = 1_000_000L;
    /** Idle checks with nothing in flight before the reaper parks until the next submit. */
    private static final int IDLE_CHECKS = 16;
    private static final int EVENTS = 64;
    static final byte NO_FLUSH = 0;
    static final byte DATA_FLUSH = 1;
    static final byte FULL_FLUSH = 2;

    private final RingContext ring;
    private final Arena arena = NativeMemory.shared();
    private final MemorySegment iocbs;
    /** iocb pointers queued by {@link #submit} for the next {@link #flush} (one io_submit per batch). */
    private final MemorySegment iocbPointers;
    private final int[] pendingSlots;
    private int nPending;
    /** Waiters' reap buffer and zero timeout, used under {@link #reapGuard}. */
    private final MemorySegment waiterEvents;
    private final MemorySegment zeroTimeout;
    private final SysCallContext waiterSc = SysCallContext.shared();
    private final long aioContext;
    /** The context's completion ring in user space; null: reap with io_getevents. */
    private final AioRing aioRing;
    private final int eventFd;
    /** Slot -> request in flight; see the class comment for the access modes. */
    private final Request[] slots;
    private final int[] freeSlots;
    /** Per slot: the request's O_DIRECT file (null if jring does not track it). */
    private final DirectFile[] slotFile;
    /** Per slot: the flush a write needs after the device, {@link #NO_FLUSH}, {@link #DATA_FLUSH} or {@link #FULL_FLUSH}. */
    private final byte[] slotSync;
    /** Per slot: the descriptor the write went through (and is flushed through). */
    private final int[] slotFd;
    /** Per slot: the file's completion number of the write ({@link DirectFile#completed}). */
    private final long[] slotSeq;
    /** Default-mode flushes; created by the first write that needs one (posting right), closed with the ring. */
    private DioCompletionPool pool;
    /** The thread last registered for caller completions of this ring (posting right, plain). */
    private Thread callerRegistered;
    private int nFree;
    private final ReaperIdle idle = new ReaperIdle();
    private final Thread reaper;
    private volatile boolean stopping;
    private volatile int waiters;
    private volatile long waitEpoch;
    private volatile int reapGuard;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Request[].class);
    private static final VarHandle WAITERS;
    private static final VarHandle WAIT_EPOCH;
    private static final VarHandle REAP_GUARD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            WAITERS = l.findVarHandle(DirectIo.class, "waiters", int.class);
            WAIT_EPOCH = l.findVarHandle(DirectIo.class, "waitEpoch", long.class);
            REAP_GUARD = l.findVarHandle(DirectIo.class, "reapGuard", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private DirectIo(RingContext ring, int capacity, long aioContext, int eventFd) {
        this.ring = ring;
        this.aioContext = aioContext;
        this.aioRing = AioRing.map(aioContext);
        this.eventFd = eventFd;
        this.iocbs = arena.allocate(capacity * Structs.Iocb.SIZE, 64);
        this.iocbPointers = arena.allocate(capacity * 8L, 8);
        this.pendingSlots = new int[capacity];
        this.waiterEvents = arena.allocate(EVENTS * Structs.IoEvent.SIZE, 8);
        this.zeroTimeout = arena.allocate(16, 8);
        this.slots = new Request[capacity];
        this.freeSlots = new int[capacity];
        this.slotFile = new DirectFile[capacity];
        this.slotSync = new byte[capacity];
        this.slotFd = new int[capacity];
        this.slotSeq = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            freeSlots[i] = capacity - 1 - i;
        }
        this.nFree = capacity;
        this.reaper = Thread.ofPlatform().daemon().name("jring-aio-r" + ring.id).unstarted(this::reap);
        reaper.start();
    }

    /** Sets up an AIO context, or returns null where AIO is unavailable (io-wq then does direct I/O). */
    static DirectIo start(RingContext ring, int capacity) {
        SysCallContext sc = ring.resources().inlineSys();
        int efd = PollCalls.eventfd(sc, 0, PollCalls.EFD_NONBLOCK | PollCalls.EFD_CLOEXEC);
        if (efd < 0) {
            return null;
        }
        Arena tmp = NativeMemory.shared();
        MemorySegment id = tmp.allocate(8, 8);
        int r = AioCalls.ioSetup(sc, capacity, id);
        long aio = id.get(JAVA_LONG, 0);
        tmp.close();
        if (r < 0) {
            FsCalls.close(sc, efd);
            return null;
        }
        return new DirectIo(ring, capacity, aio, efd);
    }

    /**
     * Posting right: queues one read or write for the device; {@link #flush} (at the end of
     * the submit batch or task-work run) hands the batch over with one {@code io_submit}.
     * 0 if queued (the request completes later through task work), -EAGAIN to fall back to
     * io-wq.
     */
    int submit(Request req, boolean write, long address, long length, long offset) {
        if (nFree == 0 || stopping) {
            return -Errno.EAGAIN;
        }
        int slot = freeSlots[--nFree];
        int fd = req.fd;
        int rwFlags = req.opFlags;
        byte sync = NO_FLUSH;
        DirectFile file = DirectFds.file(fd);
        if (file != null) {
            file.begin();
            if (write) {
                sync = file.syncsWrites() ? (file.fullSync() ? FULL_FLUSH : DATA_FLUSH) : NO_FLUSH;
                if ((rwFlags & (FileCalls.RWF_DSYNC | FileCalls.RWF_SYNC)) != 0) {
                    sync = (byte) Math.max(sync, (rwFlags & FileCalls.RWF_SYNC) != 0 ? FULL_FLUSH : DATA_FLUSH);
                    rwFlags &= ~(FileCalls.RWF_DSYNC | FileCalls.RWF_SYNC);
                }
                if (sync != NO_FLUSH) {
                    fd = file.writeFd(fd);
                    prepareFlush();
                }
            }
        }
        slotFile[slot] = file;
        slotSync[slot] = sync;
        slotFd[slot] = fd;
        long at = slot * Structs.Iocb.SIZE;
        // struct iocb, written in place (no slice object per I/O); layout as Structs.Iocb.
        iocbs.set(JAVA_LONG, at, slot);                                    // aio_data
        iocbs.set(JAVA_INT, at + 8, 0);                                    // aio_key
        iocbs.set(JAVA_INT, at + 12, rwFlags);                             // aio_rw_flags
        iocbs.set(JAVA_SHORT, at + 16, (short) (write ? Structs.Iocb.CMD_PWRITE : Structs.Iocb.CMD_PREAD));
        iocbs.set(JAVA_SHORT, at + 18, (short) 0);                         // aio_reqprio
        iocbs.set(JAVA_INT, at + 20, fd);
        iocbs.set(JAVA_LONG, at + 24, address);
        iocbs.set(JAVA_LONG, at + 32, length);
        iocbs.set(JAVA_LONG, at + 40, offset);
        iocbs.set(JAVA_LONG, at + 48, 0L);                                 // aio_reserved2
        iocbs.set(JAVA_INT, at + 56, Structs.Iocb.FLAG_RESFD);             // aio_flags
        iocbs.set(JAVA_INT, at + 60, eventFd);                             // aio_resfd
        iocbPointers.set(JAVA_LONG, nPending * 8L, iocbs.address() + at);
        pendingSlots[nPending++] = slot;
        req.markSideState(Request.SIDE_IO);
        req.aioSlot = slot;
        SLOTS.setRelease(slots, slot, req);
        idle.add(1);
        return 0;
    }

    /** Posting right: whoever will flush writes of this ring is ready (the pool, or this thread's registration). */
    private void prepareFlush() {
        if (!ring.callerCompletion) {
            if (pool == null) {
                pool = new DioCompletionPool(this, slots.length, ring.id);
            }
        } else if (callerRegistered != Thread.currentThread()) {
            callerRegistered = Thread.currentThread();
            CallerCompletions.register(ring);
        }
    }

    /** Posting right: true if {@link #submit} queued requests that {@link #flush} must hand over. */
    boolean hasPending() {
        return nPending > 0;
    }

    /**
     * Posting right: one {@code io_submit} for the queued batch. A request the kernel refuses
     * completes with its error, or goes to io-wq on EAGAIN; the rest are submitted again.
     */
    void flush(RequestIssuer issuer, CompletionPoster poster) {
        int done = 0;
        int total = nPending;
        SysCallContext sc = ring.resources().inlineSys();
        while (done < total) {
            MemorySegment batch = done == 0 ? iocbPointers : iocbPointers.asSlice(done * 8L);
            int r = AioCalls.ioSubmit(sc, aioContext, total - done, batch);
            if (r > 0) {
                done += r;
                continue;
            }
            Request req = unqueue(pendingSlots[done++]);
            if (r == 0 || r == -Errno.EAGAIN) {
                issuer.punt(req);
            } else {
                poster.postAndFree(req, r, 0);
            }
        }
        nPending = 0;
        if (idle.wakeAfterSubmit()) {
            LockSupport.unpark(reaper);
        }
    }

    private Request unqueue(int slot) {
        Request req = (Request) SLOTS.getAcquire(slots, slot);
        SLOTS.setRelease(slots, slot, (Request) null);
        req.aioSlot = -1;
        endIo(slot);
        freeSlot(slot);
        return req;
    }

    private void freeSlot(int slot) {
        slotFile[slot] = null;
        freeSlots[nFree++] = slot;
        idle.add(-1);
    }

    /**
     * The I/O in {@code slot} is over for its file's waiters (fsync, truncate, close): when
     * the device finished it, or for a write that needs a flush when the flush is done, as
     * Linux's inode_dio_end. Its CQE may still be on its way.
     */
    private void endIo(int slot) {
        DirectFile file = slotFile[slot];
        if (file != null) {
            file.end();
        }
    }

    /** Posting right (the completion's task work): the slot may take another request. */
    void release(Request req) {
        int slot = req.aioSlot;
        if (slot >= 0) {
            req.aioSlot = -1;
            freeSlot(slot);
        }
    }

    /**
     * A finished write's completion processing: makes it durable (a flush, unless one that
     * started after this write completed already did). A failed flush becomes the result.
     * The pool's worker or the issuer's task; blocks in fdatasync/fsync.
     */
    void flushWrite(Request req, SysCallContext sc) {
        int slot = req.aioSlot;
        DirectFile file = slotFile[slot];
        int r = file.flush(sc, slotFd[slot], slotSeq[slot], slotSync[slot] == FULL_FLUSH);
        if (r < 0) {
            req.res = r;
        }
        endIo(slot);
    }

    /** The reaping thread: a write that needs its flush completed; hands it to the pool or its task. */
    private void completeWrite(Request req, int slot, int res) {
        slotSeq[slot] = slotFile[slot].completed();
        if (ring.callerCompletion) {
            ring.completeDirectCaller(req, res);
        } else {
            req.res = res;
            pool.submit(req);
        }
    }

    /** Any thread, as a hint: requests are with the device. */
    boolean busy() {
        return idle.busy();
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
     * the class comment for the rare case where it seems not to).
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
                    complete((int) Structs.IoEvent.data(waiterEvents, i), (int) Structs.IoEvent.res(waiterEvents, i));
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
                complete((int) aioRing.data(head), (int) aioRing.res(head));
            }
            aioRing.consume(head);
            tail = aioRing.tail();
        }
    }

    private void complete(int slot, int res) {
        Request req = (Request) SLOTS.getAcquire(slots, slot);
        SLOTS.setRelease(slots, slot, (Request) null);
        if (req != null) {
            if (slotSync[slot] != NO_FLUSH && res >= 0) {
                completeWrite(req, slot, res);
            } else {
                endIo(slot);
                ring.completeDirect(req, res);
            }
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
                    complete((int) Structs.IoEvent.data(events, i), (int) Structs.IoEvent.res(events, i));
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

    /** After every request has finished: stops the reaper, destroys the AIO context, closes the eventfd. */
    void close() {
        stopping = true;
        LockSupport.unpark(reaper);
        try {
            reaper.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        while (!REAP_GUARD.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();
        }
        if (pool != null) {
            pool.close();
        }
        if (aioRing != null) {
            aioRing.close();   // before io_destroy unmaps it: a late hasCompletions() fails safely
        }
        AioCalls.ioDestroy(ring.resources().inlineSys(), aioContext);
        FsCalls.close(ring.resources().inlineSys(), eventFd);
        waiterSc.close();
        arena.close();
    }
}
