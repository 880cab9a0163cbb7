package io.jring.sys;

import io.jring.OpenFlags;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * What jring keeps for one O_DIRECT open file it opened (shared by the descriptors that
 * duplicate it): the count of its direct I/Os in flight (the kernel's {@code i_dio_count},
 * which {@code inode_dio_wait} waits for), and for an O_DSYNC/O_SYNC file a companion
 * descriptor without the sync flag.
 *
 * <p>Why the companion (seed 002): with O_DSYNC on the descriptor, the kernel would flush
 * inside its own AIO completion, in its own workqueue, out of jring's sight. Writes through
 * DirectIo go to the companion instead, and jring does the flush itself as the write's
 * completion processing (on the completion pool, or in the issuer's task with caller
 * completion), before the CQE is posted: the user still gets O_DSYNC's guarantee. The
 * user's own descriptor keeps its flags, so writes made outside jring still sync.
 *
 * <p>Flush coalescing: a flush started after a write's completion was counted covers that
 * write. {@link #completed()} numbers counted completions; a syncer reads the count
 * before it flushes and then raises {@link #syncedThrough} to it, so completions already
 * covered skip their own flush.
 *
 * <p>Threads: {@link #inFlight} is changed atomically (getAndAdd) by submitters and
 * completers of any ring and read volatile by {@link #awaitIdle} waiters. {@link #completions}
 * is incremented atomically by reaping threads; the synced marks only grow, by CAS,
 * from whichever thread flushed. {@link #refs} is changed under the monitor of
 * {@link DirectFds}'s table (opens, duplicates and closes are rare).
 */
public final class DirectFile {
    /** Linux's O_SYNC is __O_SYNC | O_DSYNC; __O_SYNC asks for fsync rather than fdatasync. */
    static final int O_FULL_SYNC = 04000000;
    private static final int SYNC_FLAGS = OpenFlags.DSYNC | O_FULL_SYNC;
    private static final int O_LARGEFILE = 0100000;

    /** The companion without sync flags, or -1 (not a sync file, or the reopen failed). */
    private final int plainFd;
    /** O_SYNC rather than O_DSYNC: flush metadata too. */
    private final boolean fullSync;
    /** Descriptors naming this file; see the class comment. */
    int refs = 1;

    private volatile int inFlight;
    private volatile long completions;
    private volatile long syncedThrough;
    /** As {@link #syncedThrough}, for fsync (an fdatasync does not cover an O_SYNC write). */
    private volatile long fullSyncedThrough;

    private static final VarHandle IN_FLIGHT;
    private static final VarHandle COMPLETIONS;
    private static final VarHandle SYNCED;
    private static final VarHandle FULL_SYNCED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            IN_FLIGHT = l.findVarHandle(DirectFile.class, "inFlight", int.class);
            COMPLETIONS = l.findVarHandle(DirectFile.class, "completions", long.class);
            SYNCED = l.findVarHandle(DirectFile.class, "syncedThrough", long.class);
            FULL_SYNCED = l.findVarHandle(DirectFile.class, "fullSyncedThrough", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** O_DIRECT alignment of buffer addresses, and of offsets and lengths (statx DIOALIGN, else 512). */
    private final int memAlign;
    private final int offsetAlign;

    private DirectFile(int plainFd, boolean fullSync, int memAlign, int offsetAlign) {
        this.plainFd = plainFd;
        this.fullSync = fullSync;
        this.memAlign = memAlign;
        this.offsetAlign = offsetAlign;
    }

    /**
     * Why a direct transfer of {@code length} bytes at {@code address} and file offset
     * {@code offset} breaks O_DIRECT's alignment rules, or null if it does not (the kernel
     * would fail it with EINVAL; jring says which rule).
     */
    public String misalignment(long address, long length, long offset) {
        if ((address & (memAlign - 1)) != 0) {
            return "O_DIRECT buffer address 0x" + Long.toHexString(address) + " is not " + memAlign + "-byte aligned";
        }
        if ((length & (offsetAlign - 1)) != 0) {
            return "O_DIRECT length " + length + " is not a multiple of " + offsetAlign;
        }
        if ((offset & (offsetAlign - 1)) != 0) {
            return "O_DIRECT file offset " + offset + " is not a multiple of " + offsetAlign;
        }
        return null;
    }

    /** The file's O_DIRECT alignment from statx (Linux 6.1+), {@code [mem, offset]}; 512 each where unknown. */
    private static int[] alignment(int fd) {
        SysCallContext sc = SysCallContext.current();
        int mem = 512;
        int off = 512;
        if (FsCalls.statx(sc, fd, Structs.Statx.STATX_DIOALIGN) == 0
                && (Structs.Statx.mask(sc.stat()) & Structs.Statx.STATX_DIOALIGN) != 0) {
            int m = Structs.Statx.dioMemAlign(sc.stat());
            int o = Structs.Statx.dioOffsetAlign(sc.stat());
            mem = Integer.bitCount(m) == 1 ? m : mem;
            off = Integer.bitCount(o) == 1 ? o : off;
        }
        return new int[] {mem, off};
    }

    /** The state for a descriptor jring just opened with {@code openFlags} (O_DIRECT among them). */
    static DirectFile open(int fd, int openFlags) {
        int[] align = alignment(fd);
        if ((openFlags & OpenFlags.DSYNC) == 0) {
            return new DirectFile(-1, false, align[0], align[1]);
        }
        // A second open file description of the same inode, through /proc: same file, no sync flag.
        int flags = (openFlags & ~(SYNC_FLAGS | OpenFlags.CREAT | OpenFlags.EXCL | OpenFlags.TRUNC))
                | OpenFlags.CLOEXEC | O_LARGEFILE;
        int plain = FsCalls.openat(SysCallContext.current(), -100, "/proc/self/fd/" + fd, flags, 0);
        return new DirectFile(plain >= 0 ? plain : -1, (openFlags & O_FULL_SYNC) != 0, align[0], align[1]);
    }

    /** The last descriptor naming this file was closed: closes the companion. */
    void release() {
        if (plainFd >= 0) {
            FsCalls.close(SysCallContext.current(), plainFd);
        }
    }

    /** True if writes go to the companion and need their flush as completion processing. */
    public boolean syncsWrites() {
        return plainFd >= 0;
    }

    /** An O_SYNC file: its writes need fsync, not only fdatasync. */
    public boolean fullSync() {
        return fullSync;
    }

    /** The descriptor DirectIo writes through: the companion if there is one, else {@code fd}. */
    public int writeFd(int fd) {
        return plainFd >= 0 ? plainFd : fd;
    }

    /** A direct I/O of this file was handed to the device. */
    public void begin() {
        IN_FLIGHT.getAndAdd(this, 1);
    }

    /** That I/O is finished, completion processing included. */
    public void end() {
        IN_FLIGHT.getAndAdd(this, -1);
    }

    public int inFlight() {
        return inFlight;
    }

    /** The reaping thread: a write to flush completed; returns its sequence number. */
    public long completed() {
        return (long) COMPLETIONS.getAndAdd(this, 1L) + 1;
    }

    /**
     * The write numbered {@code seq} is made durable: at once if a flush that started after
     * it completed has succeeded, else by flushing {@code fd} now ({@code full}: fsync, else
     * fdatasync). Returns 0 or -errno of the flush. Any thread; blocks in the flush.
     */
    public int flush(SysCallContext sc, int fd, long seq, boolean full) {
        if (fullSyncedThrough >= seq || (!full && syncedThrough >= seq)) {
            return 0;
        }
        long upTo = completions;
        int r = full ? FsCalls.fsync(sc, fd) : FsCalls.fdatasync(sc, fd);
        if (r < 0) {
            return r;
        }
        raise(SYNCED, upTo);
        if (full) {
            raise(FULL_SYNCED, upTo);
        }
        return 0;
    }

    private void raise(VarHandle mark, long upTo) {
        long cur;
        while ((cur = (long) mark.getVolatile(this)) < upTo && !mark.compareAndSet(this, cur, upTo)) {
            Thread.onSpinWait();
        }
    }

    /**
     * Waits until no direct I/O of this file is in flight (the kernel's inode_dio_wait), for
     * fsync, truncate and close. {@code helper} runs first and between checks: the caller's
     * own pending completion work, which may be what the I/O waits for (caller completion).
     */
    public void awaitIdle(Runnable helper) {
        long park = 1_000L;
        while (inFlight > 0) {
            helper.run();
            if (inFlight == 0) {
                return;
            }
            LockSupport.parkNanos(this, park);
            park = Math.min(park * 2, 200_000L);
        }
    }
}
