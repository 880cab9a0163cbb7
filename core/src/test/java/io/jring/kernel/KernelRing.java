package io.jring.kernel;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.jring.Errno;
import io.jring.IoUringException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The kernel's own io_uring, driven through FFM with raw system calls (test-only; no liburing
 * needed): {@code io_uring_setup}, the three mmaps, {@code io_uring_enter} and
 * {@code io_uring_register}. It mirrors the part of {@link io.jring.IoUring}'s API the
 * conformance scenarios use, with liburing's semantics: {@link #submit} hands the kernel
 * every SQE in the SQ ring, {@link #peekCqe} enters the kernel to run deferred task work and
 * flush the overflow list when the CQ looks empty, and {@link #waitCqe(Duration)} waits with
 * {@code IORING_ENTER_EXT_ARG}.
 *
 * <p>One thread at a time (like a liburing ring): plain fields for the local SQ/CQ state;
 * the shared ring indexes use acquire loads and release stores as liburing does.
 */
public final class KernelRing implements AutoCloseable {
    // io_uring_setup flags and features (include/uapi/linux/io_uring.h)
    static final int SETUP_CQSIZE = 1 << 3;
    static final int SETUP_ATTACH_WQ = 1 << 5;
    static final int FEAT_SINGLE_MMAP = 1;
    static final int FEAT_EXT_ARG = 1 << 8;
    // io_uring_enter flags
    static final int ENTER_GETEVENTS = 1;
    static final int ENTER_EXT_ARG = 1 << 3;
    // mmap offsets
    static final long OFF_SQ_RING = 0;
    static final long OFF_CQ_RING = 0x8000000L;
    static final long OFF_SQES = 0x10000000L;
    // io_uring_register opcodes
    static final int REGISTER_BUFFERS = 0;
    static final int UNREGISTER_BUFFERS = 1;
    static final int REGISTER_FILES = 2;
    static final int UNREGISTER_FILES = 3;
    static final int REGISTER_FILES_UPDATE = 6;
    static final int REGISTER_IOWQ_MAX_WORKERS = 19;

    private static final VarHandle U32 = JAVA_INT.varHandle();

    /** Kernel-owned memory of this ring plus scratch (timespecs, iovecs, wait argument). */
    private final Arena arena = Arena.ofShared();
    private final int ringFd;
    private final int features;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final MemorySegment timespecs;
    private final MemorySegment waitArg;
    private final MemorySegment waitTs;
    private final int sqEntries;
    private final int cqEntries;
    private final int sqMask;
    private final int cqMask;
    private final long sqHeadOff;
    private final long sqTailOff;
    private final long cqHeadOff;
    private final long cqTailOff;
    private final long cqesOff;
    /** Local tail of prepared SQEs (not yet published to the kernel). */
    private int sqeTail;
    private boolean closed;

    private KernelRing(int entries, int cqEntriesWanted, int setupFlags, KernelRing attachTo) {
        MemorySegment p = arena.allocate(120, 8);
        int flags = setupFlags;
        if (cqEntriesWanted > 0) {
            flags |= SETUP_CQSIZE;
            p.set(JAVA_INT, 4, cqEntriesWanted);
        }
        if (attachTo != null) {
            flags |= SETUP_ATTACH_WQ;
            p.set(JAVA_INT, 24, attachTo.ringFd);
        }
        p.set(JAVA_INT, 8, flags);
        int fd = KernelCalls.ioUringSetup(entries, p);
        if (fd < 0) {
            arena.close();
            throw new IoUringException(-fd, "io_uring_setup(" + entries + ", flags 0x"
                    + Integer.toHexString(flags) + ") failed: " + Errno.name(fd));
        }
        ringFd = fd;
        sqEntries = p.get(JAVA_INT, 0);
        cqEntries = p.get(JAVA_INT, 4);
        features = p.get(JAVA_INT, 20);
        sqHeadOff = p.get(JAVA_INT, 40);
        sqTailOff = p.get(JAVA_INT, 44);
        long sqArrayOff = p.get(JAVA_INT, 64);
        cqHeadOff = p.get(JAVA_INT, 80);
        cqTailOff = p.get(JAVA_INT, 84);
        cqesOff = p.get(JAVA_INT, 100);
        long sqSize = sqArrayOff + 4L * sqEntries;
        long cqSize = cqesOff + 16L * cqEntries;
        int[] errno = new int[1];
        if ((features & FEAT_SINGLE_MMAP) != 0) {
            MemorySegment both = map(Math.max(sqSize, cqSize), OFF_SQ_RING, errno);
            sqRing = both;
            cqRing = both;
        } else {
            sqRing = map(sqSize, OFF_SQ_RING, errno);
            cqRing = map(cqSize, OFF_CQ_RING, errno);
        }
        sqes = map(64L * sqEntries, OFF_SQES, errno);
        sqMask = sqRing.get(JAVA_INT, p.get(JAVA_INT, 48));
        cqMask = cqRing.get(JAVA_INT, p.get(JAVA_INT, 88));
        // SQ index array as the identity: slot i of the SQE array is ring entry i.
        for (int i = 0; i < sqEntries; i++) {
            sqRing.set(JAVA_INT, sqArrayOff + 4L * i, i);
        }
        sqeTail = (int) U32.getAcquire(sqRing, sqTailOff);
        timespecs = arena.allocate(16L * sqEntries, 8);
        waitArg = arena.allocate(24, 8);
        waitTs = arena.allocate(16, 8);
    }

    private MemorySegment map(long size, long offset, int[] errno) {
        MemorySegment m = KernelCalls.mmap(ringFd, size, offset, errno);
        if (m == null) {
            KernelCalls.close(ringFd);
            arena.close();
            throw new IoUringException(errno[0], "mmap of the io_uring at 0x" + Long.toHexString(offset) + " failed");
        }
        return m;
    }

    /** A kernel ring of {@code entries} SQEs and the kernel's default CQ size, with setup flags. */
    public static KernelRing open(int entries, int setupFlags) {
        return new KernelRing(entries, 0, setupFlags, null);
    }

    /** A kernel ring with an explicit CQ size ({@code IORING_SETUP_CQSIZE}) when {@code cqEntries > 0}. */
    public static KernelRing open(int entries, int cqEntries, int setupFlags) {
        return new KernelRing(entries, cqEntries, setupFlags, null);
    }

    /** A kernel ring sharing {@code other}'s io-wq ({@code IORING_SETUP_ATTACH_WQ}). */
    public static KernelRing open(int entries, int cqEntries, int setupFlags, KernelRing other) {
        return new KernelRing(entries, cqEntries, setupFlags, other);
    }

    /**
     * Why the kernel's io_uring cannot be used here, or empty when it can:
     * {@code kernel.io_uring_disabled} set, or io_uring_setup failing (ENOSYS when the kernel
     * lacks it, EPERM under a seccomp profile or the sysctl).
     */
    public static Optional<String> unavailableReason() {
        Path sysctl = Path.of("/proc/sys/kernel/io_uring_disabled");
        if (Files.isReadable(sysctl)) {
            try {
                String v = Files.readString(sysctl).trim();
                if (!v.equals("0")) {
                    return Optional.of("the kernel's io_uring is disabled (kernel.io_uring_disabled = " + v + ")");
                }
            } catch (IOException ignored) {
                // unreadable: let io_uring_setup decide
            }
        }
        try (KernelRing probe = open(2, 0)) {
            if ((probe.features & FEAT_EXT_ARG) == 0) {
                return Optional.of("the kernel's io_uring lacks IORING_FEAT_EXT_ARG (Linux < 5.11)");
            }
            return Optional.empty();
        } catch (IoUringException e) {
            return Optional.of("io_uring_setup fails here: " + Errno.name(-e.errno()) + " (" + e.getMessage() + ")");
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("cannot call the kernel through FFM: " + e);
        }
    }

    public int fd() {
        return ringFd;
    }

    public int sqEntries() {
        return sqEntries;
    }

    public int cqEntries() {
        return cqEntries;
    }

    private void checkOpen() {
        if (closed) {
            throw new IoUringException(Errno.EBADFD, "kernel ring is closed");
        }
    }

    // ---- submission ----

    private int sqHead() {
        return (int) U32.getAcquire(sqRing, sqHeadOff);
    }

    /** The next free SQE slot, zeroed by the prep method; null when the SQ is full. */
    public KernelSqe getSqe() {
        checkOpen();
        if (sqeTail - sqHead() >= sqEntries) {
            return null;
        }
        int index = sqeTail & sqMask;
        sqeTail++;
        KernelSqe sqe = new KernelSqe(sqes.asSlice(64L * index, 64), timespecs.asSlice(16L * index, 16), arena, fd());
        sqe.prepNop();
        return sqe;
    }

    /** SQEs prepared or left in the SQ ring by the kernel, not yet consumed. */
    public int sqReady() {
        checkOpen();
        return sqeTail - sqHead();
    }

    public int sqSpaceLeft() {
        return sqEntries - sqReady();
    }

    private int publish() {
        checkOpen();
        U32.setRelease(sqRing, sqTailOff, sqeTail);
        return sqeTail - sqHead();
    }

    /** Hands every pending SQE to the kernel; returns how many it consumed (or throws its errno). */
    public int submit() {
        return enter(publish(), 0, 0);
    }

    /** Submits, then waits until at least {@code waitNr} CQEs are ready. */
    public int submitAndWait(int waitNr) {
        return enter(publish(), waitNr, waitNr > 0 ? ENTER_GETEVENTS : 0);
    }

    private int enter(int toSubmit, int minComplete, int flags) {
        checkOpen();
        int r;
        do {
            r = KernelCalls.ioUringEnter(ringFd, toSubmit, minComplete, flags, 0, 0);
        } while (r == -Errno.EINTR);
        if (r < 0) {
            throw new IoUringException(-r, "io_uring_enter failed: " + Errno.name(r));
        }
        return r;
    }

    // ---- completion ----

    /** One CQE copied out of the kernel's CQ. */
    public record KernelCqe(long userData, int res, int flags) {}

    public int cqReady() {
        checkOpen();
        return (int) U32.getAcquire(cqRing, cqTailOff) - (int) U32.getAcquire(cqRing, cqHeadOff);
    }

    private KernelCqe head() {
        int head = (int) U32.getAcquire(cqRing, cqHeadOff);
        int tail = (int) U32.getAcquire(cqRing, cqTailOff);
        if (head == tail) {
            return null;
        }
        long at = cqesOff + 16L * (head & cqMask);
        return new KernelCqe(cqRing.get(JAVA_LONG, at), cqRing.get(JAVA_INT, at + 8), cqRing.get(JAVA_INT, at + 12));
    }

    /** A ready CQE or null; enters the kernel first (task work, overflow flush) if none is visible. */
    public KernelCqe peekCqe() {
        checkOpen();
        KernelCqe c = head();
        if (c == null) {
            enter(0, 0, ENTER_GETEVENTS);
            c = head();
        }
        return c;
    }

    /** Waits at most {@code timeout} for a CQE; null if none came. */
    public KernelCqe waitCqe(Duration timeout) {
        checkOpen();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            KernelCqe c = peekCqe();
            if (c != null) {
                return c;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            waitTs.set(JAVA_LONG, 0, left / 1_000_000_000L);
            waitTs.set(JAVA_LONG, 8, left % 1_000_000_000L);
            waitArg.fill((byte) 0);
            waitArg.set(JAVA_LONG, 16, waitTs.address());
            int r = KernelCalls.ioUringEnter(ringFd, 0, 1, ENTER_GETEVENTS | ENTER_EXT_ARG, waitArg.address(), 24);
            if (r < 0 && r != -Errno.ETIME && r != -Errno.EINTR && r != -Errno.EAGAIN && r != -Errno.EBUSY) {
                throw new IoUringException(-r, "io_uring_enter (wait) failed: " + Errno.name(r));
            }
        }
    }

    /** Waits (without a bound) for a CQE. */
    public KernelCqe waitCqe() {
        return waitCqe(Duration.ofDays(1));
    }

    /** Consumes the CQE at the head of the CQ. */
    public void cqeSeen() {
        checkOpen();
        int head = (int) U32.getAcquire(cqRing, cqHeadOff);
        U32.setRelease(cqRing, cqHeadOff, head + 1);
    }

    // ---- registration ----

    private int register(int opcode, long arg, int nrArgs, String what) {
        checkOpen();
        int r;
        do {
            r = KernelCalls.ioUringRegister(ringFd, opcode, arg, nrArgs);
        } while (r == -Errno.EINTR);
        if (r < 0) {
            throw new IoUringException(-r, what + " failed: " + Errno.name(r));
        }
        return r;
    }

    public void registerFiles(int[] fds) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment arr = a.allocateFrom(JAVA_INT, fds);
            register(REGISTER_FILES, arr.address(), fds.length, "IORING_REGISTER_FILES");
        }
    }

    /** Returns how many slots were updated, as the kernel does. */
    public int updateFiles(int offset, int[] fds) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment arr = a.allocateFrom(JAVA_INT, fds);
            MemorySegment upd = a.allocate(16, 8);
            upd.set(JAVA_INT, 0, offset);
            upd.set(JAVA_LONG, 8, arr.address());
            return register(REGISTER_FILES_UPDATE, upd.address(), fds.length, "IORING_REGISTER_FILES_UPDATE");
        }
    }

    public void unregisterFiles() {
        register(UNREGISTER_FILES, 0, 0, "IORING_UNREGISTER_FILES");
    }

    public void registerBuffers(MemorySegment[] bufs) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment iov = a.allocate(16L * bufs.length, 8);
            for (int i = 0; i < bufs.length; i++) {
                iov.set(JAVA_LONG, 16L * i, bufs[i].address());
                iov.set(JAVA_LONG, 16L * i + 8, bufs[i].byteSize());
            }
            register(REGISTER_BUFFERS, iov.address(), bufs.length, "IORING_REGISTER_BUFFERS");
        }
    }

    public void unregisterBuffers() {
        register(UNREGISTER_BUFFERS, 0, 0, "IORING_UNREGISTER_BUFFERS");
    }

    public int[] registerIoWqMaxWorkers(int bounded, int unbound) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(8, 4);
            v.set(JAVA_INT, 0, bounded);
            v.set(JAVA_INT, 4, unbound);
            register(REGISTER_IOWQ_MAX_WORKERS, v.address(), 2, "IORING_REGISTER_IOWQ_MAX_WORKERS");
            return new int[] {v.get(JAVA_INT, 0), v.get(JAVA_INT, 4)};
        }
    }

    /** IORING_REGISTER_PROBE's answer: last_op, ops_len and each entry's flags (issue 23, ProbeTest). */
    public record KernelProbe(int lastOp, int opsLen, int[] opFlags) {}

    static final int REGISTER_PROBE = 8;

    /** IORING_REGISTER_PROBE with room for {@code nrOps} entries (struct io_uring_probe). */
    public KernelProbe registerProbe(int nrOps) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(16 + 8L * nrOps, 8);
            register(REGISTER_PROBE, p.address(), nrOps, "IORING_REGISTER_PROBE");
            int opsLen = Byte.toUnsignedInt(p.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 1));
            int[] flags = new int[opsLen];
            for (int i = 0; i < opsLen; i++) {
                flags[i] = Short.toUnsignedInt(p.get(java.lang.foreign.ValueLayout.JAVA_SHORT, 16 + 8L * i + 2));
            }
            return new KernelProbe(Byte.toUnsignedInt(p.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)), opsLen, flags);
        }
    }

    /**
     * Unmaps and closes the ring; the kernel cancels what is still in flight. Idempotent. Every
     * later call throws EBADFD (before touching the unmapped rings).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        KernelCalls.munmap(sqes);
        KernelCalls.munmap(sqRing);
        if (cqRing != sqRing) {
            KernelCalls.munmap(cqRing);
        }
        KernelCalls.close(ringFd);
        arena.close();
    }

    @Override
    public String toString() {
        return "KernelRing[fd=" + ringFd + " sq=" + sqEntries + " cq=" + cqEntries + "]";
    }
}
