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
     * OPENAT into a fixed-file slot: the descriptor a worker opened ({@code req.res}) goes
     * into the table here, under the posting right, and the CQE carries the install's result.
     * A cancelled request closes it instead: no descriptor may outlive its request.
     */
    static final TaskWorkFunc INSTALL_OPENED = (req, cancel) -> {
        if (cancel || req.ring.isClosing()) {
            FileTable.closeNow(req.res);
        } else {
            req.res = req.ring.resources.files.installOwned(req.fileIndex, req.res);
        }
        RingContext.COMPLETE.run(req, cancel);
    };

    static final TaskWorkFunc COMPLETE = (req, cancel) ->
            req.ring.poster.postAndFree(req, cancel || req.ring.isClosing() ? -Errno.ECANCELED : req.res, req.cflags);

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
            this.iowq = new IoWq("r" + id, IoWq.defaultMaxBounded(sqEntries), IoWq.DEFAULT_MAX_UNBOUND);
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
                + o.getName() + "'; submit and wait from that thread");
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
        tc.registerSharedRing(this);
    }

    void lockRing() {
        if (lock != null) {
            lock.lock();
        }
    }

    void unlockRing() {
        if (lock != null) {
            lock.unlock();
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
                return submitSqes(tc);
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
                    reader.waitFor(tc, waitNr, 0L, true);
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
            while (head != tail) {
                Sqe sqe = sqes[head & sqMask];
                head++;
                n++;
                if (!issuer.submitOne(sqe, tc) && !submitAll) {
                    break;
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

    /** Arms the request's poll wait for {@code mask}: 0 (completes on readiness), or -errno. */
    public int armPoll(Request req, int mask) {
        return issuer.arm(req, mask, true);
    }

    /**
     * A POLL_ADD was just armed by this thread: readiness that is there now is taken now, as
     * Linux's arm-time vfs_poll does, so what happens after the submit (a peer closing, more
     * data) is a wakeup of its own: another CQE for a multishot poll, as in Linux, instead of
     * merging into the first one. One epoll_wait(0); dispatch only queues task work.
     */
    public void harvestReadinessNow(Request req) {
        io.jring.poll.Poller p = req.task.pollerIfOpen();
        if (p != null) {
            p.pollNow();
        }
    }

    /**
     * POLL_REMOVE: claims the armed POLL_ADD with {@code userData} for cancellation (it ends
     * with -ECANCELED in its task). 0, or -ENOENT if no armed poll has that user data.
     */
    public int removePoll(long userData) {
        Request target = armed.find(userData, true);
        if (target == null) {
            return -Errno.ENOENT;
        }
        issuer.cancelArmed(target);
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

    /**
     * ASYNC_CANCEL: cancels the requests that match (by user data, by fd with
     * {@code Cancel.FD}, or any with {@code Cancel.ANY}; all of them with {@code Cancel.ALL}
     * or ANY) in io-wq, among armed polls and among timeouts, in Linux's order. Returns 0 (or
     * the count with ALL/ANY), -ENOENT, or -EALREADY if a match runs in io-wq.
     */
    public int cancelMatching(Request canceller, int flags, long userData, int fd) {
        boolean all = (flags & (io.jring.Cancel.ALL | io.jring.Cancel.ANY)) != 0;
        // Requests on their way from a worker to their poll (async hybrid's ARM) or to their
        // CQE are in this task's task work: run it first, so cancel finds them armed.
        TaskContext self = canceller.task;
        if (!self.isRunningTaskWork()) {
            if (self.hasPendingWork()) {
                self.runTaskWork(false);
            }
            if (local != null && !local.isEmpty()) {
                self.runList(local.list, false);
            }
        }
        java.util.function.Predicate<Request> match;
        if ((flags & io.jring.Cancel.ANY) != 0) {
            match = r -> r != canceller;
        } else if ((flags & io.jring.Cancel.FD) != 0) {
            match = r -> r != canceller && r.fd == fd;
        } else {
            match = r -> r != canceller && r.userData == userData;
        }
        int count = 0;
        IoWq.Cancellation c = iowq.cancel(w -> w instanceof Request r && r.ring == this && match.test(r)
                && flagCancel(r), all);
        count += c.cancelled();
        boolean running = c.result() == IoWq.CancelResult.RUNNING;
        if (all && running) {
            count++;   // Linux counts a running match too (it signals the worker)
        }
        if (!all && (count > 0 || running)) {
            return count > 0 ? 0 : -Errno.EALREADY;
        }
        for (Request r = armed.first(); r != null; r = r.armedNext) {
            if (!r.pollCancelled && match.test(r)) {
                issuer.cancelArmed(r);
                count++;
                if (!all) {
                    return 0;
                }
            }
        }
        if ((flags & io.jring.Cancel.FD) == 0) {
            int n = timeouts.cancel(match, all);
            count += n;
            if (!all && n > 0) {
                return 0;
            }
        }
        if (all) {
            return count;   // ALL and ANY answer with the count, 0 included, as Linux
        }
        return running ? -Errno.EALREADY : -Errno.ENOENT;
    }

    /**
     * A link timeout expired: cancels its target. 0, -EALREADY (running in io-wq: it is
     * flagged, so it ends -ECANCELED rather than arm or block again), or -ENOENT. Armed
     * requests are looked for first: a worker that just handed one over to its poll may
     * still look busy to io-wq.
     */
    int cancelRequest(Request target) {
        if (target.inArmedList) {
            return issuer.cancelArmed(target) ? 0 : -Errno.EALREADY;
        }
        if (target.opcode == io.jring.Opcode.TIMEOUT && timeouts.cancel(r -> r == target, false) > 0) {
            return 0;
        }
        IoWq.Cancellation c = iowq.cancel(w -> w == target && flagCancel(target), false);
        if (c.cancelled() > 0) {
            return 0;
        }
        if (c.result() == IoWq.CancelResult.RUNNING) {
            return -Errno.EALREADY;
        }
        // In transit between a worker and its poll (its ARM task work is queued): the mark
        // makes that task work end it with -ECANCELED instead of arming it.
        target.markSideState(Request.SIDE_CANCEL);
        target.cancelRequested = true;
        return 0;
    }

    /** Marks a request a cancel found in io-wq (queued ones are removed; a running one sees the mark). */
    private static boolean flagCancel(Request r) {
        r.markSideState(Request.SIDE_CANCEL);
        r.cancelRequested = true;
        return true;
    }

    // =============================================================== MSG_RING

    /**
     * MSG_RING messages sent before this SINGLE_ISSUER ring had an owner; the owner takes
     * them when it appears (and a sender that sees the owner appear hands them over itself).
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
     * posted under its lock. Returns the sender's result: 0, the install's -errno, -EBADFD
     * if the target is closed, or, for a SEND_FD by remote task work,
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
                target.poster.flush();
            } finally {
                target.cqLock.unlock();
            }
            target.wakeWaiterIfOther();
            return 0;
        }
        if (!target.singleIssuer) {
            int r;
            target.lockRing();
            try {
                r = target.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
                target.poster.flush();
            } finally {
                target.unlockRing();
            }
            target.wakeWaiterIfOther();
            return r;
        }
        TaskContext oc = target.ownerCtx;
        if (oc != null && oc == TaskContext.current()) {
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
        if (oc != null) {
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
        reader.catchUp();
    }

    /**
     * io-wq worker, OPENAT with a file index: descriptor {@code fd} is handed to the
     * request's task, which installs it ({@link #INSTALL_OPENED}). Returns
     * {@link OpDef#ISSUE_QUEUED}: the request completes there.
     */
    public int completeOpenDirect(Request req, int fd) {
        issuer.completeInTask(req, fd, 0, INSTALL_OPENED, true, true);
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
        while (pool.inFlight() > 0) {
            drainForClose();
            if (pool.inFlight() == 0) {
                break;
            }
            cqWait.set(false, me);
            LockSupport.parkNanos(this, 1_000_000L);
            cqWait.set(false, null);
        }
        while (remoteFds > 0) {
            // SEND_FD messages on their way in: their senders' requests wait for the result.
            drainInboxForClose();
            drainForClose();
            if (remoteFds == 0) {
                break;
            }
            cqWait.set(false, me);
            LockSupport.parkNanos(this, 1_000_000L);
            cqWait.set(false, null);
        }
        iowq.release();
        timers.close();
        releasePollers();
        if (directIo != null) {
            directIo.close();
        }
        resources.release();
        for (TaskContext c : submitters) {
            c.unregisterSharedRing(this);
        }
        submitters = NO_CONTEXTS;
        closed = 2;
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
