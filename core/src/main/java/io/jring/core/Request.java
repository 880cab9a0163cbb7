package io.jring.core;

import io.jring.sys.SysCallContext;

import io.jring.Sqe;
import io.jring.iowq.IoWork;
import io.jring.ops.OpDef;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;

import java.lang.foreign.MemorySegment;

/**
 * One request in flight (the kernel's {@code io_kiocb}): the SQE's fields copied at
 * submission, its result, and what to run next in its task. Pooled per ring
 * ({@link RequestPool}); it is task work (intrusively linked into task lists) and io-wq
 * work at once, so handing it between threads allocates nothing.
 *
 * <p>Ownership moves with the request: the submitter while it is issued, an io-wq worker
 * (or the poller, the timer) while it runs there, then the task that runs its task work.
 * Each hand-off goes through a queue with release/acquire semantics (io-wq's lock, the
 * task list's atomic push), so the fields themselves are plain.
 */
public final class Request extends TaskWork implements IoWork {
    public final RingContext ring;
    public TaskContext task;
    public OpDef def;

    public int opcode;
    public int flags;
    public int ioprio;
    public int fd;
    public long off;
    public MemorySegment addr;
    public int len;
    public int opFlags;
    public long userData;
    public int bufIndex;
    public int bufGroup;
    public int fileIndex;
    public long addr2;
    public long addr3;
    public Object arg;

    /**
     * Linux's REQ_F_* idea for the hot path: a bit per rare feature that gave this request
     * state beyond the common fields (SIDE_*; the paths only test for non-zero, the bits say
     * who set it). Zero for a plain request, so init, posting and release test this one word
     * instead of each feature's fields; the fields' defaults are restored at the next
     * {@link #init} only when it is non-zero. Whoever gives a request such state marks it
     * first ({@link #markSideState}). Set by
     * {@link #markSideState} (atomic OR: see there); read plain by the thread that owns the
     * request (it got the request through a release/acquire hand-off, which orders the marks
     * made before it); written plain only in init, before the request is shared.
     */
    int sideState;

    /** done, hashKey, unbound, aioSlot or failed set by an op (partial transfer, punt, device I/O). */
    public static final int SIDE_IO = 1;
    /** Holds a registered file's use ({@link #fixedFd}). */
    static final int SIDE_FIXED_FILE = 1 << 1;
    /** Selected a provided buffer. */
    static final int SIDE_BUFFER = 1 << 2;
    /** Member of an IO_LINK chain, of a drained chain, or a LINK_TIMEOUT. */
    static final int SIDE_LINK = 1 << 3;
    /** In the timers' heap or the ring's timeout list. */
    static final int SIDE_TIMEOUT = 1 << 4;
    /** Armed a poll wait. */
    static final int SIDE_POLL = 1 << 5;
    /** A cancel marked it ({@link #cancelRequested}). */
    static final int SIDE_CANCEL = 1 << 6;
    /**
     * A zero-copy send (SEND_ZC, SENDMSG_ZC): its result CQE carries MORE and a notification
     * CQE ({@code CqeFlags.NOTIF}, result {@link #notifRes}) follows it, also when it fails.
     */
    static final int SIDE_NOTIF = 1 << 7;

    /** SIDE_NOTIF's notification result (IORING_NOTIF_USAGE_ZC_COPIED or 0). Owner only, plain. */
    int notifRes;

    /**
     * Native room for a SENDMSG/RECVMSG's copy of its msghdr and the scratch of its multishot
     * rounds ({@link RingResources#msgBlock}): ring memory that stays with the pooled request
     * across uses and is freed with the ring. Owner only, plain.
     */
    public java.lang.foreign.MemorySegment msgBlock;

    /** This request is a zero-copy send: a notification CQE with result {@code res} follows its CQE. */
    public void expectNotif(int res) {
        notifRes = res;
        markSideState(SIDE_NOTIF);
    }

    /** Its CQE is followed by a zero-copy notification ({@link #expectNotif}). */
    boolean hasNotif() {
        return (sideState & SIDE_NOTIF) != 0;
    }

    /** The registered file's descriptor this request keeps open while in flight, or -1. Posting right. */
    int fixedFd = -1;
    /**
     * A second registered file kept open while in flight (SPLICE/TEE's input with
     * SPLICE_F_FD_IN_FIXED, as Linux's splice holds its rsrc node), or -1. Posting right.
     */
    int fixedFdIn = -1;
    /**
     * A cancel found it running in io-wq: its worker ends it with -ECANCELED (-EINTR if it
     * was blocked) instead of arming a poll or blocking again, as Linux signals the worker.
     * Written by the canceller (posting right), read by the worker and the ARM task work.
     */
    volatile boolean cancelRequested;
    private static final java.lang.invoke.VarHandle CANCEL_REQUESTED;
    private static final java.lang.invoke.VarHandle SIDE_STATE;

    static {
        try {
            CANCEL_REQUESTED = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(Request.class, "cancelRequested", boolean.class);
            SIDE_STATE = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(Request.class, "sideState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Bytes already transferred by an earlier partial attempt (the rest is retried). */
    public long done;
    /** io-wq hash key (buffered writes to one file run serially); 0 = none. */
    public long hashKey;
    /** DirectIo slot while the device has the request; -1 otherwise. */
    public int aioSlot = -1;
    /** Runs on io-wq's unbound account even if its op is bounded work (a read of a pipe or socket). */
    public boolean unbound;

    /** The next request of its IO_LINK chain, held until this one completes. Posting right. */
    Request link;
    /**
     * Linux's REQ_F_FAIL: the request failed (an error, a short read or write) or failed
     * while its chain was assembled (then {@link #res} holds its error). A failed request
     * breaks its link. Posting right.
     */
    public boolean failed;
    /**
     * FIXED_FILE slot not looked up yet ({@code fd} holds the slot): the request is issued
     * later than its submit (a chain member, or behind a drain), and Linux looks fixed files
     * up when it issues. Set at prep, cleared at issue; posting right, plain.
     */
    boolean fixedPending;
    /** Set by the submit path before prep: this request will not be issued during prep's submit step. */
    public boolean issueDeferred;

    /** Prep of a FIXED_FILE request issued later: its slot is looked up at issue ({@link #fixedPending}). */
    public void deferFixedFile() {
        markSideState(SIDE_FIXED_FILE);
        fixedPending = true;
    }
    /** Submit path: this request heads a chain with an IO_DRAIN member (the chain drains as one). */
    boolean drainChain;
    /** LINK_TIMEOUT: the request it guards (null once that completed or the timer fired). Posting right. */
    Request timeoutTarget;
    /** Timers: expiry (System.nanoTime) and heap slot (-1 when not armed); under the timer lock. */
    long deadline;
    int heapIndex = -1;
    /** TIMEOUT with a count: it completes when the ring's CQE count reaches this. Posting right. */
    long targetSeq;
    /** In the ring's timeout list (TIMEOUT requests alive): links, posting right. */
    Request timeoutNext;
    Request timeoutPrev;

    /** This request's poll wait: created on its first arm, kept with the pooled request. */
    AsyncPoll poll;
    /**
     * Readiness was reported and the request's task work is queued; more events gather in
     * {@link #pollEvents}. Task (token holder) only: plain.
     */
    boolean pollQueued;
    int pollEvents;
    /** Times this request armed its async poll; at APOLL_MAX_RETRY it goes to io-wq instead (PollArming). Task only. */
    int pollRetries;
    /** Cancel asked while armed: its poll task work completes it with -ECANCELED. Posting right. */
    boolean pollCancelled;
    /** Links of the ring's armed list (POLL_REMOVE, cancel, close find armed requests there); posting right. */
    Request armedPrev;
    Request armedNext;
    boolean inArmedList;

    /** The provided buffer selected for this request ({@code BUFFER_SELECT}): its id, or -1. Posting right. */
    public int selectedBid = -1;
    public long selectedAddress;
    public int selectedLength;
    int selectedCapacity;
    MemorySegment selectedRegion;
    /**
     * The selected buffer was taken before Linux would take it (for io-wq, which may not
     * touch the groups; or before a file lookup that then failed) and the op has not used
     * it: a failure gives it back. Set under the posting right, cleared by the worker that
     * issues the request (the io-wq queue and the task-work hand-off order both).
     */
    public boolean selectedEarly;
    /**
     * The buffer ring the selection came from (null: a classic group), the
     * ProvidedBuffers.SEL_* bits of the selection (commit pending, partly consumed, group
     * emptied, bundle) and the ring's head when it was made. Posting right, like
     * {@link #selectedBid}; a worker only reads them, after the io-wq queue's hand-off.
     */
    BufRingGroup selectedRing;
    public int ringSel;
    int selectedHead;
    /** Buffers of this request's bundles: made on its first, kept with the pooled request. Its owner's. */
    BufferBundle bundle;

    /**
     * An io-wq worker is issuing it (set around the op's call there): a non-blocking attempt
     * from a worker must use the worker's syscall scratch, not the ring's inline one, which
     * only the posting right's holder may use. Written and read by the issuing thread.
     */
    boolean inWorker;

    /**
     * The result of an attempt that returned {@code r} (bytes, or -errno) after {@link #done}
     * bytes moved in earlier attempts: a failure after progress reports the progress, as
     * Linux's read/write and send/recv completions do.
     */
    public int resultAfter(long r) {
        if (r < 0) {
            return done > 0 ? (int) done : (int) r;
        }
        return (int) (done + r);
    }

    public boolean inWorker() {
        return inWorker;
    }

    /**
     * The last non-blocking attempt of a buffered read got -EAGAIN because its pages are not
     * in the page cache yet (their read was started): the request waits for them in
     * {@link PageWaits} rather than blocking an io-wq worker. Written by the read op at each
     * non-blocking issue, read right after it by the same thread.
     */
    public boolean pageMiss;

    /** A cancel asked a request running in io-wq to stop (see {@link #cancelRequested}). */
    public boolean isCancelRequested() {
        return cancelRequested;
    }

    /** It waited for readiness at least once (Linux's REQ_F_POLLED): a SEND bundle then starts no further bundle. */
    public boolean polled() {
        return pollRetries > 0;
    }

    /** The syscall scratch for an attempt: the ring's inline one in the submitting task, else the thread's own. */
    public SysCallContext sys(boolean nonBlocking) {
        return nonBlocking && !inWorker ? ring.resources().inlineSys() : SysCallContext.current();
    }

    /**
     * Why the op's code threw ({@link ThrownOp}: the exception's class and message), for the
     * ReqFailed event of its -errno CQE; null otherwise. Set (with {@link #SIDE_IO}) by the
     * thread that owns the request before it hands it on; taken by the event.
     */
    String thrown;

    /** Result to post, and CQE flags. */
    public int res;
    public int cflags;
    /** What {@link #runTaskWork} does next. */
    TaskWorkFunc taskFunc;

    Request(RingContext ring) {
        this.ring = ring;
    }

    /**
     * Copies what every request needs from its SQE. Like Linux's io_init_req, the rest is
     * the op's business: its prep reads the SQE and copies what it keeps ({@link #copyArgs}),
     * so a NOP copies four fields, not sixteen.
     */
    void init(TaskContext task, Sqe sqe) {
        this.task = task;
        this.opcode = sqe.opcode();
        this.flags = sqe.flags();
        this.userData = sqe.userData();
        this.fd = sqe.fd();
        this.res = 0;
        this.cflags = 0;
        if (sideState != 0) {
            resetSideState();
        }
    }

    /** The previous use had side state: back to the defaults every request starts from. */
    private void resetSideState() {
        this.done = 0;
        this.hashKey = 0;
        this.unbound = false;
        this.aioSlot = -1;
        this.fixedFd = -1;
        this.fixedFdIn = -1;
        if (cancelRequested) {
            CANCEL_REQUESTED.set(this, false);   // plain: the request is not shared yet (no fence per request)
        }
        this.pollQueued = false;
        this.pollEvents = 0;
        this.pollRetries = 0;
        this.pollCancelled = false;
        this.selectedBid = -1;
        this.selectedEarly = false;
        this.ringSel = 0;
        this.link = null;
        this.failed = false;
        this.fixedPending = false;
        this.drainChain = false;
        this.timeoutTarget = null;
        this.heapIndex = -1;
        this.thrown = null;
        this.sideState = 0;
    }

    /** Copies the remaining SQE fields, for ops that keep them past submission. */
    public void copyArgs(Sqe sqe) {
        this.ioprio = sqe.ioprio();
        this.off = sqe.off();
        this.addr = sqe.addr();
        this.len = sqe.len();
        this.opFlags = sqe.opFlags();
        this.bufIndex = sqe.bufIndex();
        this.bufGroup = sqe.bufGroup();
        this.fileIndex = sqe.fileIndex();
        this.addr2 = sqe.addr2();
        this.addr3 = sqe.addr3();
        this.arg = sqe.arg();
    }

    /** Posting right: posts one CQE of a multishot request, which stays in flight. */
    public void postMore(int res, int cflags) {
        ring.poster.post(userData, res, cflags | io.jring.CqeFlags.MORE);
    }

    /** Drops the references every request may hold, so a pooled request keeps nothing alive. */
    void clearRefs() {
        task = null;
        def = null;
        addr = null;
        arg = null;
        taskFunc = null;
    }

    /** Drops the references only side state holds (the other half of {@link #clearRefs}). */
    void clearSideRefs() {
        selectedRegion = null;
        selectedRing = null;
        link = null;
        timeoutTarget = null;
        timeoutNext = null;
        timeoutPrev = null;
    }

    /**
     * Records that a rare feature gave this request state beyond the common fields, so its
     * completion, release and next {@link #init} take their full paths. Atomic because a
     * canceller (posting right) and an io-wq worker running the request may mark at once;
     * only rare paths mark, so the locked OR costs the common case nothing.
     */
    public void markSideState(int bits) {
        SIDE_STATE.getAndBitwiseOr(this, bits);
    }

    /** Has side state (any of the SIDE_* bits): the completion and release need their full paths. */
    boolean hasSideState() {
        return sideState != 0;
    }

    @Override
    public TaskWorkTarget target() {
        return ring;
    }

    /** Runs its task work; a throw fails the request ({@link ThrownOp}) and the run goes on. */
    @Override
    public void runTaskWork(boolean cancel) {
        try {
            taskFunc.run(this, cancel);
        } catch (Throwable t) {
            ThrownOp.taskWorkThrew(this, t);
        }
    }

    @Override
    public void runInWorker() {
        ring.issuer.runInWorker(this);
    }

    @Override
    public void cancelQueued() {
        ring.issuer.completeFromElsewhere(this, -io.jring.Errno.ECANCELED, 0);
    }

    @Override
    public boolean isBoundedWork() {
        return !unbound && (def == null || def.boundedWork());
    }

    @Override
    public long hashKey() {
        return hashKey;
    }

    @Override
    public String toString() {
        return "Request[" + io.jring.Opcode.name(opcode) + " userData=" + userData + "]";
    }
}
