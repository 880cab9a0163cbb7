package io.jring.core;

import io.jring.Errno;
import io.jring.sys.AioCalls;
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
 * AIO submits the I/O without a thread per request, and a reaper thread (the "interrupt")
 * collects completions with {@code io_getevents} and hands each request back to its task as
 * completion work, many per wakeup. Started by a ring on its first direct I/O.
 *
 * <p>Threads: {@link #submit} runs under the ring's posting right, and so does the slot
 * release in the completion's task work, so the free-slot stack is plain. The slot table is
 * written by the submitter before {@code io_submit} (release) and read by the reaper after
 * {@code io_getevents} (acquire). {@link #stopping} is written by close(), read by the reaper.
 */
final class DirectIo {
    /** io_getevents timeout: how soon the reaper notices close() while nothing completes. */
    private static final long REAP_TIMEOUT_NANOS = 100_000_000L;
    private static final int EVENTS = 64;

    private final RingContext ring;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment iocbs;
    private final MemorySegment iocbPointer;
    private final long aioContext;
    /** Slot -> request in flight; see the class comment for the access modes. */
    private final Request[] slots;
    private final int[] freeSlots;
    private int nFree;
    private final Thread reaper;
    private volatile boolean stopping;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Request[].class);

    private DirectIo(RingContext ring, int capacity, long aioContext) {
        this.ring = ring;
        this.aioContext = aioContext;
        this.iocbs = arena.allocate(capacity * Structs.Iocb.SIZE, 64);
        this.iocbPointer = arena.allocate(8, 8);
        this.slots = new Request[capacity];
        this.freeSlots = new int[capacity];
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
        Arena tmp = Arena.ofShared();
        MemorySegment id = tmp.allocate(8, 8);
        int r = AioCalls.ioSetup(sc, capacity, id);
        long aio = id.get(JAVA_LONG, 0);
        tmp.close();
        if (r < 0) {
            return null;
        }
        return new DirectIo(ring, capacity, aio);
    }

    /**
     * Posting right: submits one read or write. 0 if the device has it (the request completes
     * later through task work), -EAGAIN to fall back to io-wq, or -errno to fail the request.
     */
    int submit(Request req, boolean write, long address, long length, long offset) {
        if (nFree == 0 || stopping) {
            return -Errno.EAGAIN;
        }
        int slot = freeSlots[--nFree];
        long at = slot * Structs.Iocb.SIZE;
        // struct iocb, written in place (no slice object per I/O); layout as Structs.Iocb.
        iocbs.set(JAVA_LONG, at, slot);                                    // aio_data
        iocbs.set(JAVA_INT, at + 8, 0);                                    // aio_key
        iocbs.set(JAVA_INT, at + 12, req.opFlags);                         // aio_rw_flags
        iocbs.set(JAVA_SHORT, at + 16, (short) (write ? Structs.Iocb.CMD_PWRITE : Structs.Iocb.CMD_PREAD));
        iocbs.set(JAVA_SHORT, at + 18, (short) 0);                         // aio_reqprio
        iocbs.set(JAVA_INT, at + 20, req.fd);
        iocbs.set(JAVA_LONG, at + 24, address);
        iocbs.set(JAVA_LONG, at + 32, length);
        iocbs.set(JAVA_LONG, at + 40, offset);
        iocbs.set(JAVA_LONG, at + 48, 0L);                                 // aio_reserved2
        iocbs.set(JAVA_INT, at + 56, 0);                                   // aio_flags
        iocbs.set(JAVA_INT, at + 60, 0);                                   // aio_resfd
        iocbPointer.set(JAVA_LONG, 0, iocbs.address() + at);
        req.aioSlot = slot;
        SLOTS.setRelease(slots, slot, req);
        int r = AioCalls.ioSubmit(ring.resources().inlineSys(), aioContext, 1, iocbPointer);
        if (r == 1) {
            return 0;
        }
        SLOTS.setRelease(slots, slot, (Request) null);
        req.aioSlot = -1;
        freeSlots[nFree++] = slot;
        return r == 0 ? -Errno.EAGAIN : r;
    }

    /** Posting right (the completion's task work): the slot may take another request. */
    void release(Request req) {
        int slot = req.aioSlot;
        if (slot >= 0) {
            req.aioSlot = -1;
            freeSlots[nFree++] = slot;
        }
    }

    private void reap() {
        try (SysCallContext sc = SysCallContext.confined(); Arena a = Arena.ofConfined()) {
            MemorySegment events = a.allocate(EVENTS * Structs.IoEvent.SIZE, 8);
            MemorySegment timeout = a.allocate(16, 8);
            timeout.set(JAVA_LONG, 0, 0L);
            timeout.set(JAVA_LONG, 8, REAP_TIMEOUT_NANOS);
            while (!stopping) {
                int n = AioCalls.ioGetevents(sc, aioContext, 1, EVENTS, events, timeout);
                if (n < 0 && n != -Errno.EINTR) {
                    if (stopping) {
                        return;
                    }
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    int slot = (int) Structs.IoEvent.data(events, i);
                    Request req = (Request) SLOTS.getAcquire(slots, slot);
                    SLOTS.setRelease(slots, slot, (Request) null);
                    if (req != null) {
                        long res = Structs.IoEvent.res(events, i);
                        ring.completeDirect(req, (int) res);
                    }
                }
            }
        }
    }

    /** After every request has finished: stops the reaper and destroys the AIO context. */
    void close() {
        stopping = true;
        try {
            reaper.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        AioCalls.ioDestroy(ring.resources().inlineSys(), aioContext);
        arena.close();
    }
}
