package io.jring.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The completion ring of a native AIO context, read in user space: the context id that
 * io_setup returns is the address of the kernel's {@code struct aio_ring} (fs/aio.c), mapped
 * into the process, so completions can be taken without io_getevents, as libaio's and fio's
 * user-space reap do. Layout: {@code unsigned id, nr, head, tail, magic, compat_features,
 * incompat_features, header_length} (32 bytes), then {@code nr} {@link Structs.IoEvent}s.
 * The kernel appends at {@code tail} (the event is stored before the tail, smp_wmb) and
 * reads {@code head} to know which slots it may reuse.
 *
 * <p>One consumer at a time, and never alongside io_getevents on the same context (it
 * moves {@code head} too); the caller serialises them. {@link #close()} ends this view
 * before io_destroy unmaps the ring: the view's shared arena makes a late access fail
 * with IllegalStateException instead of touching unmapped memory.
 */
public final class AioRing {
    private static final int AIO_RING_MAGIC = 0xa10a10a1;
    private static final long NR = 4;
    private static final long HEAD = 8;
    private static final long TAIL = 12;
    private static final long MAGIC = 16;
    private static final long INCOMPAT_FEATURES = 24;
    private static final long HEADER_LENGTH = 28;
    private static final int HEADER_SIZE = 32;

    private static final VarHandle INT = JAVA_INT.varHandle();

    private final Arena view = Arena.ofShared();
    private final MemorySegment ring;
    private final int nr;

    private AioRing(long aioContext, int nr) {
        this.nr = nr;
        this.ring = MemorySegment.ofAddress(aioContext)
                .reinterpret(HEADER_SIZE + nr * Structs.IoEvent.SIZE, view, null);
    }

    /** The ring of {@code aioContext}, or null if its header is not the layout described above. */
    public static AioRing map(long aioContext) {
        if (aioContext == 0L) {
            return null;
        }
        MemorySegment header = MemorySegment.ofAddress(aioContext).reinterpret(HEADER_SIZE);
        int nr = header.get(JAVA_INT, NR);
        if (header.get(JAVA_INT, MAGIC) != AIO_RING_MAGIC || header.get(JAVA_INT, INCOMPAT_FEATURES) != 0
                || header.get(JAVA_INT, HEADER_LENGTH) != HEADER_SIZE || nr <= 0) {
            return null;
        }
        return new AioRing(aioContext, nr);
    }

    /**
     * Any thread, as a hint: the kernel has appended events the consumer has not taken.
     * Opaque reads: a stale answer only costs a wait that the eventfd ends, or a reap that
     * finds nothing.
     */
    public boolean hasEvents() {
        return (int) INT.getOpaque(ring, HEAD) != (int) INT.getOpaque(ring, TAIL);
    }

    /** Consumer: the first event not yet taken (only the consumer writes head). */
    public int head() {
        return (int) INT.get(ring, HEAD);
    }

    /** Consumer: one past the last event; acquire, pairing with the kernel's write barrier before its tail store. */
    public int tail() {
        return (int) INT.getAcquire(ring, TAIL);
    }

    /** The index after {@code index}, wrapping at the ring size. */
    public int next(int index) {
        return index + 1 == nr ? 0 : index + 1;
    }

    public long data(int index) {
        return ring.get(JAVA_LONG, HEADER_SIZE + index * Structs.IoEvent.SIZE);
    }

    public long res(int index) {
        return ring.get(JAVA_LONG, HEADER_SIZE + index * Structs.IoEvent.SIZE + 16);
    }

    /**
     * Consumer: events before {@code head} are taken. Release: the reads of those events
     * happen before the kernel may see their slots free and write new events there.
     */
    public void consume(int head) {
        INT.setRelease(ring, HEAD, head);
    }

    /** Ends this view (waits out any access in progress); call before io_destroy. */
    public void close() {
        view.close();
    }
}
