package io.jring.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the engine gets its native memory: arenas that count what they hand out, so tests
 * can check that closing rings gives it all back (NMT does not see FFM's arenas as
 * separate from the JDK's own allocations). Every arena the engine keeps beyond one call
 * (syscall contexts, pollers, the DIO path, large iovec arrays) comes from here. Counting
 * costs an atomic add per allocation and per close, off the hot paths (allocations happen
 * when a ring, poller or thread context is set up).
 *
 * <p>Automatic arenas (per-thread syscall contexts) are freed by the GC once unreachable;
 * their bytes are subtracted when a phantom reference to their scope is enqueued, which
 * {@link #liveBytes} polls for, so no thread is needed.
 */
public final class NativeMemory {
    private NativeMemory() {}

    /** Bytes allocated through these arenas and not yet freed. Any thread, atomically. */
    private static final AtomicLong LIVE_BYTES = new AtomicLong();
    /** Arenas created here and not yet closed or collected. Any thread, atomically. */
    private static final AtomicLong LIVE_ARENAS = new AtomicLong();

    private static final ReferenceQueue<Object> COLLECTED = new ReferenceQueue<>();
    /** Keeps the phantom references of live automatic arenas reachable until they are enqueued. */
    private static final Set<AutoArena> AUTO = ConcurrentHashMap.newKeySet();

    /** A counted {@link Arena#ofShared()}. */
    public static Arena shared() {
        return new Counted(Arena.ofShared());
    }

    /** A counted {@link Arena#ofConfined()}. */
    public static Arena confined() {
        return new Counted(Arena.ofConfined());
    }

    /** {@code bytes} from a counted automatic arena, freed by the GC with the segment. */
    public static MemorySegment allocateAuto(long bytes, long alignment) {
        Arena arena = Arena.ofAuto();
        MemorySegment seg = arena.allocate(bytes, alignment);
        AUTO.add(new AutoArena(seg.scope(), bytes));
        LIVE_BYTES.addAndGet(bytes);
        LIVE_ARENAS.incrementAndGet();
        return seg;
    }

    /** Bytes the engine holds now (after accounting for automatic arenas the GC has freed). */
    public static long liveBytes() {
        expunge();
        return LIVE_BYTES.get();
    }

    /** Arenas the engine holds now. */
    public static long liveArenas() {
        expunge();
        return LIVE_ARENAS.get();
    }

    private static void expunge() {
        for (Reference<?> r; (r = COLLECTED.poll()) != null; ) {
            AutoArena a = (AutoArena) r;
            if (AUTO.remove(a)) {
                LIVE_BYTES.addAndGet(-a.bytes);
                LIVE_ARENAS.decrementAndGet();
            }
        }
    }

    private static final class AutoArena extends PhantomReference<Object> {
        final long bytes;

        AutoArena(Object scope, long bytes) {
            super(scope, COLLECTED);
            this.bytes = bytes;
        }
    }

    /** An arena that counts its allocations into the totals above and takes them back on close. */
    private static final class Counted implements Arena {
        private final Arena delegate;
        /** Bytes allocated from this arena; updated atomically (a shared arena may allocate on any thread). */
        private final AtomicLong bytes = new AtomicLong();

        Counted(Arena delegate) {
            this.delegate = delegate;
            LIVE_ARENAS.incrementAndGet();
        }

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            MemorySegment seg = delegate.allocate(byteSize, byteAlignment);
            bytes.addAndGet(byteSize);
            LIVE_BYTES.addAndGet(byteSize);
            return seg;
        }

        @Override
        public MemorySegment.Scope scope() {
            return delegate.scope();
        }

        @Override
        public void close() {
            delegate.close();   // throws if already closed or in use: then nothing was freed
            LIVE_BYTES.addAndGet(-bytes.getAndSet(0));
            LIVE_ARENAS.decrementAndGet();
        }
    }
}
