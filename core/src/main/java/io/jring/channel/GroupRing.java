package io.jring.channel;

import io.jring.Cancel;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.core.RingDoorbell;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;

/**
 * One ring of an asynchronous channel group and the thread that owns it: the thread submits
 * the operations of the group's channels to its SINGLE_ISSUER, DEFER_TASKRUN ring, waits in
 * the ring for their completions and runs them (and so their completion handlers).
 *
 * <p><b>Starting from any thread.</b> The owner puts its own operations on a plain local
 * queue. Another thread pushes its operation on a lock-free stack ({@link #remote}, one CAS)
 * and, if the owner has not been called yet, rings the ring's {@link RingDoorbell}: a data
 * MSG_RING as remote task work on the owner's task, whose CQE ends the owner's wait. The
 * owner clears {@link #bell} when it sees that CQE and then takes the whole stack with one
 * swap, so one bell serves any number of operations and the hot path takes no lock.
 */
public final class GroupRing implements Runnable {
    private static final VarHandle REMOTE;
    private static final VarHandle BELL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            REMOTE = l.findVarHandle(GroupRing.class, "remote", RingOp.class);
            BELL = l.findVarHandle(GroupRing.class, "bell", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** User data of the doorbell's CQE. */
    private static final long DOORBELL = -1L;
    /** User data of SQEs whose CQE nobody waits for (cancels, the first NOP). */
    private static final long IGNORED = -2L;
    private static final int ENTRIES = 256;

    private final InFlightBudget budget;
    private final Thread thread;
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final Runnable onTerminated;

    /**
     * Operations started by other threads, newest first. Written by any thread with CAS
     * (push) and by the owner with getAndSet (take all); volatile through {@link #REMOTE}.
     */
    @SuppressWarnings("unused")
    private volatile RingOp remote;

    /**
     * 1 while the doorbell is rung and its CQE not yet seen. Pushers getAndSet it to 1 and
     * ring only if it was 0; the owner sets it to 0 (volatile) before it takes the stack, so
     * either the owner sees a push or the pusher sees 0 and rings (Dekker on volatiles).
     */
    private volatile int bell;

    /** Startup failure of the ring, written by the owner before {@link #started}; read after it. */
    private volatile Throwable startFailure;

    // ---- owner-only state below: plain fields, touched only by thread ----
    private IoUring ring;
    private RingDoorbell doorbell;
    private final ArrayDeque<RingOp> local = new ArrayDeque<>();
    private RingOp[] slots = new RingOp[64];
    private int[] freeSlots = new int[64];
    private int nFree;
    private int inFlight;
    private boolean stopping;
    private final BouncePool bounce = new BouncePool();
    /** {@link #dispatch} as a handler, made once (a method reference per loop turn would allocate). */
    private final io.jring.CqeHandler dispatcher = this::dispatch;

    /**
     * Starts the ring's thread and waits until its ring is open.
     *
     * @param factory makes the owner thread
     * @param budget the group's in-flight permits, released as operations finish
     * @param onTerminated run by the owner thread after its ring closed
     */
    public GroupRing(ThreadFactory factory, InFlightBudget budget, Runnable onTerminated) {
        this.budget = budget;
        this.onTerminated = onTerminated;
        for (int i = 0; i < slots.length; i++) {
            freeSlots[nFree++] = slots.length - 1 - i;
        }
        this.thread = factory.newThread(this);
        if (thread == null) {
            throw new IllegalStateException("the thread factory made no thread");
        }
        thread.start();
        boolean interrupted = false;
        for (;;) {
            try {
                started.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (startFailure != null) {
            throw new IllegalStateException("cannot open a ring for the channel group", startFailure);
        }
    }

    /** {@return whether the calling thread is this ring's owner} */
    public boolean isOwner() {
        return Thread.currentThread() == thread;
    }

    /** {@return the owner thread} */
    public Thread thread() {
        return thread;
    }

    /**
     * Any thread: hands {@code op} to the owner. It is issued on the owner thread; its
     * completion runs there.
     *
     * @param op an operation not started before
     */
    public void start(RingOp op) {
        if (Thread.currentThread() == thread) {
            local.add(op);
            return;
        }
        RingOp head;
        do {
            head = (RingOp) REMOTE.getOpaque(this);   // validated by the CAS
            op.next = head;
        } while (!REMOTE.weakCompareAndSet(this, head, op));
        if ((int) BELL.getAndSet(this, 1) == 0) {
            doorbell.ring();
        }
    }

    /** Any thread: the owner stops once every operation it holds has finished. */
    public void stop() {
        start(new RingOp() {
            @Override
            protected void issue(GroupRing r) {
                stopping = true;
            }

            @Override
            protected void complete(GroupRing r, int res) {
            }
        });
    }

    /**
     * Waits until the owner thread has closed its ring.
     *
     * @param nanos the longest wait
     * @return whether it has
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long nanos) throws InterruptedException {
        return terminated.await(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** {@return whether the owner thread has closed its ring} */
    public boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    // ---------------------------------------------------------------- owner's side

    /** Owner: a free SQE (submitting what is queued when the SQ is full). */
    public Sqe sqe() {
        Sqe s = ring.getSqe();
        if (s == null) {
            ring.submit();
            s = ring.getSqe();
        }
        return s;
    }

    /** Owner: makes sure the SQ has room for {@code n} more SQEs (a link must not be split between submits). */
    public void reserve(int n) {
        if (ring.sqSpaceLeft() < n) {
            ring.submit();
        }
    }

    /** Owner: the user data under which {@code op}'s SQE's CQE comes back to it. */
    public long track(RingOp op) {
        if (nFree == 0) {
            grow();
        }
        int s = freeSlots[--nFree];
        slots[s] = op;
        op.slot = s;
        inFlight++;
        return s;
    }

    /** Owner: asks the ring to cancel {@code op}'s SQE if it is still in flight. */
    public void cancel(RingOp op) {
        int s = op.slot;
        if (s >= 0 && slots[s] == op) {
            sqe().prepCancel(s, 0).userData(IGNORED);
        }
    }

    /**
     * Any thread: a Future of {@code op} was cancelled; cancels its request on the owner
     * thread if it is still in flight there (an op not issued yet sees its cancelled Future).
     *
     * @param op an operation started on this ring
     */
    public void startCancel(RingOp op) {
        start(new RingOp() {
            @Override
            protected void issue(GroupRing r) {
                r.cancel(op);
            }

            @Override
            protected void complete(GroupRing r, int res) {
            }
        });
    }

    /**
     * Any thread, from a channel's close: cancels every request on {@code state}'s descriptor
     * on the owner thread (each then fails with AsynchronousCloseException) and then lets go
     * of one pin on it; if this ring has terminated, only lets go of the pin.
     *
     * @param state the closed channel's descriptor, with one pin held for this ring
     */
    public void cancelAllAndUnpin(ChannelState state) {
        if (isTerminated()) {
            state.end();
            return;
        }
        start(new RingOp() {
            @Override
            protected void issue(GroupRing r) {
                r.cancelFd(state.fd());
                state.end();
            }

            @Override
            protected void complete(GroupRing r, int res) {
            }
        });
    }

    /** Owner: asks the ring to cancel every request on {@code fd}. */
    public void cancelFd(int fd) {
        sqe().prepCancelFd(fd, Cancel.ALL).userData(IGNORED);
    }

    /** Owner: the operation has finished for good; gives its permit back. */
    public void finish(RingOp op) {
        if (op.permitted) {
            op.permitted = false;
            budget.release();
        }
    }

    /** Owner: this ring's pool of native bounce buffers. */
    public BouncePool bounce() {
        return bounce;
    }

    /** Owner: the ring itself (for timeouts and other SQEs). */
    public IoUring ring() {
        return ring;
    }

    private void grow() {
        int n = slots.length;
        slots = Arrays.copyOf(slots, n * 2);
        freeSlots = Arrays.copyOf(freeSlots, n * 2);
        for (int i = 2 * n - 1; i >= n; i--) {
            freeSlots[nFree++] = i;
        }
    }

    @Override
    public void run() {
        try {
            ring = IoUring.builder().entries(ENTRIES)
                    .flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN | Setup.SUBMIT_ALL).build();
            // The first submit makes this thread the ring's owner, which the doorbell needs.
            ring.getSqe().prepNop().userData(IGNORED);
            ring.submitAndWait(1);
            ring.forEachCqe((u, r, f) -> { });
            doorbell = new RingDoorbell(ring, DOORBELL);
        } catch (Throwable t) {
            startFailure = t;
            if (ring != null) {
                ring.close();
            }
            started.countDown();
            terminated.countDown();
            return;
        }
        started.countDown();
        try {
            loop();
        } finally {
            ring.close();
            bounce.close();
            onTerminated.run();   // before the latch: a woken awaitTermination sees isTerminated
            terminated.countDown();
        }
    }

    private void loop() {
        for (;;) {
            takeRemote();
            for (RingOp op; (op = local.poll()) != null; ) {
                op.issue(this);
            }
            if (stopping && inFlight == 0 && remote == null) {
                return;
            }
            ring.submitAndWait(1);
            ring.forEachCqe(dispatcher);
        }
    }

    /** Moves the remote stack to the local queue, oldest first. */
    private void takeRemote() {
        RingOp head = (RingOp) REMOTE.getAndSet(this, (RingOp) null);
        if (head == null) {
            return;
        }
        RingOp prev = null;
        while (head != null) {   // reverse: the stack is newest first
            RingOp n = head.next;
            head.next = prev;
            prev = head;
            head = n;
        }
        for (RingOp op = prev; op != null; ) {
            RingOp n = op.next;
            op.next = null;
            local.add(op);
            op = n;
        }
    }

    private void dispatch(long userData, int res, int flags) {
        if (userData == DOORBELL) {
            bell = 0;
            return;
        }
        if (userData < 0) {
            return;
        }
        int s = (int) userData;
        RingOp op = slots[s];
        slots[s] = null;
        freeSlots[nFree++] = s;
        inFlight--;
        op.slot = -1;
        op.complete(this, res);
    }
}
