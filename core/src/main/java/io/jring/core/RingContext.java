package io.jring.core;

import io.jring.Cqe;
import io.jring.CqeHandler;
import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.TaskWorkKind;
import io.jring.iowq.IoWq;
import io.jring.ops.OpDef;
import io.jring.tw.HelperWaker;
import io.jring.poll.Poller;
import io.jring.tw.TaskContext;
import io.jring.sys.ResourceLimits;
import io.jring.sys.SysCallContext;
import io.jring.tw.TaskWorkTarget;

import java.lang.foreign.MemorySegment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A ring (the kernel's {@code io_ring_ctx}): SQ, CQ, request cache, io-wq handle and, for
 * DEFER_TASKRUN, its local work list. The public {@code IoUring} is a thin face over it.
 *
 * <p><b>Who touches what.</b> The SQ belongs to the application thread using the ring. The
 * CQ's posting side, the request pool and everything a request does in task context belong
 * to the <em>posting right</em>: for a SINGLE_ISSUER ring that is its owner's run token
 * (the owner, or a thread that borrowed the token, see {@link TaskContext}), so no lock is
 * taken at all; for a shared ring it is {@link #lock} (the kernel's {@code uring_lock}),
 * taken once per submit and once per run of task work for the ring. Workers, the poller
 * and timers never post: they hand requests back as task work.
 */
public final class RingContext implements TaskWorkTarget, HelperWaker {
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final ApiAccess API = ApiAccess.get();
    private static final TaskContext[] NO_CONTEXTS = new TaskContext[0];

    /** A DirectIo completion: frees the AIO slot, then completes as usual. */
    static final TaskWorkFunc DIRECT_COMPLETE = (req, cancel) -> {
        req.ring.directIo.release(req);
        if (req.res >= 0 && req.res < req.len) {
            req.markSideState(Request.SIDE_IO);
            req.failed = true;   // a short direct read or write breaks a link
        }
        RingContext.COMPLETE.run(req, cancel);
    };

    /** Caller completion: the write's flush runs here, in its issuer's task, then its CQE. */
    static final TaskWorkFunc DIRECT_FLUSH_COMPLETE = (req, cancel) -> {
        req.ring.directIo.flushWrite(req, req.ring.resources.inlineSys());
        DIRECT_COMPLETE.run(req, cancel);
    };

    /**
     * A descriptor an io-wq worker made for a fixed-file slot ({@code req.res}: OPENAT, SOCKET,
     * ACCEPT) goes into the table here, under the posting right, and the CQE carries the
     * install's result.
     * A cancelled request closes it instead: no descriptor may outlive its request.
     */
    static final TaskWorkFunc INSTALL_OPENED = (req, cancel) -> {
        if (cancel || req.ring.isClosing()) {
            FileTable.closeNow(req.res);
            req.res = -Errno.ECANCELED;
        } else {
            req.res = req.ring.resources.files.installOwned(req.fileIndex, req.res);
        }
        RingContext.COMPLETE.run(req, cancel);
    };

    /**
     * A finished request posts its result, also when its owner is gone ({@code cancel}): as
     * Linux's io_req_task_complete, which the fallback runs too, so what a request did (bytes
     * moved, a descriptor made) is never reported as -ECANCELED.
     */
    static final TaskWorkFunc COMPLETE = (req, cancel) ->
            req.ring.poster.postAndFree(req, req.ring.isClosing() ? -Errno.ECANCELED : req.res, req.cflags);

    final int id = IDS.incrementAndGet();
    final int sqEntries;
    final int setupFlags;
    final boolean singleIssuer;
    final boolean submitAll;
    final TaskWorkKind kind;

    private final Sqe[] sqes;
    private final int sqMask;
    /** The thread holding the submission side ({@link #claimSubmission}) only. */
    private int sqHead;
    private int sqTail;
    /** The submission side's thread of a shared ring, or of a SINGLE_ISSUER ring before its owner. */
    private final SideClaim sq;

    final CompletionQueue cq;
    final RequestPool pool;
    /** Shared rings only (null for SINGLE_ISSUER): the posting right. */
    private final ReentrantLock lock;
    /** DEFER_TASKRUN rings only. */
    final LocalWorkList local;
    private final IoWq iowq;
    /**
     * The io-wq limits last asked for with {@link #registerIoWqMaxWorkers}, bounded and
     * unbound, unclamped; 0 = never set (Linux's ctx->iowq_limits). Guarded by its own
     * monitor: registration calls may come from any thread and are rare.
     */
    private final int[] iowqLimits = new int[2];
    /**
     * Native AIO for O_DIRECT, started on first use. Written once under the posting right
     * (volatile: waiters on other threads read it to reap); close() after the drain.
     */
    private volatile DirectIo directIo;
    private boolean directIoUnavailable;
    /** IO_LINK chains being assembled and continued; posting right only. */
    final LinkChains links = new LinkChains(this);
    /** IO_DRAIN's queue; posting right only. */
    final DrainQueue drain = new DrainQueue(this);
    /** TIMEOUT/LINK_TIMEOUT bookkeeping (posting right) and their timer thread. */
    final Timeouts timeouts = new Timeouts(this);
    private final Timers timers = new Timers(this);
    /** Armed requests of this ring, in whatever poller: posting right only. */
    final ArmedList armed = new ArmedList();
    /** Requests workers handed back to their task to arm poll, until it does (its own lock). */
    final ArmTransit armTransit = new ArmTransit();
    /** ASYNC_CANCEL and a link timeout's cancel of its target: posting right. */
    final AsyncCancel asyncCancel = new AsyncCancel(this);
    /** Provided-buffer groups: posting right only. */
    final ProvidedBuffers buffers = new ProvidedBuffers();
    /**
     * A CQE_SKIP_SUCCESS request was submitted: IO_DRAIN is refused from then on
     * (-EOPNOTSUPP), as Linux's drain_disabled. Posting right.
     */
    boolean drainDisabled;
    /** MSG_RING to this ring: the sender posts under this ring's lock and wakes it (seed 004's "before"). */
    final boolean legacyMsgRing;
    /** Direct writes' completion processing runs in the issuer's task (seed 002); else on a pool. */
    final boolean callerCompletion;
    /**
     * With {@link #legacyMsgRing}: the CQ's lock (Linux's completion_lock), taken by every
     * post and flush of this ring, the owner's included, since senders post too. Null otherwise.
     */
    final ReentrantLock cqLock;
    /** ASYNC on pollable files blocks a worker in poll(2) (the pre-hybrid behaviour). */
    final boolean legacyAsync;
    /** Registered files and buffers, inline syscall scratch: posting right only. */
    private final RingResources resources = new RingResources();
    final RequestIssuer issuer;
    final CompletionPoster poster;
    private final CompletionReader reader;

    /** SINGLE_ISSUER: the first thread that used the ring. Set once by CAS, read by anyone. */
    private volatile Thread owner;
    /** SINGLE_ISSUER: the owner's task context; written by the owner right after {@link #owner}, read by close(). */
    private volatile TaskContext ownerCtx;
    /** Shared rings: contexts that submitted here (copy-on-write, under this). Waiters help them. */
    volatile TaskContext[] submitters = NO_CONTEXTS;
    /** Contexts whose poller this ring uses (retained once each); copy-on-write under {@link #pollUsersLock}. */
    private volatile TaskContext[] pollUsers = NO_CONTEXTS;
    private final Object pollUsersLock = new Object();
    /** Shared rings: the context that submitted last (fast path of registration); plain, racy-benign. */
    private TaskContext lastSubmitter;
    /** The threads sleeping for this ring's CQEs. */
    final CqWait cqWait;

    /** 0 open, 1 closing, 2 closed. CAS by close(), volatile reads everywhere. */
    volatile int closed;

    private static final VarHandle OWNER;
    private static final VarHandle CLOSED;
    private static final VarHandle REMOTE_FDS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            OWNER = l.findVarHandle(RingContext.class, "owner", Thread.class);
            CLOSED = l.findVarHandle(RingContext.class, "closed", int.class);
            REMOTE_FDS = l.findVarHandle(RingContext.class, "remoteFds", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public RingContext(RingParams p) {
        this.sqEntries = p.sqEntries();
        this.setupFlags = p.flags();
        this.singleIssuer = (p.flags() & Setup.SINGLE_ISSUER) != 0;
        this.submitAll = (p.flags() & Setup.SUBMIT_ALL) != 0;
        this.legacyAsync = p.legacyAsync();
        this.kind = p.kind();
        this.sqes = new Sqe[sqEntries];
        for (int i = 0; i < sqEntries; i++) {
            sqes[i] = API.newSqe();
        }
        this.sqMask = sqEntries - 1;
        this.sq = new SideClaim(id, "submission", "it has SQEs it has not submitted, or is submitting");
        this.cq = new CompletionQueue(p.cqEntries());
        this.pool = new RequestPool(this, sqEntries);
        this.legacyMsgRing = p.legacyMsgRing();
        this.callerCompletion = p.callerCompletion();
        this.cqLock = legacyMsgRing ? new ReentrantLock() : null;
        this.poster = new CompletionPoster(this, cq);   // after the parts it holds
        this.issuer = new RequestIssuer(this);          // after the poster and pool it holds
        this.lock = singleIssuer ? null : new ReentrantLock();
        this.local = (p.flags() & Setup.DEFER_TASKRUN) != 0 ? new LocalWorkList(kind) : null;
        if (p.attachWq() != null) {
            this.iowq = p.attachWq().iowq.attach();
        } else {
            this.iowq = new IoWq("r" + id, IoWq.defaultMaxBounded(sqEntries), IoWq.UNBOUND_FROM_RLIMIT);
        }
        this.reader = new CompletionReader(this, p.waitSpinNanos());
        this.cqWait = new CqWait();
    }

    public int id() {
        return id;
    }

    public int sqEntries() {
        return sqEntries;
    }

    public int cqEntries() {
        return cq.entries();
    }

    public IoWq ioWq() {
        return iowq;
    }

    public boolean isClosing() {
        return closed != 0;
    }

    // =============================================================== entry and exit

    IoUringException closedException() {
        return new IoUringException(Errno.EBADFD, "ring " + id + " is closed");
    }

    /** For calls any thread may make (the ring's sizes): EBADFD once closed. */
    public void checkOpen() {
        if (closed != 0) {
            throw closedException();
        }
    }

    /** Cheap checks for calls that do not enter: closed, and the SINGLE_ISSUER owner. */
    void checkUsable() {
        if (closed != 0) {
            throw closedException();
        }
        if (singleIssuer) {
            Thread o = owner;
            if (o != null && o != Thread.currentThread()) {
                throw notOwner(o);
            }
        }
    }

    private static IoUringException notOwner(Thread o) {
        return new IoUringException(Errno.EEXIST, "ring is SINGLE_ISSUER and owned by thread '"
                + o.getName() + "'; submit from that thread");
    }

    /** SINGLE_ISSUER: the owner, or null before the first submit. */
    Thread owner() {
        return owner;
    }

    /** SINGLE_ISSUER: the owner's task context, or null before it is known. */
    TaskContext ownerContext() {
        return ownerCtx;
    }

    /** Takes the calling thread's run token for this ring; pair with {@code tc.exit()}. */
    TaskContext enter() {
        if (closed != 0) {
            throw closedException();
        }
        TaskContext tc;
        if (singleIssuer) {
            Thread t = Thread.currentThread();
            Thread o = owner;
            if (o != t) {
                if (o != null || !OWNER.compareAndSet(this, null, t)) {
                    throw notOwner(owner);
                }
                ownerCtx = TaskContext.current();
                ownerCtx.rings().addWaker(this);   // other threads may wait here and help it
                if (local != null) {
                    ownerCtx.rings().addLocalWork(local);
                }
                if (!inbox.isEmpty()) {
                    drainInbox();
                }
            }
            tc = ownerCtx;
        } else {
            tc = TaskContext.current();
            if (lastSubmitter != tc) {
                registerSubmitter(tc);
            }
        }
        tc.enter();
        return tc;
    }

    private synchronized void registerSubmitter(TaskContext tc) {
        lastSubmitter = tc;
        TaskContext[] cur = submitters;
        for (TaskContext c : cur) {
            if (c == tc) {
                return;
            }
        }
        TaskContext[] next = java.util.Arrays.copyOf(cur, cur.length + 1);
        next[cur.length] = tc;
        submitters = next;
        tc.rings().addWaker(this);
    }

    void lockRing() {
        if (lock != null) {
            lock.lock();
        }
    }

    void unlockRing() {
        if (lock != null) {
            lock.unlock();
            if (!inbox.isEmpty() && !lock.isHeldByCurrentThread()) {
                deliverInbox();
            }
        }
    }

    /**
     * A shared ring: delivers the MSG_RINGs whose senders found its lock taken, unless
     * another thread holds it now, which delivers them when it lets go. A sender adds to the
     * inbox, then tries the lock; a holder lets go, then looks at the inbox: both volatile,
     * so one of the two sees the other and no message is left behind.
     */
    private void deliverInbox() {
        while (!inbox.isEmpty() && lock.tryLock()) {
            try {
                runInbox();
                poster.flush();
            } finally {
                lock.unlock();
            }
            wakeWaiterIfOther();
        }
    }

    /** Posting right of a shared ring: delivers its queued messages, oldest first. */
    private void runInbox() {
        for (MsgCarrier m; (m = inbox.poll()) != null; ) {
            m.runTaskWork(false);
        }
    }

    // =============================================================== submission

    /**
     * The calling thread takes the submission side for {@code call}: a SINGLE_ISSUER ring's
     * owner has it for good (others: EEXIST); otherwise it is {@link #sq}'s (EBUSY while
     * another thread holds it), kept from the first getSqe to the end of the submit.
     */
    private void claimSubmission(String call) {
        if (closed != 0) {
            throw closedException();
        }
        if (singleIssuer) {
            Thread o = owner;
            if (o == Thread.currentThread()) {
                return;
            }
            if (o != null) {
                throw notOwner(o);
            }
        }
        sq.claim(call);
    }

    /** End of a submit: a shared ring's submission side is free for any thread again. */
    private void releaseSubmission() {
        if (!singleIssuer) {
            sq.release();
        }
    }

    public Sqe getSqe() {
        claimSubmission("getSqe");
        int tail = sqTail;
        if (tail - sqHead == sqEntries) {
            return null;
        }
        sqTail = tail + 1;
        return sqes[tail & sqMask].reset();
    }

    public int sqReady() {
        checkOpen();
        return sqTail - sqHead;
    }

    public int sqSpaceLeft() {
        checkOpen();
        return sqEntries - (sqTail - sqHead);
    }

    public int submit() {
        claimSubmission("submit");
        try {
            TaskContext tc = enter();
            try {
                if (tc.hasPendingWork()) {
                    tc.runTaskWork(false);
                }
                int n = submitSqes(tc);
                if (tc.takeSelfQueued()) {
                    tc.runTaskWork(false);   // what this submit queued for its task, as io_uring_enter's way out
                }
                return n;
            } finally {
                tc.exit();
            }
        } finally {
            releaseSubmission();
        }
    }

    /** The wait is part of the submit: the submission side stays claimed until it returns. */
    public int submitAndWait(int waitNr) {
        claimSubmission("submitAndWait");
        try {
            TaskContext tc = enter();
            try {
                if (tc.hasPendingWork()) {
                    tc.runTaskWork(false);
                }
                int n = submitSqes(tc);
                if (waitNr > 0) {
                    sq.blocking(true);   // not handed over while it waits (SideClaim)
                    try {
                        reader.waiter.waitFor(tc, waitNr, 0L, true);
                    } finally {
                        sq.blocking(false);
                    }
                }
                return n;
            } finally {
                tc.exit();
            }
        } finally {
            releaseSubmission();
        }
    }

    private int submitSqes(TaskContext tc) {
        int head = sqHead;
        int tail = sqTail;
        if (head == tail) {
            return 0;
        }
        int n = 0;
        lockRing();
        try {
            if (cq.hasOverflow()) {
                poster.flushOverflow();
            }
            timeouts.beginBatch();
            for (;;) {
                try {
                    while (head != tail) {
                        Sqe sqe = sqes[head & sqMask];
                        head++;
                        n++;
                        if (!issuer.submitOne(sqe, tc) && !submitAll) {
                            break;
                        }
                    }
                    break;
                } catch (Throwable t) {
                    // An op's prep threw: that SQE fails as an invalid one (ThrownOp), off the hot loop.
                    sqHead = head - 1;   // if t is rethrown: the SQEs before it stay submitted
                    if (!PrepFailure.submitThrew(this, t, sqes[(head - 1) & sqMask], tc) && !submitAll) {
                        break;
                    }
                }
            }
            sqHead = head;
            links.endSubmit();
            timeouts.endBatch();
            flushDirect();
            poster.flush();
        } finally {
            unlockRing();
        }
        return n;
    }

    // =============================================================== completion (posting side)

    /** Wakes the threads waiting on this ring unless that is the caller. */
    void wakeWaiterIfOther() {
        cqWait.wakeIfOther();
    }

    /** Worker side of {@link Request#runInWorker()}. */
    void runInWorker(Request req) {
        issuer.runInWorker(req);
    }

    /** Completes a request from a worker, poller, timer or reaper through task work. */
    public void completeFromElsewhere(Request req, int res, int cflags) {
        issuer.completeFromElsewhere(req, res, cflags);
    }

    /**
     * Posting right: submits an O_DIRECT read or write to the device through native AIO.
     * 0 if submitted (completion comes as task work), -EAGAIN to use io-wq instead, or -errno.
     */
    public int submitDirect(Request req, boolean write, long address, long length, long offset) {
        if (directIo == null) {
            if (directIoUnavailable || closed != 0) {
                return -Errno.EAGAIN;
            }
            directIo = DirectIo.start(this, Math.min(Math.max(2 * sqEntries, 64), 4096));
            if (directIo == null) {
                directIoUnavailable = true;
                return -Errno.EAGAIN;
            }
        }
        return directIo.submit(req, write, address, length, offset);
    }

    /** Posting right: the issuing op says why it fails {@code req} (shown in the ReqFailed event). */
    public void explainFailure(Request req, String reason) {
        poster.explainFailure(req, reason);
    }

    /** Posting right: hands the direct I/O queued by this batch to the device. */
    private void flushDirect() {
        DirectIo d = directIo;
        if (d != null && d.hasPending()) {
            d.flush(issuer, poster);
        }
    }

    // =============================================================== ops' entry points (posting right)

    /**
     * Arms the request's poll wait for {@code mask}: 0 (completes on readiness), or -errno.
     * {@code readiness}: the fd's {@link Poller#readiness} just taken; what is ready in it
     * is reported to this request alone (Linux's arm-time vfs_poll).
     */
    public int armPoll(Request req, int mask, int readiness) {
        return issuer.arm(req, mask, readiness);
    }

    /**
     * POLL_REMOVE: claims the armed POLL_ADD with {@code userData} for cancellation (it ends
     * with -ECANCELED in its task). 0, -ENOENT if no armed poll has that user data, or
     * -EALREADY if its readiness was reported and its task work is on the way (Linux's
     * io_poll_disarm finds the poll owned by its wakeup): a one-shot poll completes with it,
     * a multishot one posts its CQE and stays armed.
     */
    public int removePoll(long userData) {
        Request target = armed.find(userData, true);
        if (target == null) {
            return -Errno.ENOENT;
        }
        if (target.pollQueued) {
            return -Errno.EALREADY;   // a claimed poll too: its task work owns it (io_poll_get_ownership)
        }
        issuer.cancelArmed(target);
        armed.remove(target);   // out of the cancel hash at once, as io_poll_disarm's hash_del
        return 0;
    }

    /** Selects a provided buffer for the request from its group (its len caps the size). */
    public int selectBuffer(Request req) {
        return buffers.select(req, req.bufGroup, req.len);
    }

    public void provideBuffers(int groupId, MemorySegment region, int bufLen, int count, int firstBid) {
        buffers.provide(groupId, region, bufLen, count, firstBid);
    }

    public int removeBuffers(int groupId, int count) {
        return buffers.remove(groupId, count);
    }

    Timers timers() {
        return timers;
    }

    /** LINK_TIMEOUT prep: it guards the chain member before it (-EINVAL if there is none). */
    public int attachLinkTimeout(Request lt) {
        Request prev = links.lastMember();
        if (prev == null || prev.opcode == io.jring.Opcode.LINK_TIMEOUT) {
            return -Errno.EINVAL;
        }
        lt.markSideState(Request.SIDE_LINK);
        lt.timeoutTarget = prev;
        return 0;
    }

    public void armTimeout(Request req, long nanos, int count, int flags) {
        timeouts.arm(req, nanos, count, flags);
    }

    /**
     * TIMEOUT_REMOVE: removes the TIMEOUT with {@code userData}, or with {@code Timeout.UPDATE}
     * moves its expiry (with LINK_TIMEOUT_UPDATE too: an armed LINK_TIMEOUT's) to {@code nanos}.
     * As in Linux, LINK_TIMEOUT_UPDATE without UPDATE is a plain removal.
     */
    public int removeTimeout(long userData, int flags, long nanos) {
        if ((flags & io.jring.Timeout.UPDATE) == 0) {
            return timeouts.remove(userData);
        }
        if ((flags & io.jring.Timeout.LINK_TIMEOUT_UPDATE) != 0) {
            return timeouts.updateLink(userData, nanos, flags);
        }
        return timeouts.update(userData, nanos, flags);
    }

    /** ASYNC_CANCEL, posting right (see {@link AsyncCancel#cancel}). */
    public int cancelMatching(Request canceller, int flags, long userData, int fd) {
        return asyncCancel.cancel(canceller, flags, userData, fd);
    }

    // =============================================================== MSG_RING

    /**
     * MSG_RING messages sent before this SINGLE_ISSUER ring had an owner; the owner takes
     * them when it appears (and a sender that sees the owner appear hands them over itself).
     * For a shared ring: messages whose sender found its lock taken; the holder delivers
     * them when it lets go ({@link #unlockRing}).
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<MsgCarrier> inbox =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** Carriers of this ring's messages to other threads' rings; the sender's posting right. */
    final MsgCarrierCache carriers = new MsgCarrierCache();

    /**
     * SEND_FD messages to this ring sent by remote task work and not yet run: close() waits
     * for them, since each holds a file and a sender's request that must complete. The
     * sender increments it and then re-reads {@link #closed}; close() sets {@link #closed}
     * and then reads it: volatile on both sides (Dekker), so either the sender sees the
     * ring closing (and backs out with -EBADFD) or close() sees the message and waits for
     * it. Decremented by whoever ran the message. Data messages are not counted: one caught
     * by a close just drops, like the CQEs the close drops.
     */
    private volatile int remoteFds;

    /**
     * Sender's posting right: delivers a message to {@code target} (DATA: a CQE with
     * {@code userData}/{@code res}/{@code cflags}; SEND_FD: install {@code fd}, a private
     * duplicate, into slot {@code dstIndex}, then the CQE unless skipped). Same owner (or
     * this ring): posted at once. Another thread's SINGLE_ISSUER ring: remote task work on
     * its owner's task (its local list with DEFER_TASKRUN, lazily woken). A shared ring:
     * posted under its lock if that is free, else left in its inbox for the lock's holder.
     * Returns the sender's result: 0, the install's -errno, -EBADFD if the target is
     * closed, or, for a SEND_FD by remote task work or through the inbox,
     * {@link OpDef#ISSUE_QUEUED}: {@code sender} completes with the install's result once
     * the target's task has run it, as Linux's io_msg_fd_remote.
     */
    public int sendMessage(RingContext target, long userData, int res, int cflags, int fd, int dstIndex,
                           boolean skipCqe, Request sender) {
        if (target.closed != 0) {
            if (fd >= 0) {
                FileTable.closeNow(fd);
            }
            return -Errno.EBADFD;
        }
        if (target == this) {
            return deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
        }
        if (target.legacyMsgRing && fd < 0) {
            target.cqLock.lock();
            try {
                target.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
                target.poster.publish();
            } finally {
                target.cqLock.unlock();
            }
            target.wakeWaiterIfOther();
            return 0;
        }
        TaskContext oc = target.ownerCtx;
        if (!target.singleIssuer) {
            // Only try the lock: this thread may hold its own ring's lock, and two rings
            // sending to each other would deadlock (Linux's io_lock_external_ctx only tries
            // it too). Taken: the message waits in the inbox for the holder.
            if (target.lock.tryLock()) {
                int r;
                try {
                    target.runInbox();
                    r = target.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
                    target.poster.flush();
                } finally {
                    target.unlockRing();
                }
                target.wakeWaiterIfOther();
                return r;
            }
        } else if (oc != null && oc == TaskContext.current()) {
            // This thread owns both rings and holds its token: it has the target's posting right.
            int r = target.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
            target.poster.flush();
            return r;
        }
        if (fd >= 0) {
            REMOTE_FDS.getAndAdd(target, 1);
            if (target.closed != 0) {
                target.remoteFdDone();
                FileTable.closeNow(fd);
                return -Errno.EBADFD;
            }
        }
        MsgCarrier m = carriers.take().set(target, userData, res, cflags, fd, dstIndex, skipCqe,
                fd >= 0 ? sender : null);
        if (!target.singleIssuer) {
            target.inbox.add(m);
            target.deliverInbox();
        } else if (oc != null) {
            target.queueRemote(m, oc);
        } else {
            target.inbox.add(m);
            target.drainInbox();
        }
        return fd >= 0 ? OpDef.ISSUE_QUEUED : 0;
    }

    /** A counted SEND_FD message has run (see {@link #remoteFds}). */
    void remoteFdDone() {
        REMOTE_FDS.getAndAdd(this, -1);
    }

    private void queueRemote(MsgCarrier m, TaskContext oc) {
        m.setCompletionWork(true);
        if (local != null) {
            local.add(m, true, oc);
        } else {
            oc.addTaskWork(m, kind);
        }
    }

    /** Hands messages that waited for an owner to it (any thread, once the owner is known). */
    private void drainInbox() {
        TaskContext oc = ownerCtx;
        if (oc == null) {
            return;
        }
        MsgCarrier m;
        while ((m = inbox.poll()) != null) {
            queueRemote(m, oc);
        }
    }

    /**
     * Target's posting right, or any thread once the ring is closing (then it only drops):
     * posts the message's CQE, installing the sent file first. Returns the sender's result:
     * 0; for SEND_FD the install's result, which the target's CQE carries too (0, the slot
     * for FILE_INDEX_ALLOC, or its -errno, then without a target CQE, as Linux), or -EOWNERDEAD if
     * the owner is gone ({@code ownerGone}: Linux's install task work run by an exiting
     * task); -EBADFD if the ring is closing. A data message still posts when the owner is
     * gone: the CQ outlives its owner, as Linux's fallback posts it too.
     */
    int deliverHere(long userData, int res, int cflags, int fd, int dstIndex, boolean skipCqe, boolean ownerGone) {
        if (closed != 0 || (ownerGone && fd >= 0)) {
            if (fd >= 0) {
                FileTable.closeNow(fd);
            }
            return closed != 0 ? -Errno.EBADFD : -Errno.EOWNERDEAD;
        }
        if (fd >= 0) {
            int r = resources.files.install(dstIndex, fd);
            FileTable.closeNow(fd);
            if (r < 0) {
                return r;
            }
            res = r;
        }
        if (!skipCqe) {
            poster.post(userData, res, cflags);
        }
        return fd >= 0 ? res : 0;   // SEND_FD: the sender's result is the install's (the slot for ALLOC)
    }

    /** close(): runs what is left in the inbox (the ring never got an owner); it only drops now. */
    private void drainInboxForClose() {
        MsgCarrier m;
        while ((m = inbox.poll()) != null) {
            m.runTaskWork(true);
        }
    }

    /** SEND_FD, sender's side: a private duplicate of fixed slot {@code index}, or -EBADF. */
    public int duplicateFixed(int index) {
        int fd = resources.resolveFixedFile(index);
        if (fd < 0) {
            return -Errno.EBADF;
        }
        int d = FileTable.dup(fd);
        return d >= 0 ? d : -Errno.EBADF;
    }

    /** Posting right: every armed request of this ring is asked to end (close()). */
    private void cancelAllArmed() {
        for (Request r = armed.first(); r != null; r = r.armedNext) {
            issuer.cancelArmed(r);
        }
        timeouts.cancelAll();
        drain.cancelAll();
    }

    /** Direct I/O, if started (any thread; see {@link #directIo}). */
    DirectIo directIoIfStarted() {
        return directIo;
    }

    /** Holder of {@code tc}'s token: its poller, retained for this ring on first use. */
    Poller pollerOf(TaskContext tc) {
        Poller p = tc.pollerIfOpen();
        if (p != null) {
            for (TaskContext c : pollUsers) {
                if (c == tc) {
                    return p;
                }
            }
        }
        synchronized (pollUsersLock) {
            TaskContext[] cur = pollUsers;
            TaskContext[] next = java.util.Arrays.copyOf(cur, cur.length + 1);
            next[cur.length] = tc;
            pollUsers = next;
        }
        return tc.retainPoller();
    }

    /** close(): lets go of every poller this ring used. */
    private void releasePollers() {
        TaskContext[] users;
        synchronized (pollUsersLock) {
            users = pollUsers;
            pollUsers = NO_CONTEXTS;
        }
        for (TaskContext c : users) {
            c.withToken(c::releasePoller);
        }
    }

    /**
     * The reaping thread, caller completion: the write goes back to its task to be flushed
     * there. Not a lazy add: until the flush runs the write is in flight for its file, and
     * a thread waiting for that (FSYNC in io-wq) must not wait on the owner's countdown.
     */
    void completeDirectCaller(Request req, int res) {
        issuer.completeInTask(req, res, 0, DIRECT_FLUSH_COMPLETE, true, false);
    }

    /**
     * The calling thread, outside a task-work run: reaps this ring's device completions and
     * runs its pending task work and this ring's local work, as a wait would. For waits on a
     * file's in-flight direct I/O ({@link CallerCompletions}).
     */
    void runOwnPendingWork() {
        TaskContext tc = TaskContext.current();
        if (tc.isRunningTaskWork() || isClosing() || (singleIssuer && ownerCtx != tc)) {
            return;
        }
        reader.waiter.catchUp();
    }

    /**
     * OPENAT, SOCKET or ACCEPT with a file index: descriptor {@code fd} goes into the fixed-file
     * table as the request's file index asks (Linux's io_fixed_fd_install). {@code postingRight}:
     * the caller issues inline or retries in the request's task, so the install happens now and
     * the CQE keeps its place among the submit's: 0 (the slot for ALLOC) or the install's -errno.
     * An io-wq worker hands {@code fd} to the request's task instead ({@link #INSTALL_OPENED}),
     * and this returns {@link OpDef#ISSUE_QUEUED}.
     */
    public int installDirect(Request req, int fd, boolean postingRight) {
        if (postingRight) {
            return resources.files.installOwned(req.fileIndex, fd);
        }
        issuer.completeInTask(req, fd, req.cflags, INSTALL_OPENED, true, true);
        return OpDef.ISSUE_QUEUED;
    }

    /** The DirectIo reaper: a device completion, handed to the request's task as completion work. */
    void completeDirect(Request req, int res) {
        issuer.completeInTask(req, res, 0, DIRECT_COMPLETE, true, true);
    }

    public RingResources resources() {
        return resources;
    }

    @Override
    public void beginTaskRun() {
        lockRing();
    }

    @Override
    public void endTaskRun() {
        try {
            flushDirect();
            poster.flush();
        } finally {
            unlockRing();
        }
    }

    @Override
    public void wakeHelpers() {
        cqWait.wakeAll();
    }

    // =============================================================== completion (reader side)

    /** Any thread may look at the CQ (it is shared memory in Linux). */
    public int cqReady() {
        return reader.cqReady();
    }

    public Cqe peekCqe() {
        return reader.peekCqe();
    }

    public Cqe waitCqe() {
        return reader.waitCqe();
    }

    /** Waits up to {@code nanos}; null on timeout. */
    public Cqe waitCqe(long nanos) {
        return reader.waitCqe(nanos);
    }

    public void cqeSeen(Cqe cqe) {
        reader.cqeSeen(cqe);
    }

    public int forEachCqe(CqeHandler handler) {
        return reader.forEachCqe(handler);
    }

    // =============================================================== registration

    /**
     * Runs a registration change under the posting right. A SINGLE_ISSUER ring nobody has
     * entered yet has nothing in flight and no other poster: the change runs as it is, and
     * registering does not make this thread the owner (the first thread that submits is).
     * A thread that claims the ring meanwhile would be using it concurrently, which the
     * API does not allow.
     */
    private void underPostingRight(Runnable change) {
        if (singleIssuer && owner == null) {
            checkUsable();
            change.run();
            return;
        }
        TaskContext tc = enter();
        try {
            lockRing();
            try {
                change.run();
            } finally {
                unlockRing();
            }
        } finally {
            tc.exit();
        }
    }

    public void registerFiles(int[] fds) {
        underPostingRight(() -> resources.files.register(fds));
    }

    public void updateFiles(int offset, int[] fds) {
        underPostingRight(() -> resources.files.update(offset, fds));
    }

    public void unregisterFiles() {
        underPostingRight(resources.files::unregister);
    }

    public void registerBuffers(MemorySegment[] bufs) {
        underPostingRight(() -> resources.buffers.register(bufs));
    }

    public void unregisterBuffers() {
        underPostingRight(resources.buffers::unregister);
    }

    /**
     * As Linux's io_register_iowq_max_workers: the non-zero values are remembered unclamped
     * (ctx->iowq_limits), then the remembered ones are applied to io-wq clamped to the soft
     * RLIMIT_NPROC of now (io_wq_max_workers), so a lowered limit also takes effect on a call
     * that changes nothing ("0, 0"). Returns the limits io-wq had before.
     */
    public int[] registerIoWqMaxWorkers(int bounded, int unbound) {
        checkUsable();
        if (bounded < 0 || unbound < 0) {
            throw new IoUringException(Errno.EINVAL, "max workers must be >= 0 (0 = unchanged), got "
                    + bounded + ", " + unbound);
        }
        long nproc = ResourceLimits.softLimit(SysCallContext.current(), ResourceLimits.RLIMIT_NPROC);
        if (nproc < 0) {
            nproc = Long.MAX_VALUE;   // cannot fail on Linux (EFAULT, EINVAL only): no limit known
        }
        synchronized (iowqLimits) {
            if (bounded != 0) {
                iowqLimits[0] = bounded;
            }
            if (unbound != 0) {
                iowqLimits[1] = unbound;
            }
            // A limit clamped to 0 (RLIMIT_NPROC 0) leaves the worker limit as it is, as in Linux.
            return iowq.setMaxWorkers((int) Math.min(iowqLimits[0], nproc), (int) Math.min(iowqLimits[1], nproc));
        }
    }

    // =============================================================== close

    /**
     * Cancels what can be cancelled, waits until every request has finished, releases io-wq.
     * Any thread; the second call returns at once.
     */
    public void close() {
        if (!CLOSED.compareAndSet(this, 0, 1)) {
            return;
        }
        wakeHelpers();
        iowq.cancel(w -> w instanceof Request r && r.ring == this, true);
        TaskContext me = TaskContext.current();
        // An interrupt does not stop close() (it must wait for what is in flight), but its
        // flag would make every park return at once: keep it aside and set it again after.
        boolean interrupted = Thread.interrupted();
        while (pool.inFlight() > 0) {
            drainForClose();
            if (pool.inFlight() == 0) {
                break;
            }
            interrupted |= parkForClose(me);
        }
        while (remoteFds > 0) {
            // SEND_FD messages on their way in: their senders' requests wait for the result.
            drainInboxForClose();
            drainForClose();
            if (remoteFds == 0) {
                break;
            }
            interrupted |= parkForClose(me);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        iowq.release();
        timers.close();
        releasePollers();
        if (directIo != null) {
            directIo.close();
        }
        resources.release();
        for (TaskContext c : submitters) {
            c.rings().removeWaker(this);
        }
        TaskContext oc = ownerCtx;
        if (oc != null) {
            oc.rings().removeWaker(this);
            if (local != null) {
                oc.rings().removeLocalWork(local);
            }
        }
        submitters = NO_CONTEXTS;
        closed = 2;
    }

    /** close(): waits up to 1 ms for in-flight work to end; true if it was interrupted meanwhile (flag cleared). */
    private boolean parkForClose(TaskContext me) {
        cqWait.set(false, me);
        LockSupport.parkNanos(this, 1_000_000L);
        cqWait.set(false, null);
        return Thread.interrupted();
    }

    /** Runs whatever task work holds this ring's requests, borrowing the owners' tokens. */
    private void drainForClose() {
        if (singleIssuer) {
            TaskContext oc = ownerCtx;
            if (oc != null) {
                oc.withToken(() -> {
                    cancelAllArmed();
                    oc.runTaskWork(false);
                    if (local != null) {
                        oc.runList(local.list, false);
                    }
                });
            }
        } else {
            lockRing();
            try {
                cancelAllArmed();
            } finally {
                unlockRing();
            }
            TaskContext self = TaskContext.current();
            for (TaskContext c : submitters) {
                if (c == self) {
                    c.enter();
                    try {
                        c.runTaskWork(false);
                    } finally {
                        c.exit();
                    }
                } else if (c.hasPendingWork()) {
                    c.tryHelp(false);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "RingContext[" + id + " sq=" + sqEntries + " cq=" + cq.entries() + " flags=0x"
                + Integer.toHexString(setupFlags) + " kind=" + kind + "]";
    }
}
