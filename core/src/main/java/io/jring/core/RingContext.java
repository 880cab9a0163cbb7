package io.jring.core;

import io.jring.Errno;
import io.jring.IoUringException;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.TaskWorkKind;
import io.jring.iowq.IoWq;
import io.jring.tw.HelperWaker;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWorkTarget;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
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

    final int id = IDS.incrementAndGet();
    final int sqEntries;
    final int setupFlags;
    final boolean singleIssuer;
    final boolean submitAll;
    final TaskWorkKind kind;

    /** The SQ ring and the submit loop (io_submit_sqes); the submitting thread only. */
    final SubmissionQueue sq;
    /** Who may submit, and the entry around the submit loop. */
    private final SubmitEntry submission;

    final CompletionQueue cq;
    final RequestPool pool;
    /** Shared rings only (null for SINGLE_ISSUER): the posting right. */
    final ReentrantLock lock;
    /** DEFER_TASKRUN rings only. */
    final LocalWorkList local;
    private final IoWq iowq;
    /** O_DIRECT reads and writes over native AIO, started on first use. */
    final DirectRw directRw = new DirectRw(this);
    /** IO_LINK chains being assembled and continued; posting right only. */
    final LinkChains links = new LinkChains(this);
    /** IO_DRAIN's queue; posting right only. */
    final DrainQueue drain = new DrainQueue(this);
    /** TIMEOUT/LINK_TIMEOUT bookkeeping (posting right) and their timer thread. */
    final Timeouts timeouts = new Timeouts(this);
    /** POLL_ADD/POLL_REMOVE, async poll and its armed requests (Linux's poll.c). */
    final PollArming polls;
    /** ASYNC_CANCEL and a link timeout's cancel of its target: posting right. */
    final AsyncCancel asyncCancel = new AsyncCancel(this);
    /** The application's registrations: files, buffers, io-wq limits. */
    private final Registration registration = new Registration(this);
    /** MSG_RING: this ring's carriers (sender side), its inbox and the files on their way in. */
    final MsgRingDelivery msgRing = new MsgRingDelivery(this);
    /** Provided-buffer groups: posting right only. */
    final ProvidedBuffers buffers = new ProvidedBuffers();
    /**
     * A CQE_SKIP_SUCCESS request was submitted: IO_DRAIN is refused from then on
     * (-EOPNOTSUPP), as Linux's drain_disabled. Posting right, plain; written once (the
     * fields near it are read by other threads on every MSG_RING they send here).
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
    final CompletionReader reader;

    /** SINGLE_ISSUER: the first thread that used the ring. Set once by CAS, read by anyone. */
    private volatile Thread owner;
    /**
     * SINGLE_ISSUER: the owner's task context; written by the owner right after {@link #owner},
     * read by any thread (MSG_RING senders, foreign waiters, close()).
     */
    private volatile TaskContext ownerCtx;
    /** The tasks that use this ring: a shared ring's submitters, the ties back from each task. */
    final Submitters submitters = new Submitters(this);
    /** The threads sleeping for this ring's CQEs. */
    final CqWait cqWait;

    /** 0 open, 1 closing, 2 closed. CAS by close(), volatile reads everywhere. */
    volatile int closed;

    private static final VarHandle OWNER;
    private static final VarHandle CLOSED;
    private static final VarHandle OWNER_CTX;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            OWNER = l.findVarHandle(RingContext.class, "owner", Thread.class);
            CLOSED = l.findVarHandle(RingContext.class, "closed", int.class);
            OWNER_CTX = l.findVarHandle(RingContext.class, "ownerCtx", TaskContext.class);
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
        this.cq = new CompletionQueue(p.cqEntries());
        this.pool = new RequestPool(this, sqEntries);
        this.legacyMsgRing = p.legacyMsgRing();
        this.callerCompletion = p.callerCompletion();
        this.cqLock = legacyMsgRing ? new ReentrantLock() : null;
        this.poster = new CompletionPoster(this, cq);   // after the parts it holds
        this.polls = new PollArming(this);              // after the poster it holds
        this.issuer = new RequestIssuer(this);          // after the poster, pool and polls it holds
        this.lock = singleIssuer ? null : new ReentrantLock();
        this.local = (p.flags() & Setup.DEFER_TASKRUN) != 0 ? new LocalWorkList(kind) : null;
        if (p.attachWq() != null) {
            this.iowq = p.attachWq().iowq.attach();
        } else {
            this.iowq = new IoWq("r" + id, IoWq.defaultMaxBounded(sqEntries), IoWq.UNBOUND_FROM_RLIMIT);
        }
        this.reader = new CompletionReader(this, p.waitSpinNanos());
        this.cqWait = new CqWait();
        this.sq = new SubmissionQueue(this, ApiAccess.get());   // after every part its loop calls
        this.submission = new SubmitEntry(this);
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

    // The parts ops call (posting right unless said otherwise), each named after its kernel file.

    /** Request issue and hand-back to the request's task; completeFromElsewhere from any thread. */
    public RequestIssuer issuer() {
        return issuer;
    }

    /** CQE posting (Linux's io_uring.c completion side). */
    public CompletionPoster poster() {
        return poster;
    }

    /** TIMEOUT, TIMEOUT_REMOVE and LINK_TIMEOUT (Linux's timeout.c). */
    public Timeouts timeouts() {
        return timeouts;
    }

    /** ASYNC_CANCEL (Linux's cancel.c). */
    public AsyncCancel asyncCancel() {
        return asyncCancel;
    }

    /** Provided-buffer groups (Linux's kbuf.c). */
    public ProvidedBuffers buffers() {
        return buffers;
    }

    /** Registered files and buffers, inline syscall scratch (Linux's filetable.c and rsrc.c). */
    public RingResources resources() {
        return resources;
    }

    /** Registration of files, buffers and io-wq limits (Linux's register.c). */
    public Registration registration() {
        return registration;
    }

    /** MSG_RING's sending and delivering side of this ring (Linux's msg_ring.c). */
    public MsgRingDelivery msgRing() {
        return msgRing;
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

    static IoUringException notOwner(Thread o) {
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
                submitters.addOwner(ownerCtx);
                msgRing.drainInbox();   // messages sent before it had an owner
            }
            tc = ownerCtx;
        } else {
            tc = TaskContext.current();
            submitters.add(tc);
        }
        tc.enter();
        return tc;
    }

    /** Takes the posting right (a shared ring's lock; the owner's token is already held). */
    void lockRing() {
        if (lock != null) {
            lock.lock();
        }
        poster.refreshTracing();
    }

    void unlockRing() {
        if (lock != null) {
            lock.unlock();
            if (msgRing.hasWaitingMessages() && !lock.isHeldByCurrentThread()) {
                msgRing.deliverInbox();
            }
        }
    }

    // =============================================================== submission

    /** The submission side's entry points (getSqe, submit, submitAndWait); IoUring calls it directly. */
    public SubmitEntry submission() {
        return submission;
    }

    /** SINGLE_ISSUER: the owner by a plain read (see {@link SubmitEntry}'s owner fast path). */
    Thread ownerPlain() {
        return (Thread) OWNER.get(this);
    }

    /** SINGLE_ISSUER: the owner's task context by a plain read; for the owner itself, which wrote it. */
    TaskContext ownerContextPlain() {
        return (TaskContext) OWNER_CTX.get(this);
    }

    /** The closed flag, read opaquely: cheap, never hoisted out of a caller's loop. */
    boolean closedOpaque() {
        return (int) CLOSED.getOpaque(this) != 0;
    }

    // =============================================================== ops' entry points (posting right)

    /** POLL_ADD, POLL_REMOVE and the async poll of ops that got EAGAIN (posting right). */
    public PollArming polls() {
        return polls;
    }

    /** The ring's O_DIRECT reads and writes: ops submit them here. */
    public DirectRw directRw() {
        return directRw;
    }

    @Override
    public void beginTaskRun() {
        lockRing();
    }

    @Override
    public void endTaskRun(int items) {
        poster.countTaskRun(items);
        try {
            msgRing.returnCarriers();
            directRw.flush();
            poster.flush();
        } finally {
            unlockRing();
        }
    }

    @Override
    public void wakeHelpers() {
        cqWait.wakeAll();
    }

    /** The CQ's reading side (peek, wait, seen, for-each); IoUring calls it directly. */
    public CompletionReader reader() {
        return reader;
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
        RingExit.awaitRequests(this);
        iowq.release();
        timeouts.timers.close();
        polls.releasePollers();
        directRw.close();
        issuer.closePageWaits();
        resources.release();
        buffers.release();
        submitters.removeAll();
        closed = 2;
    }

    @Override
    public String toString() {
        return "RingContext[" + id + " sq=" + sqEntries + " cq=" + cq.entries() + " flags=0x"
                + Integer.toHexString(setupFlags) + " kind=" + kind + "]";
    }
}
