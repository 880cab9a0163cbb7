package io.jring;

import io.jring.core.RingContext;

import java.lang.foreign.MemorySegment;

/**
 * {@link IoUring}'s registration calls (Linux's register.c: fixed files and buffers, buffer
 * rings, io-wq limits, the probe), split out of it so each half stays one concern; users only
 * ever see {@code IoUring}. Holds the engine behind the ring.
 */
abstract sealed class IoUringRegistration permits IoUring {
    /** The engine behind this ring; package-private for {@link EngineAccess} and {@link RingSetup}. Set once, final. */
    final RingContext ctx;

    IoUringRegistration(RingContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Registers the fixed-file table: SQEs with {@link SqeFlags#FIXED_FILE} name a slot.
     * Each descriptor is duplicated, so closing the original leaves the slot usable.
     *
     * @param fds one descriptor per slot; -1 leaves a slot empty
     * @throws IoUringException EBUSY if files are registered already
     */
    public void registerFiles(int[] fds) {
        ctx.registration().registerFiles(fds);
    }

    /**
     * Replaces {@code fds.length} slots from {@code offset}: -1 empties a slot, -2 (FILES_SKIP)
     * keeps it. As Linux, a bad descriptor stops the update, its slot left empty; only as the
     * first entry does it throw (EBADF). An empty {@code fds} is EINVAL.
     *
     * @param offset the first slot to replace
     * @param fds the new descriptors, -1 or -2
     */
    public void updateFiles(int offset, int[] fds) {
        ctx.registration().updateFiles(offset, fds);
    }

    /**
     * Drops the fixed-file table; a slot's duplicate closes when the last request using it completes.
     *
     * @throws IoUringException ENXIO if no files are registered
     */
    public void unregisterFiles() {
        ctx.registration().unregisterFiles();
    }

    /**
     * Registers buffers for READ_FIXED and WRITE_FIXED.
     *
     * @param bufs native segments (from an {@code Arena}) that stay alive while registered;
     *             Linux's limits apply (none empty, none over 1 GiB)
     */
    public void registerBuffers(MemorySegment[] bufs) {
        ctx.registration().registerBuffers(bufs);
    }

    /**
     * Drops the registered buffers.
     *
     * @throws IoUringException ENXIO if no buffers are registered
     */
    public void unregisterBuffers() {
        ctx.registration().unregisterBuffers();
    }

    /**
     * Registers {@code memory} as group {@code bgid}'s buffer ring (io_uring_register_buf_ring):
     * {@code entries} of Linux's {@code struct io_uring_buf}, the tail in the first entry's
     * {@code resv}; native, page-aligned, at least {@code 16 * entries} bytes, alive until
     * {@link #unregisterBufRing}. With {@link BufRing#MMAP} jring allocates it ({@code memory} is
     * ignored, as Linux ignores ring_addr; see {@link #mapBufRing}); {@link BufRing#INC} consumes
     * buffers incrementally. {@code BufRing.setup} does all this and more.
     *
     * @param memory native, page-aligned memory for the ring, or null with {@link BufRing#MMAP}
     * @param entries slots in the ring, a power of two up to {@link BufRing#MAX_ENTRIES}
     * @param bgid the buffer group id requests select from ({@link Sqe#bufferSelect})
     * @param flags 0, or {@link BufRing#MMAP} and/or {@link BufRing#INC}
     * @throws IoUringException EINVAL (sizes, flags, alignment, group id), EEXIST (the group is a
     *         ring or holds PROVIDE_BUFFERS buffers), EFAULT (no memory), EBADFD (ring closed)
     */
    public void registerBufRing(MemorySegment memory, int entries, int bgid, int flags) {
        ctx.registration().registerBufRing(memory, entries, bgid, flags);
    }

    /**
     * Group {@code bgid}'s buffer ring memory (for {@link BufRing#MMAP}, what Linux's mmap of
     * IORING_OFF_PBUF_RING gives), valid until it is unregistered or this ring closes.
     *
     * @param bgid the buffer group id
     * @return the buffer ring's memory, in Linux's layout
     * @throws IoUringException EINVAL if the group has no buffer ring, EBADFD if the ring is closed
     */
    public MemorySegment mapBufRing(int bgid) {
        return ctx.registration().mapBufRing(bgid);
    }

    /**
     * Unregisters group {@code bgid}'s buffer ring (io_uring_unregister_buf_ring).
     *
     * @param bgid the buffer group id
     * @throws IoUringException ENOENT if there is no such group, EINVAL for a PROVIDE_BUFFERS
     *         group, EBADFD if the ring is closed
     */
    public void unregisterBufRing(int bgid) {
        ctx.registration().unregisterBufRing(bgid);
    }

    /**
     * The head of group {@code bgid}'s buffer ring, the next entry a selection takes (16 bits;
     * IORING_REGISTER_PBUF_STATUS, io_uring_buf_ring_head).
     *
     * @param bgid the buffer group id
     * @return the head, 0 to 65535
     * @throws IoUringException ENOENT if there is no such group, EINVAL for a PROVIDE_BUFFERS
     *         group, EBADFD if the ring is closed
     */
    public int bufRingHead(int bgid) {
        return ctx.registration().bufRingHead(bgid);
    }

    /**
     * Sets io-wq's max workers (bounded, unbound; 0 = unchanged). As Linux, the limits are
     * capped at the soft RLIMIT_NPROC, read on each call (an earlier value is capped again).
     *
     * @param bounded the most workers for bounded work (files), or 0 to keep the limit
     * @param unbound the most workers for unbound work (sockets, pipes), or 0 to keep the limit
     * @return the previous limits, {@code [bounded, unbound]}
     */
    public int[] registerIoWqMaxWorkers(int bounded, int unbound) {
        return ctx.registration().registerIoWqMaxWorkers(bounded, unbound);
    }

    /**
     * Which opcodes, SQE flags and setup flags this jring supports (IORING_REGISTER_PROBE), for
     * every opcode up to {@link Probe#lastOp()}: check {@link Probe#opcodeSupported} at startup.
     *
     * @return a snapshot of what this jring supports
     */
    public Probe probe() {
        return probe(Opcode.LAST);
    }

    /**
     * IORING_REGISTER_PROBE with room for {@code nrOps} entries: the probe holds the first
     * {@code min(nrOps, Opcode.LAST)} opcodes ({@link Probe#opsLen()}; 0 gives only
     * {@link Probe#lastOp()}). A negative count is EINVAL.
     *
     * @param nrOps how many opcode entries to fill, 0 or more
     * @return a snapshot of what this jring supports, with {@code min(nrOps, Opcode.LAST)} entries
     * @throws IoUringException EINVAL if {@code nrOps} is negative, EBADFD if the ring is closed
     */
    public Probe probe(int nrOps) {
        ctx.checkOpen();
        return Probe.of(nrOps);
    }
}
