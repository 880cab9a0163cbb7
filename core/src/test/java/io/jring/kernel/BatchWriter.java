package io.jring.kernel;

import static io.jring.kernel.RandomSqe.Op.BAD_OPCODE;
import static io.jring.kernel.RandomSqe.Op.CANCEL;
import static io.jring.kernel.RandomSqe.Op.CANCEL_FD;
import static io.jring.kernel.RandomSqe.Op.CLOSE;
import static io.jring.kernel.RandomSqe.Op.LINK_TIMEOUT;
import static io.jring.kernel.RandomSqe.Op.MSG_RING;
import static io.jring.kernel.RandomSqe.Op.NOP;
import static io.jring.kernel.RandomSqe.Op.POLL_ADD;
import static io.jring.kernel.RandomSqe.Op.POLL_MULTISHOT;
import static io.jring.kernel.RandomSqe.Op.POLL_REMOVE;
import static io.jring.kernel.RandomSqe.Op.PROVIDE_BUFFERS;
import static io.jring.kernel.RandomSqe.Op.READ;
import static io.jring.kernel.RandomSqe.Op.READV;
import static io.jring.kernel.RandomSqe.Op.RECV;
import static io.jring.kernel.RandomSqe.Op.REMOVE_BUFFERS;
import static io.jring.kernel.RandomSqe.Op.TIMEOUT;
import static io.jring.kernel.RandomSqe.Op.TIMEOUT_REMOVE;

import io.jring.Cancel;
import io.jring.SqeFlags;
import io.jring.kernel.ProgramModel.Channel;
import io.jring.kernel.ProgramModel.Op;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes the batches of a program {@link RandomPrograms} writes: the state of the batch and
 * its open chain, the switches ({@link #allow}), the choice of flags (links, drain, ASYNC,
 * CQE_SKIP_SUCCESS, fixed files) and the batch rules in {@link #finish}, and which part of
 * the vocabulary ({@link DataOps}, {@link CancelOps}) writes the next SQE.
 */
final class BatchWriter {
    static final int ASYNC_OK = 1;
    static final int IO_WQ = 2;
    static final int CANCEL_LIKE = 4;
    /** Linux ignores IOSQE_FIXED_FILE on it (B3). */
    static final int FILELESS = 8;
    /** Provided buffers are at least this long, so a buffer-select RECV reads at most this much. */
    static final int MIN_BUFFER = 16;
    static final long UNKNOWN_UD = 7777;

    private record Tag(Op op, FuzzFeature feature) {}

    final RandomPrograms.Writer w;
    final ProgramModel m;
    final List<Op> batch = new ArrayList<>();
    /** An SQE Linux fails at prep ended the batch. */
    boolean ended;
    private boolean ioWq;
    private boolean cancelLike;
    final Set<Integer> bufferGroups = new HashSet<>();
    final Set<Integer> selectGroups = new HashSet<>();
    final Set<Integer> asyncSelectGroups = new HashSet<>();
    /** Requests a cancel or remove of this batch targets. */
    final Set<Op> cancelled = new HashSet<>();
    /** Channels whose reader has an expiring link timeout in this batch: no more writes to them. */
    final Set<Channel> timedChannels = new HashSet<>();
    Op chainPrev;
    final List<Op> chain = new ArrayList<>();
    private boolean chainHasLinkTimeout;
    boolean chainHasSkip;
    List<String> fixedTable;
    final List<Op> timeoutOps = new ArrayList<>();
    final List<Op> countTimeouts = new ArrayList<>();
    long nextUd = 1;
    /** Tags of the SQE being built (applied if it is added). */
    private final List<Tag> pending = new ArrayList<>();
    private final List<FuzzFeature> pendingOwn = new ArrayList<>();
    /** The buffer group the SQE being built selects from, or -1. */
    int selectGroup = -1;
    /** The buffer group the SQE being built provides, removes or selects from, or -1. */
    int opGroup = -1;
    /** Groups a chain member of this batch uses: Linux touches them after the rest of the submit. */
    private final Set<Integer> deferredGroups = new HashSet<>();
    /** FIXED_FILE when the SQE being built names its file by a fixed-file index. */
    int fixedFlag;
    /** The SQE being built fails at prep on Linux, so it must end its batch. */
    boolean prepFailure;
    /** The SQE being built is the last the batch planned. */
    boolean lastSlot;
    private boolean skipSeen;
    private boolean drainInBatch;
    /**
     * A drain was written: the next batch starts with a NOP, the request that ends Linux's
     * drain mode (and that Linux issues through io-wq).
     */
    boolean drainEpilogue;

    /** The SQEs that read and write data (and buffers, CLOSE, MSG_RING, bad descriptors). */
    final DataOps data;
    /** The SQEs that cancel, remove or time out others. */
    final CancelOps cancels;

    BatchWriter(RandomPrograms.Writer w) {
        this.w = w;
        this.m = w.m;
        this.data = new DataOps(this);
        this.cancels = new CancelOps(this);
    }

    void startBatch() {
        pending.clear();
        pendingOwn.clear();
        selectGroup = -1;
        fixedFlag = 0;
        batch.clear();
        ended = false;
        ioWq = false;
        cancelLike = false;
        bufferGroups.clear();
        selectGroups.clear();
        deferredGroups.clear();
        asyncSelectGroups.clear();
        timedChannels.clear();
        cancelled.clear();
        drainInBatch = false;
        prepFailure = false;
        chainPrev = null;
    }

    /** Adds one SQE (tries a few parts of the vocabulary until one fits). */
    void generate(boolean last) {
        lastSlot = last;
        for (int tries = 0; tries < 12; tries++) {
            pending.clear();
            pendingOwn.clear();
            selectGroup = -1;
            opGroup = -1;
            fixedFlag = 0;
            prepFailure = false;
            if (chainPrev != null && w.chance(30) && cancels.linkTimeout() != null) {
                return;
            }
            int r = w.rnd.nextInt(100);
            Op op = r < 8 ? nop() : r < 16 ? data.fileRead() : r < 22 ? data.fileWrite() : r < 24 ? data.fsync()
                    : r < 46 ? data.consumer() : r < 58 ? data.producer() : r < 62 ? cancels.pollRemove()
                    : r < 70 ? cancels.timeout() : r < 73 ? cancels.timeoutRemove() : r < 81 ? cancels.cancelOp()
                    : r < 86 ? data.provide() : r < 88 ? data.remove() : r < 90 ? data.close()
                    : r < 94 ? data.msgRing() : r < 96 ? data.badFd() : r < 97 ? data.badFixed()
                    : r < 98 ? data.hugeFd() : r < 99 ? data.pollFile() : last ? badLast() : null;
            if (op != null) {
                return;
            }
        }
    }

    // ---- switches ----

    boolean allow(FuzzFeature f, List<Op> involved) {
        if (!w.on.contains(f)) {
            return false;
        }
        pendingOwn.add(f);
        involved.forEach(o -> pending.add(new Tag(o, f)));
        return true;
    }

    boolean allow(FuzzFeature f) {
        return allow(f, List.of());
    }

    boolean cancelAllowed(Op victim, boolean expiry) {
        Object h = m.cancelHazard(victim, expiry);
        if (h == ProgramModel.FORBIDDEN || h != null && !allow((FuzzFeature) h, List.of(victim))) {
            return false;
        }
        if (!expiry && cancelled.contains(victim) && !m.knownDone(victim)
                && !allow(FuzzFeature.CANCEL_TWICE, List.of(victim))) {
            return false;
        }
        boolean counted = victim.kind() == TIMEOUT && victim.sqe.count > 0;
        return !counted || expiry || batch.isEmpty() || allow(FuzzFeature.TIMEOUT_COUNT_FLUSH, List.of(victim));
    }

    // ---- descriptors ----

    void registerFiles(List<RandomProgram.Step> steps) {
        Channel pipe = m.newPipe();
        Channel sock = m.newSocketPair();
        pipe.registered = true;
        sock.registered = true;
        m.channels.get(m.channels.indexOf(sock) + 1).registered = true;
        fixedTable = List.of("file", pipe.read, pipe.write, "-1", sock.write, sock.read);
        steps.add(new RandomProgram.RegisterFiles(fixedTable));
    }

    /** {@code name}, or its fixed-file index (then {@link #fixedFlag} is FIXED_FILE) now and then. */
    String fd(String name) {
        fixedFlag = 0;
        int i = fixedTable == null ? -1 : fixedTable.indexOf(name);
        if (i >= 0 && w.chance(30)) {
            fixedFlag = SqeFlags.FIXED_FILE;
            return "#" + i;
        }
        return name;
    }

    Channel freeChannel(boolean socket) {
        List<Channel> free = m.channels(c -> c.consumer == null && c.socket == socket);
        if (!free.isEmpty() && w.chance(60)) {
            return w.pick(free);
        }
        if (socket ? m.socketPairs >= 3 : m.pipes >= 6) {
            return free.isEmpty() ? null : w.pick(free);
        }
        return socket ? m.newSocketPair() : m.newPipe();
    }

    /** Bytes that may still be written to {@code c} in this period. */
    int writable(Channel c) {
        if (c.sealed || c.lastWritePeriod == m.period) {
            return 0;
        }
        return c.cap == Integer.MAX_VALUE ? 100 : c.cap - c.produced;
    }

    // ---- building ----

    RandomSqe.Builder sqe(RandomSqe.Op op) {
        return RandomSqe.of(op, nextUd++);
    }

    /** Chooses flags, checks the batch rules and adds the SQE; null if it does not fit. */
    Op finish(RandomSqe.Builder b, RandomSqe.Op kind, Channel ch, boolean consumer, int traits) {
        boolean work = (traits & IO_WQ) != 0;
        boolean cancels = (traits & CANCEL_LIKE) != 0;
        if (cancels && ioWq || work && cancelLike) {
            return null;
        }
        if (selectGroup >= 0 && asyncSelectGroups.contains(selectGroup)) {
            return null;
        }
        if (opGroup >= 0 && deferredGroups.contains(opGroup)
                && !allow(FuzzFeature.LINK_ISSUE_IN_TASK_WORK, List.of())) {
            return null;    // a chain member before it touches the group after the submit, on Linux
        }
        int f = fixedFlag | (selectGroup >= 0 ? SqeFlags.BUFFER_SELECT : 0);
        fixedFlag = 0;
        boolean failsPrep = prepFailure;
        prepFailure = false;
        if (chainAfterIoWq()) {
            // Linux runs it in io-wq too, blocking if it reads a pipe or a socket.
            boolean blocks = consumer && kind != POLL_ADD && kind != POLL_MULTISHOT;
            if (cancels || blocks && !allow(FuzzFeature.IO_WQ_CHAIN, chainMembers())) {
                return null;
            }
            work = true;
        }
        boolean removes = kind == CANCEL || kind == CANCEL_FD || kind == POLL_REMOVE || kind == TIMEOUT_REMOVE;
        if (removes && chainPrev != null && !allow(FuzzFeature.LINK_ISSUE_IN_TASK_WORK, chainMembers())) {
            return null;    // Linux runs it from task work, after the SQEs that follow it in the submit
        }
        if (chainPrev != null && chain.stream().anyMatch(o -> o.kind() == CANCEL_FD
                || o.kind() == CANCEL && (o.sqe.arg & Cancel.ANY) != 0)
                && !allow(FuzzFeature.LINK_ISSUE_IN_TASK_WORK, chainMembers())) {
            return null;    // the cancel before it in its chain would find it waiting for its link
        }
        if (work && drainInBatch || cancels && drainInBatch) {
            return null;    // a drain would wait on the worker's timing; a cancel would race the drain
        }
        if (w.chance(25)) {
            f |= SqeFlags.IO_LINK;
        } else if (w.chance(4)) {
            f |= SqeFlags.IO_HARDLINK;
        }
        // Linux issues a drained request (and what follows it) later, from task work or io-wq:
        // it counts as io-wq work, so no cancel may race with it.
        // A drain on an SQE that fails at prep would leave Linux's ring draining.
        boolean drain = w.chance(5) && !work && !ioWq && !cancelLike && !cancels && !failsPrep
                && (chainPrev == null || allow(FuzzFeature.DRAIN_IN_CHAIN, chainMembers()))
                && (drainIsQuiet(kind, ch) || allow(FuzzFeature.DRAIN_MODE, m.ops));
        if ((traits & ASYNC_OK) != 0 && !cancelLike && !drain && !drainInBatch && w.chance(12) && (selectGroup < 0
                || !bufferGroups.contains(selectGroup) && !selectGroups.contains(selectGroup))) {
            f |= SqeFlags.ASYNC;
            work = true;
        }
        boolean inTimedChain = kind == LINK_TIMEOUT || chainPrev != null && chainHasLinkTimeout;
        boolean skip = w.chance(10) && (!inTimedChain || allow(FuzzFeature.LINK_TIMEOUT_SKIP, chainMembers()));
        if (skip && kind == POLL_MULTISHOT) {
            skip = lastSlot;    // Linux fails a multishot poll with CQE_SKIP_SUCCESS at prep
            failsPrep |= skip;
        }
        if (skip) {
            f |= SqeFlags.CQE_SKIP_SUCCESS;
        }
        if (drain && (skipSeen || skip)) {
            // Once a ring has seen CQE_SKIP_SUCCESS, Linux fails IO_DRAIN at prep (-EOPNOTSUPP).
            drain = lastSlot;
            failsPrep |= drain;
        }
        if (drain) {
            f |= SqeFlags.IO_DRAIN;
            work = true;
            drainEpilogue = true;
        }
        if (failsPrep) {
            f &= ~(SqeFlags.IO_LINK | SqeFlags.IO_HARDLINK);
        }
        if ((traits & FILELESS) != 0 && w.chance(4) && allow(FuzzFeature.PREP_VS_ISSUE)) {
            f |= SqeFlags.FIXED_FILE;
        }
        RandomSqe s = b.flags(f).build();
        Op op = new Op(s, ch, consumer, m.batch, m.period, chainPrev, work);
        for (Tag t : pending) {
            t.op().sqe.tags.add(t.feature());
        }
        s.tags.addAll(pendingOwn);
        m.ops.add(op);
        batch.add(op);
        if (consumer && ch.consumer == null) {
            ch.consumer = op;
        }
        ioWq |= work;
        cancelLike |= cancels;
        m.drainSeen |= s.has(SqeFlags.IO_DRAIN);
        if (chainPrev == null) {
            chain.clear();
            chainHasLinkTimeout = false;
            chainHasSkip = false;
        }
        chain.add(op);
        chainHasLinkTimeout |= kind == LINK_TIMEOUT;
        chainHasSkip |= skip;
        skipSeen |= skip;
        drainInBatch |= drain;
        chainPrev = s.links() ? op : null;
        ended |= failsPrep;
        if (opGroup >= 0 && op.chained) {
            deferredGroups.add(opGroup);
        }
        opGroup = -1;
        if (selectGroup >= 0) {
            selectGroups.add(selectGroup);
            if (s.has(SqeFlags.ASYNC)) {
                asyncSelectGroups.add(selectGroup);
            }
        }
        return op;
    }

    /**
     * True if a drain on the SQE being built waits for nothing and ends Linux's drain mode
     * at once: the last SQE of its batch, one that completes inline, and nothing before it
     * may still be pending. (Otherwise Linux defers every later request until the drain is
     * done and then issues them through io-wq, so their outcome depends on the workers.)
     */
    private boolean drainIsQuiet(RandomSqe.Op kind, Channel ch) {
        boolean inline = kind == NOP || kind == MSG_RING || kind == PROVIDE_BUFFERS || kind == REMOVE_BUFFERS
                || (kind == READ || kind == READV) && ch == null;
        return lastSlot && inline && chainPrev == null
                && m.ops.stream().allMatch(o -> o.batch == m.batch ? !o.ioWq && !m.mayWait(o.prev)
                        && m.isImmediate(o) : !m.mayWait(o));
    }

    /** True if the SQE being built joins a chain with an io-wq member before it. */
    boolean chainAfterIoWq() {
        return chainPrev != null && chain.stream().anyMatch(o -> o.ioWq);
    }

    List<Op> chainMembers() {
        return chainPrev == null ? List.of() : List.copyOf(chain);
    }

    // ---- the vocabulary ----

    /** The NOP without flags that ends Linux's drain mode; Linux issues it through io-wq. */
    void drainEpilogueNop() {
        drainEpilogue = false;
        Op op = new Op(sqe(NOP).build(), null, false, m.batch, m.period, null, true);
        m.ops.add(op);
        batch.add(op);
        ioWq = true;
    }

    /** A NOP for a batch that got nothing else. */
    void fallbackNop() {
        pending.clear();
        pendingOwn.clear();
        selectGroup = -1;
        fixedFlag = 0;
        nop();
    }

    private Op nop() {
        return finish(sqe(NOP), NOP, null, false, ASYNC_OK | FILELESS);
    }

    /**
     * Called at the end of a batch: a chain still open there is a {@link FuzzFeature#IO_WQ_CHAIN}
     * pattern (tagged), or, when that is off, is closed by a NOP.
     */
    void endBatch() {
        if (chainPrev == null) {
            return;
        }
        pending.clear();
        pendingOwn.clear();
        if (allow(FuzzFeature.IO_WQ_CHAIN, chainMembers())) {
            for (Tag t : pending) {
                t.op().sqe.tags.add(t.feature());
            }
            return;
        }
        RandomSqe s = sqe(NOP).build();
        Op op = new Op(s, null, false, m.batch, m.period, chainPrev, chainAfterIoWq());
        m.ops.add(op);
        batch.add(op);
        chainPrev = null;
    }

    /** An SQE Linux fails at prep (an unknown opcode or SQE flag): the submit stops after it. */
    private Op badLast() {
        boolean opcode = w.chance(50);
        RandomSqe.Builder b = opcode ? sqe(BAD_OPCODE).arg(RandomPrograms.BAD_OPCODE) : sqe(NOP).flags(0x80);
        RandomSqe s = b.build();
        Op op = new Op(s, null, false, m.batch, m.period, chainPrev, false);
        m.ops.add(op);
        batch.add(op);
        chainPrev = null;
        ended = true;
        return op;
    }
}
