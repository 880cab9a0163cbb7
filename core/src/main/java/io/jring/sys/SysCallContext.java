package io.jring.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The native scratch memory one thread needs to make syscalls without allocating: the errno
 * capture segment every handle takes first, an iovec array, a sockaddr, and small buffers.
 * All of it is one block from one arena, sliced once at construction.
 *
 * <p>One thread uses a context at a time; nothing here is synchronised. A {@link #confined()}
 * context may only be used by the thread that created it (a call from another thread fails
 * with {@code -EFAULT}); a {@link #shared()} one may be created by one thread and handed to
 * another (e.g. a ring creating one for its io-wq worker). Close it explicitly when the
 * owner is done; {@link #current()} is the exception, for code off the hot path.
 */
public final class SysCallContext implements AutoCloseable {
    /** Entries in {@link #iovecs()}; larger vectors need the caller's own array. */
    public static final int IOVEC_CAPACITY = 64;
    /** Entries in {@link #epollEvents()}. */
    public static final int EPOLL_EVENTS_CAPACITY = 64;
    /** Bytes in {@link #path()}, Linux's PATH_MAX including the NUL. */
    public static final int PATH_CAPACITY = 4096;

    /** The capture state (just errno on Linux, 4 bytes), rounded up to keep what follows 16-aligned. */
    private static final long CAPTURE_SIZE = (Libc.CAPTURE_LAYOUT.byteSize() + 15) & ~15L;
    private static final long SCRATCH_SIZE = 16;
    private static final long STAT_SIZE = Structs.Statx.SIZE;   // the larger of stat and statx
    private static final long IOVECS_SIZE = IOVEC_CAPACITY * Structs.Iovec.SIZE;
    private static final long EVENTS_SIZE = EPOLL_EVENTS_CAPACITY * 16L;   // 16 >= epoll_event on any arch

    private static final ThreadLocal<SysCallContext> CURRENT =
            ThreadLocal.withInitial(() -> new SysCallContext(null));

    /** Null for {@link #current()}: its auto arena is freed by the GC after its thread dies. */
    private final Arena closeableArena;
    private final MemorySegment capture;
    private final MemorySegment scratch;
    private final MemorySegment sockaddrLen;
    private final MemorySegment singleIovec;
    private final MemorySegment sockaddr;
    private final MemorySegment stat;
    private final MemorySegment iovecs;
    private final MemorySegment epollEvents;
    private final MemorySegment path;

    private static final long BLOCK_SIZE = CAPTURE_SIZE + SCRATCH_SIZE + 8 + Structs.Iovec.SIZE
            + SockAddrs.STORAGE_SIZE + STAT_SIZE + IOVECS_SIZE + EVENTS_SIZE + PATH_CAPACITY;

    /** {@code arena} null: an automatic block ({@link #current()}), freed by the GC. */
    private SysCallContext(Arena arena) {
        this.closeableArena = arena;
        MemorySegment block = arena != null ? arena.allocate(BLOCK_SIZE, 16) : NativeMemory.allocateAuto(BLOCK_SIZE, 16);
        long at = 0;
        capture = block.asSlice(at, Libc.CAPTURE_LAYOUT.byteSize()); at += CAPTURE_SIZE;
        scratch = block.asSlice(at, SCRATCH_SIZE); at += SCRATCH_SIZE;
        sockaddrLen = block.asSlice(at, 4); at += 8;
        singleIovec = block.asSlice(at, Structs.Iovec.SIZE); at += Structs.Iovec.SIZE;
        sockaddr = block.asSlice(at, SockAddrs.STORAGE_SIZE); at += SockAddrs.STORAGE_SIZE;
        stat = block.asSlice(at, STAT_SIZE); at += STAT_SIZE;
        iovecs = block.asSlice(at, IOVECS_SIZE); at += IOVECS_SIZE;
        epollEvents = block.asSlice(at, EVENTS_SIZE); at += EVENTS_SIZE;
        path = block.asSlice(at, PATH_CAPACITY);
    }

    /** A context only the calling thread may use (fastest scope checks). */
    public static SysCallContext confined() {
        return new SysCallContext(NativeMemory.confined());
    }

    /** A context that may be created here and used by one other thread at a time. */
    public static SysCallContext shared() {
        return new SysCallContext(NativeMemory.shared());
    }

    /**
     * This thread's own context, created on first use and never closed ({@link #close()} is
     * a no-op). For setup code, helpers and tests; hot paths hold their context in a field.
     */
    public static SysCallContext current() {
        return CURRENT.get();
    }

    /** Passed as the first argument of every handle in this package. */
    public MemorySegment capture() {
        return capture;
    }

    /** The errno captured by the last call through this context (positive). */
    public int lastErrno() {
        return capture.get(JAVA_INT, Libc.ERRNO_OFFSET);
    }

    /** {@code IOVEC_CAPACITY} iovecs, filled with {@link Structs.Iovec#set}. */
    public MemorySegment iovecs() {
        return iovecs;
    }

    /** One iovec, used by the single-buffer wrappers (so {@link #iovecs()} is not clobbered). */
    public MemorySegment singleIovec() {
        return singleIovec;
    }

    /** A {@code sockaddr_storage} for encoding an address or receiving one. */
    public MemorySegment sockaddr() {
        return sockaddr;
    }

    /** A {@code socklen_t} for calls that return an address length. */
    public MemorySegment sockaddrLen() {
        return sockaddrLen;
    }

    /** Room for a {@code struct stat} or {@code struct statx}. */
    public MemorySegment stat() {
        return stat;
    }

    /** {@code EPOLL_EVENTS_CAPACITY} epoll_events (see {@link Structs.EpollEvent}). */
    public MemorySegment epollEvents() {
        return epollEvents;
    }

    /** A path buffer of {@code PATH_CAPACITY} bytes for a NUL-terminated file name. */
    public MemorySegment path() {
        return path;
    }

    /** 16 bytes for small in/out values: an int pair, an eventfd counter, an option value. */
    public MemorySegment scratch() {
        return scratch;
    }

    /** The {@code socklen_t} in {@link #sockaddrLen()}, as the last call left it. */
    public int sockaddrLength() {
        return sockaddrLen.get(JAVA_INT, 0);
    }

    /** Int {@code index} (0..3) of {@link #scratch()}, e.g. the two fds from pipe2. */
    public int scratchInt(int index) {
        return scratch.get(JAVA_INT, index * 4L);
    }

    /** Frees the memory; later calls through this context return {@code -EFAULT}. Idempotent. */
    @Override
    public void close() {
        if (closeableArena != null && capture.scope().isAlive()) {
            closeableArena.close();
        }
    }
}
