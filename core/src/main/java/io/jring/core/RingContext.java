package io.jring.core;

import io.jring.Cqe;
import io.jring.CqeHandler;
import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.Opcode;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;
import io.jring.TaskWorkKind;
import io.jring.iowq.IoWq;
import io.jring.ops.OpDef;
import io.jring.ops.OpTable;
import io.jring.trace.CompleteEvent;
import io.jring.trace.CqeOverflowEvent;
import io.jring.trace.ReqFailedEvent;
import io.jring.trace.SubmitSqeEvent;
import io.jring.tw.HelperWaker;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWorkTarget;
import io.jring.sys.SysCallContext;

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

    static final TaskWorkFunc COMPLETE = (req, cancel) ->
            req.ring.postAndFree(req, cancel || req.ring.isClosing() ? -Errno.ECANCELED : req.res, req.cflags);

    final int id = IDS.incrementAndGet();
    final int sqEntries;
    final int setupFlags;
    final boolean singleIssuer;
    final boolean submitAll;
    final TaskWorkKind kind;

    private final Sqe[] sqes;
    private final int sqMask;
    /** Application thread only. */
    private int sqHead;
    private int sqTail;

    final CompletionQueue cq;
    final RequestPool pool;
    /** Shared rings only (null for SINGLE_ISSUER): the posting right. */
    private final ReentrantLock lock;
    /** DEFER_TASKRUN rings only. */
    private final LocalWorkList local;
    private final IoWq iowq;
    /** Registered files and buffers: touched under the posting right only. */
    private final FileTable files = new FileTable();
    private final BufferTable buffers = new BufferTable();
    /** Native scratch for inline syscalls; used by the posting right's holder only. */
    private final SysCallContext inlineSys = SysCallContext.shared();
    /** Grown on demand for vectors longer than the scratch's iovec array (inline side). */
    private MemorySegment largeIov;
    private java.lang.foreign.Arena largeIovArena;

    /** SINGLE_ISSUER: the first thread that used the ring. Set once by CAS, read by anyone. */
    private volatile Thread owner;
    /** SINGLE_ISSUER: the owner's task context; written by the owner right after {@link #owner}, read by close(). */
    private volatile TaskContext ownerCtx;
    /** Shared rings: contexts that submitted here (copy-on-write, under this). Waiters help them. */
    private volatile TaskContext[] submitters = NO_CONTEXTS;
    /** Shared rings: the context that submitted last (fast path of registration); plain, racy-benign. */
    private TaskContext lastSubmitter;

    /**
     * The thread blocked waiting for CQEs, if any. Written volatile by the waiter before it
     * re-checks the CQ; read volatile by posters right after their volatile tail store
     * (Dekker: one of them sees the other).
     */
    private volatile Thread waiter;
    /** 0 open, 1 closing, 2 closed. CAS by close(), volatile reads everywhere. */
    private volatile int closed;

    private static final VarHandle OWNER;
    private static final VarHandle CLOSED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            OWNER = l.findVarHandle(RingContext.class, "owner", Thread.class);
            CLOSED = l.findVarHandle(RingContext.class, "closed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public RingContext(RingParams p) {
        this.sqEntries = p.sqEntries();
        this.setupFlags = p.flags();
        this.singleIssuer = (p.flags() & Setup.SINGLE_ISSUER) != 0;
        this.submitAll = (p.flags() & Setup.SUBMIT_ALL) != 0;
        this.kind = p.kind();
        this.sqes = new Sqe[sqEntries];
        for (int i = 0; i < sqEntries; i++) {
            sqes[i] = API.newSqe();
        }
        this.sqMask = sqEntries - 1;
        this.cq = new CompletionQueue(p.cqEntries());
        this.pool = new RequestPool(this, sqEntries);
        this.lock = singleIssuer ? null : new ReentrantLock();
        this.local = (p.flags() & Setup.DEFER_TASKRUN) != 0 ? new LocalWorkList(kind) : null;
        if (p.attachWq() != null) {
            this.iowq = p.attachWq().iowq.attach();
        } else {
            this.iowq = new IoWq("r" + id, IoWq.defaultMaxBounded(sqEntries), IoWq.DEFAULT_MAX_UNBOUND);
        }
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

    private IoUringException closedException() {
        return new IoUringException(Errno.EBADFD, "ring " + id + " is closed");
    }

    /** Cheap checks for calls that do not enter: closed, and the SINGLE_ISSUER owner. */
    private void checkUsable() {
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
    private TaskContext enter() {
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

    private void lockRing() {
        if (lock != null) {
            lock.lock();
        }
    }

    private void unlockRing() {
        if (lock != null) {
            lock.unlock();
        }
    }

    // =============================================================== submission

    public Sqe getSqe() {
        checkUsable();
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

    private void checkOpen() {
        if (closed != 0) {
            throw closedException();
        }
    }

    public int submit() {
        TaskContext tc = enter();
        try {
            if (tc.hasPendingWork()) {
                tc.runTaskWork(false);
            }
            return submitSqes(tc);
        } finally {
            tc.exit();
        }
    }

    public int submitAndWait(int waitNr) {
        TaskContext tc = enter();
        try {
            if (tc.hasPendingWork()) {
                tc.runTaskWork(false);
            }
            int n = submitSqes(tc);
            if (waitNr > 0) {
                waitFor(tc, waitNr, 0L);
            }
            return n;
        } finally {
            tc.exit();
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
                cq.flushOverflow();
            }
            while (head != tail) {
                Sqe sqe = sqes[head & sqMask];
                head++;
                n++;
                if (!submitOne(sqe, tc) && !submitAll) {
                    break;
                }
            }
            sqHead = head;
            flushCompletions();
        } finally {
            unlockRing();
        }
        return n;
    }

    /** One SQE -> one request, validated and issued. False if it failed before issue. */
    private boolean submitOne(Sqe sqe, TaskContext tc) {
        Request req = pool.alloc();
        req.init(tc, sqe);
        OpDef def = OpTable.get(req.opcode);
        req.def = def;
        SubmitSqeEvent ev = new SubmitSqeEvent();
        if (ev.shouldCommit()) {
            ev.ring = id;
            ev.opcode = Opcode.name(req.opcode);
            ev.userData = req.userData;
            ev.flags = req.flags;
            ev.commit();
        }
        int err;
        String reason;
        if (def == null) {
            err = -Errno.EINVAL;
            reason = "unknown or unsupported opcode " + req.opcode;
        } else if ((req.flags & ~SqeFlags.VALID) != 0) {
            err = -Errno.EINVAL;
            reason = "unknown SQE flag bits 0x" + Integer.toHexString(req.flags & ~SqeFlags.VALID);
        } else if ((req.flags & SqeFlags.BUFFER_SELECT) != 0 && !def.bufferSelect()) {
            err = -Errno.EINVAL;
            reason = "BUFFER_SELECT is not valid for " + Opcode.name(req.opcode);
        } else {
            err = def.prep(req, sqe);
            reason = err != 0 ? "invalid SQE for " + Opcode.name(req.opcode) : null;
        }
        if (err != 0) {
            fail(req, err, reason);
            return false;
        }
        if ((req.flags & SqeFlags.ASYNC) != 0 || def.forceAsync()) {
            punt(req);
        } else {
            issueInline(req);
        }
        return true;
    }

    private void issueInline(Request req) {
        int r = req.def.issue(req, true);
        if (r == OpDef.ISSUE_QUEUED) {
            return;
        }
        if (r == -Errno.EAGAIN) {
            punt(req);
            return;
        }
        postAndFree(req, r, req.cflags);
    }

    /** Hands a request to io-wq (the kernel's io_queue_iowq). */
    void punt(Request req) {
        req.def.preparePunt(req);
        iowq.enqueue(req);
    }

    /** io-wq worker: runs the op blocking and hands the result back as completion work. */
    void runInWorker(Request req) {
        int r = closed != 0 ? -Errno.ECANCELED : req.def.issue(req, false);
        if (r == OpDef.ISSUE_QUEUED) {
            return;
        }
        completeFromElsewhere(req, r, req.cflags);
    }

    /**
     * Any thread other than the posting right's holder (worker, poller, timer, reaper):
     * completes the request through task work in its task, flagged as completion work.
     */
    public void completeFromElsewhere(Request req, int res, int cflags) {
        req.res = res;
        req.cflags = cflags;
        req.taskFunc = COMPLETE;
        req.setCompletionWork(true);
        queueTaskWork(req, true);
    }

    /** Queues a request's task work: the ring's local list (DEFER_TASKRUN) or its task's list. */
    void queueTaskWork(Request req, boolean lazy) {
        if (local != null) {
            local.add(req, lazy, req.task);
        } else {
            req.task.addTaskWork(req, kind);
        }
    }

    // =============================================================== completion (posting side)

    /** Holder of the posting right: posts the request's CQE (unless skipped) and frees it. */
    void postAndFree(Request req, int res, int cflags) {
        if (res < 0) {
            ReqFailedEvent ev = new ReqFailedEvent();
            if (ev.shouldCommit()) {
                ev.ring = id;
                ev.opcode = Opcode.name(req.opcode);
                ev.userData = req.userData;
                ev.errno = Errno.name(res);
                ev.commit();
            }
        }
        if (res < 0 || (req.flags & SqeFlags.CQE_SKIP_SUCCESS) == 0) {
            post(req.userData, res, cflags);
        }
        pool.release(req);
    }

    /** A request that failed before it was issued. */
    private void fail(Request req, int err, String reason) {
        ReqFailedEvent ev = new ReqFailedEvent();
        if (ev.shouldCommit()) {
            ev.ring = id;
            ev.opcode = Opcode.name(req.opcode);
            ev.userData = req.userData;
            ev.errno = Errno.name(err);
            ev.reason = reason;
            ev.commit();
        }
        post(req.userData, err, 0);
        pool.release(req);
    }

    /** Holder of the posting right: fills a CQE (published at the next flush). */
    void post(long userData, int res, int cflags) {
        if (!cq.post(userData, res, cflags)) {
            CqeOverflowEvent ov = new CqeOverflowEvent();
            if (ov.shouldCommit()) {
                ov.ring = id;
                ov.userData = userData;
                ov.res = res;
                ov.overflowLength = cq.overflow.size();
                ov.commit();
            }
        }
        CompleteEvent ev = new CompleteEvent();
        if (ev.shouldCommit()) {
            ev.ring = id;
            ev.userData = userData;
            ev.res = res;
            ev.cflags = cflags;
            ev.commit();
        }
    }

    /** Publishes posted CQEs and wakes a thread waiting on this ring if it is not us. */
    private void flushCompletions() {
        if (cq.flush()) {
            Thread w = waiter;
            if (w != null && w != Thread.currentThread()) {
                LockSupport.unpark(w);
            }
        }
    }

    @Override
    public void beginTaskRun() {
        lockRing();
    }

    @Override
    public void endTaskRun() {
        try {
            flushCompletions();
        } finally {
            unlockRing();
        }
    }

    @Override
    public void wakeHelpers() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    // =============================================================== completion (reader side)

    /** Any thread may look at the CQ (it is shared memory in Linux). */
    public int cqReady() {
        checkOpen();
        return cq.ready();
    }

    public Cqe peekCqe() {
        checkUsable();
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        TaskContext tc = enter();
        try {
            runPending(tc);
            if (!singleIssuer) {
                helpSubmitters(tc);
            }
        } finally {
            tc.exit();
        }
        return cq.peek();
    }

    public Cqe waitCqe() {
        checkUsable();
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        TaskContext tc = enter();
        try {
            waitFor(tc, 1, 0L);
        } finally {
            tc.exit();
        }
        return cq.peek();
    }

    /** Waits up to {@code nanos}; null on timeout. */
    public Cqe waitCqe(long nanos) {
        checkUsable();
        Cqe c = cq.peek();
        if (c != null) {
            return c;
        }
        long deadline = System.nanoTime() + Math.max(nanos, 0L);
        if (deadline == 0L) {
            deadline = 1L;
        }
        TaskContext tc = enter();
        try {
            if (!waitFor(tc, 1, deadline)) {
                return null;
            }
        } finally {
            tc.exit();
        }
        return cq.peek();
    }

    public void cqeSeen(Cqe cqe) {
        checkUsable();
        if (cq.ready() <= 0) {
            throw new IoUringException(Errno.EINVAL, "cqeSeen without a ready CQE");
        }
        cq.advance(1);
    }

    public int forEachCqe(CqeHandler handler) {
        checkUsable();
        if (cq.ready() == 0 || cq.hasOverflow()) {
            TaskContext tc = enter();
            try {
                runPending(tc);
                if (!singleIssuer) {
                    helpSubmitters(tc);
                }
            } finally {
                tc.exit();
            }
        }
        int n = 0;
        for (;;) {
            int h = cq.headIndex();
            int t = cq.tailAcquire();
            if (h == t) {
                if (!cq.hasOverflow() || closed != 0) {
                    return n;
                }
                TaskContext tc = enter();
                try {
                    flushOverflow();
                } finally {
                    tc.exit();
                }
                if (cq.ready() == 0) {
                    return n;
                }
                continue;
            }
            Cqe c = cq.at(h);
            long ud = c.userData();
            int res = c.res();
            int fl = c.flags();
            cq.advance(1);
            n++;
            handler.handle(ud, res, fl);
        }
    }

    /** Token held: runs this thread's task work, this ring's local work, and moves overflow in. */
    private void runPending(TaskContext tc) {
        if (tc.hasPendingWork()) {
            tc.runTaskWork(false);
        }
        if (local != null && !local.isEmpty()) {
            tc.runList(local.list, false);
        }
        if (cq.hasOverflow()) {
            flushOverflow();
        }
    }

    private void flushOverflow() {
        lockRing();
        try {
            cq.flushOverflow();
            flushCompletions();
        } finally {
            unlockRing();
        }
    }

    /** Shared rings: runs the work of submitters that are away (Linux would signal them). */
    private void helpSubmitters(TaskContext self) {
        for (TaskContext c : submitters) {
            if (c != self && c.hasPendingWork()) {
                c.tryHelp(false);
            }
        }
    }

    private boolean submittersHaveWork(TaskContext self) {
        for (TaskContext c : submitters) {
            if (c != self && c.hasPendingWork()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The wait loop (DESIGN.md section 4): run task work; enough CQEs -> done; else publish
     * "sleeping" (and the countdown for DEFER_TASKRUN), re-check, park. Token held on entry
     * and exit. Returns false on timeout ({@code deadline} 0 = none).
     */
    private boolean waitFor(TaskContext tc, int n, long deadline) {
        for (;;) {
            runPending(tc);
            if (cq.ready() >= n) {
                return true;
            }
            if (closed != 0) {
                throw closedException();
            }
            if (!singleIssuer) {
                helpSubmitters(tc);
                if (cq.ready() >= n) {
                    return true;
                }
            }
            long now = 0L;
            if (deadline != 0L && (now = System.nanoTime()) - deadline >= 0) {
                return false;
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IoUringException(Errno.EINTR, "interrupted while waiting for completions");
            }
            waiter = Thread.currentThread();
            if (local != null) {
                local.arm(n - cq.ready());
            }
            tc.prepareToSleep();
            boolean sleep = !tc.hasPendingWork()
                    && (local == null || local.isEmpty())
                    && cq.ready() < n
                    && closed == 0
                    && (singleIssuer || !submittersHaveWork(tc));
            if (sleep) {
                if (deadline == 0L) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, deadline - now);
                }
            }
            tc.wakeUpFromSleep();
            if (local != null) {
                local.disarm();
            }
            waiter = null;
        }
    }

    // =============================================================== registration

    /** Runs a registration change under the posting right. */
    private void underPostingRight(Runnable change) {
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
        underPostingRight(() -> files.register(fds));
    }

    public void updateFiles(int offset, int[] fds) {
        underPostingRight(() -> files.update(offset, fds));
    }

    public void unregisterFiles() {
        underPostingRight(files::unregister);
    }

    public void registerBuffers(MemorySegment[] bufs) {
        underPostingRight(() -> buffers.register(bufs));
    }

    public void unregisterBuffers() {
        underPostingRight(buffers::unregister);
    }

    /** Posting right: the descriptor in a fixed-file slot, or -EBADF. */
    public int resolveFixedFile(int index) {
        return files.resolve(index);
    }

    /** Posting right: 0 if the range lies in registered buffer {@code index}, else -EFAULT. */
    public int checkFixedBuffer(int index, MemorySegment addr, long len) {
        return buffers.check(index, addr, len);
    }

    /** Posting right: the inline syscall scratch. */
    public SysCallContext inlineSys() {
        return inlineSys;
    }

    /**
     * An iovec array for {@code count} entries beyond the scratch's capacity: on the inline
     * side a ring-owned array grown on demand; in a worker a fresh one (rare: > 64 buffers).
     */
    public MemorySegment largeIovecs(int count, boolean inline) {
        long bytes = (long) count * io.jring.sys.Structs.Iovec.SIZE;
        if (!inline) {
            return java.lang.foreign.Arena.ofAuto().allocate(bytes, 8);
        }
        if (largeIov == null || largeIov.byteSize() < bytes) {
            if (largeIovArena != null) {
                largeIovArena.close();
            }
            largeIovArena = java.lang.foreign.Arena.ofShared();
            largeIov = largeIovArena.allocate(bytes, 8);
        }
        return largeIov;
    }

    public int[] registerIoWqMaxWorkers(int bounded, int unbound) {
        checkUsable();
        if (bounded < 0 || unbound < 0) {
            throw new IoUringException(Errno.EINVAL, "max workers must be >= 0 (0 = unchanged), got "
                    + bounded + ", " + unbound);
        }
        return iowq.setMaxWorkers(bounded, unbound);
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
        Thread me = Thread.currentThread();
        while (pool.inFlight() > 0) {
            drainForClose();
            if (pool.inFlight() == 0) {
                break;
            }
            waiter = me;
            LockSupport.parkNanos(this, 1_000_000L);
            waiter = null;
        }
        iowq.release();
        files.release();
        inlineSys.close();
        if (largeIovArena != null) {
            largeIovArena.close();
        }
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
                    oc.runTaskWork(false);
                    if (local != null) {
                        oc.runList(local.list, false);
                    }
                });
            }
        } else {
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
