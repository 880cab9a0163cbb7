package io.jring.core;

import io.jring.Errno;
import io.jring.sys.AioCalls;
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

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The block-device path for O_DIRECT reads and writes (DESIGN.md section 6): Linux native
 * AIO submits the I/O without a thread per request; the {@link DioReaper} (a waiting or
 * visiting thread, or the reaper thread) takes the device's completions and each request
 * goes back to its task as completion work ({@link #complete}), whose task work frees the
 * slot and posts the CQE, as Linux's io_complete_rw and io_req_rw_complete. A ring starts
 * one on first use ({@link DirectRw}).
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
 * after it saw the event (acquire); the reaper's guard lets one reaping thread at a time in.
 * The in-flight count and the reaper's idle sleep are {@link ReaperIdle}'s (its handshake is
 * tested by jcstress).
 */
final class DirectIo {
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
    private final long aioContext;
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
    /** The reaping side; started last in the constructor, after every field here is set. */
    final DioReaper reaper;

    /**
     * A device completion's task work (Linux's io_req_rw_complete): frees the AIO slot, then
     * posts as {@link CompletionPoster#COMPLETE} does. One per context, made once.
     */
    private final TaskWorkFunc deviceComplete;
    /** Caller completion: the write's flush runs here, in its issuer's task, then its CQE. */
    private final TaskWorkFunc flushComplete;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Request[].class);

    private DirectIo(RingContext ring, int capacity, long aioContext, int eventFd) {
        this.ring = ring;
        this.deviceComplete = (req, cancel) -> releaseAndPost(req);
        this.flushComplete = (req, cancel) -> {
            flushWrite(req, ring.resources().inlineSys());
            releaseAndPost(req);
        };
        this.aioContext = aioContext;
        this.eventFd = eventFd;
        this.iocbs = arena.allocate(capacity * Structs.Iocb.SIZE, 64);
        this.iocbPointers = arena.allocate(capacity * 8L, 8);
        this.pendingSlots = new int[capacity];
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
        this.reaper = new DioReaper(this, ring.id, aioContext, eventFd, idle, arena);
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
        if (nFree == 0 || reaper.stopping()) {
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
    void flush() {
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
                ring.issuer.punt(req);
            } else {
                ring.poster.postAndFree(req, r, 0);
            }
        }
        nPending = 0;
        reaper.afterSubmit();
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

    /**
     * Posting right (the completion's task work): the slot takes another request, and the
     * CQE goes out (as {@link CompletionPoster#COMPLETE}: -ECANCELED once the ring is closing).
     */
    private void releaseAndPost(Request req) {
        int slot = req.aioSlot;
        if (slot >= 0) {
            req.aioSlot = -1;
            freeSlot(slot);
        }
        if (req.res >= 0 && req.res < req.len) {
            req.markSideState(Request.SIDE_IO);
            req.failed = true;   // a short direct read or write breaks a link
        }
        ring.poster.postAndFree(req, ring.isClosing() ? -Errno.ECANCELED : req.res, req.cflags);
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

    /**
     * The reaping thread, with the slot's event: the device finished the request. It goes
     * back to its task as lazy completion work, or, for a write that needs a flush, to
     * whoever flushes it first.
     */
    void complete(int slot, int res) {
        Request req = (Request) SLOTS.getAcquire(slots, slot);
        SLOTS.setRelease(slots, slot, (Request) null);
        if (req != null) {
            if (slotSync[slot] != NO_FLUSH && res >= 0) {
                completeWrite(req, slot, res);
            } else {
                endIo(slot);
                ring.issuer.completeInTask(req, res, 0, deviceComplete, true, true);
            }
        }
    }

    /** The pool's worker: the write is flushed; it goes to its task as lazy completion work. */
    void completeFlushed(Request req) {
        ring.issuer.completeInTask(req, req.res, 0, deviceComplete, true, true);
    }

    /**
     * The reaping thread: a write that needs its flush completed; hands it to the pool, or
     * with caller completion back to its task to be flushed there. Not a lazy add then: until
     * the flush runs the write is in flight for its file, and a thread waiting for that
     * (FSYNC in io-wq) must not wait on the owner's countdown.
     */
    private void completeWrite(Request req, int slot, int res) {
        slotSeq[slot] = slotFile[slot].completed();
        if (ring.callerCompletion) {
            ring.issuer.completeInTask(req, res, 0, flushComplete, true, false);
        } else {
            req.res = res;
            pool.submit(req);
        }
    }

    /** After every request has finished: stops the reaper, destroys the AIO context, closes the eventfd. */
    void close() {
        reaper.stop();
        if (pool != null) {
            pool.close();
        }
        reaper.close();   // before io_destroy unmaps the completion ring
        AioCalls.ioDestroy(ring.resources().inlineSys(), aioContext);
        FsCalls.close(ring.resources().inlineSys(), eventFd);
        arena.close();
    }

    /** Any thread: I/Os submitted and not yet reaped. */
    int inFlight() {
        return idle.inFlight();
    }
}
