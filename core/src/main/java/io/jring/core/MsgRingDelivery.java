package io.jring.core;

import io.jring.Errno;
import io.jring.iowq.IoWq;
import io.jring.ops.OpDef;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWorkBatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * MSG_RING delivery (Linux's msg_ring.c): a ring's side of the messages it sends (its
 * carriers, the sent file's duplicate) and of the messages sent to it (the inbox of those
 * that wait for an owner or for its lock, the count of files on their way in, and the post
 * or install itself). A message to another thread's SINGLE_ISSUER ring travels as remote
 * task work on its owner's task (seed 004), so the target's CQ keeps its single writer.
 */
public final class MsgRingDelivery {
    private static final VarHandle REMOTE_FDS;
    private static final VarHandle SENT;
    private static final VarHandle SENT_BY_WORKERS;
    private static final VarHandle RECEIVED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            REMOTE_FDS = l.findVarHandle(MsgRingDelivery.class, "remoteFds", int.class);
            SENT = l.findVarHandle(MsgRingDelivery.class, "sent", long.class);
            SENT_BY_WORKERS = l.findVarHandle(MsgRingDelivery.class, "sentByWorkers", long.class);
            RECEIVED = l.findVarHandle(MsgRingDelivery.class, "received", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RingContext ring;

    /**
     * MSG_RING messages sent before this SINGLE_ISSUER ring had an owner; the owner takes
     * them when it appears (and a sender that sees the owner appear hands them over itself).
     * For a shared ring: messages whose sender found its lock taken; the holder delivers
     * them when it lets go ({@link RingContext#unlockRing}).
     */
    private final ConcurrentLinkedQueue<MsgCarrier> inbox = new ConcurrentLinkedQueue<>();

    /** Carriers of this ring's messages to other threads' rings; the sender's posting right. */
    final MsgCarrierCache carriers = new MsgCarrierCache();

    /** This ring's messages gathered during a submit, for one other thread's ring (see {@link MsgBatch}). */
    final MsgBatch outgoing = new MsgBatch();

    /**
     * SEND_FD messages to this ring sent by remote task work and not yet run: close() waits
     * for them, since each holds a file and a sender's request that must complete. The
     * sender increments it and then re-reads the ring's {@code closed}; close() sets
     * {@code closed} and then reads it: volatile on both sides (Dekker), so either the
     * sender sees the ring closing (and backs out with -EBADFD) or close() sees the message
     * and waits for it. Decremented by whoever ran the message. Data messages are not
     * counted: one caught by a close just drops, like the CQEs the close drops.
     */
    private volatile int remoteFds;

    /*
     * Counters for io.jring.RingStats, read by any thread with getOpaque. sent: messages this
     * ring sent to an open ring, by the holder of this ring's posting right (setOpaque, its
     * only writer); sentByWorkers: the same from io-wq workers (an ASYNC MSG_RING), which
     * may be several at once, so getAndAdd (off the hot path). received: messages delivered
     * here, by this ring's posting right (setOpaque); with legacyMsgRing senders deliver
     * under the CQ lock instead, so every delivery uses getAndAdd then.
     */
    private long sent;
    private long sentByWorkers;
    private long received;

    /*
     * Carriers this ring's posting right has read in the current run, all from one sender's
     * cache (returnHome), linked oldest first through nextFree from returnFirst to
     * returnLast: given back with one CAS when the run ends (RingContext.endTaskRun, the
     * inbox's runs) or when a carrier of another cache comes, instead of one CAS per
     * message on a line the sender takes back. Posting right only: plain.
     */
    private MsgCarrierCache returnHome;
    private MsgCarrier returnFirst;
    private MsgCarrier returnLast;

    MsgRingDelivery(RingContext ring) {
        this.ring = ring;
    }

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
     * the target's task has run it, as Linux's io_msg_fd_remote. Inside a submit's SQE loop
     * a data message that travels as remote task work joins {@link #outgoing} instead and is
     * handed over with the rest of its batch (same result: 0).
     */
    public int send(RingContext target, long userData, int res, int cflags, int fd, int dstIndex,
                    boolean skipCqe, Request sender) {
        if (target.closed != 0) {
            if (fd >= 0) {
                FileTable.closeNow(fd);
            }
            return -Errno.EBADFD;
        }
        boolean gathering = outgoing.isGatherer();
        if (gathering && (fd >= 0 || outgoing.holdsOtherThan(target))) {
            outgoing.flush();   // issue order: the batch reaches its target before anything sent after it
        }
        if (!gathering && IoWq.isWorkerThread()) {   // the gatherer is never a worker: no lookup per message
            SENT_BY_WORKERS.getAndAdd(this, 1L);
        } else {
            SENT.setOpaque(this, sent + 1);
        }
        MsgRingDelivery to = target.msgRing;
        if (target == ring) {
            return deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
        }
        if (target.legacyMsgRing && fd < 0) {
            target.cqLock.lock();
            try {
                to.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
                target.poster.publish();
            } finally {
                target.cqLock.unlock();
            }
            target.cqWait.wakeIfOther();
            return 0;
        }
        TaskContext oc = target.ownerContext();
        if (!target.singleIssuer) {
            // Only try the lock: this thread may hold its own ring's lock, and two rings
            // sending to each other would deadlock (Linux's io_lock_external_ctx only tries
            // it too). Taken: the message waits in the inbox for the holder.
            if (target.lock.tryLock()) {
                int r;
                try {
                    to.runInbox();
                    r = to.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
                    target.poster.flush();
                } finally {
                    target.unlockRing();
                }
                target.cqWait.wakeIfOther();
                return r;
            }
        } else if (oc != null && oc.owner() == Thread.currentThread() && oc == TaskContext.current()) {
            // This thread owns both rings and holds its token: it has the target's posting right.
            int r = to.deliverHere(userData, res, cflags, fd, dstIndex, skipCqe, false);
            target.poster.flush();
            return r;
        }
        if (fd >= 0) {
            REMOTE_FDS.getAndAdd(to, 1);
            if (target.closed != 0) {
                to.remoteFdDone();
                FileTable.closeNow(fd);
                return -Errno.EBADFD;
            }
        }
        if (gathering && fd < 0 && target.singleIssuer && oc != null) {
            if (outgoing.accepts(target, oc)) {
                outgoing.add(carriers.take().set(target, userData, res, cflags, -1, dstIndex, skipCqe, null),
                        target, oc);
                return 0;
            }
            outgoing.flush();
        }
        MsgCarrier m = carriers.take().set(target, userData, res, cflags, fd, dstIndex, skipCqe,
                fd >= 0 ? sender : null);
        if (!target.singleIssuer) {
            to.inbox.add(m);
            to.deliverInbox();
        } else if (oc != null) {
            to.queueRemote(m, oc);
        } else {
            to.inbox.add(m);
            to.drainInbox();
        }
        return fd >= 0 ? OpDef.ISSUE_QUEUED : 0;
    }

    /** SEND_FD, sender's side: a private duplicate of fixed slot {@code index}, or -EBADF. */
    public int duplicateFixed(int index) {
        int fd = ring.resources().resolveFixedFile(index);
        if (fd < 0) {
            return -Errno.EBADF;
        }
        int d = FileTable.dup(fd);
        return d >= 0 ? d : -Errno.EBADF;
    }

    /** Any thread: messages this ring sent (see {@link #sent}). */
    long sentCount() {
        return (long) SENT.getOpaque(this) + (long) SENT_BY_WORKERS.getOpaque(this);
    }

    /** Any thread: messages delivered into this ring (see {@link #received}). */
    long receivedCount() {
        return (long) RECEIVED.getOpaque(this);
    }

    /** A counted SEND_FD message has run (see {@link #remoteFds}). */
    void remoteFdDone() {
        REMOTE_FDS.getAndAdd(this, -1);
    }

    /** close(): SEND_FD messages are still on their way in (see {@link #remoteFds}). */
    boolean hasRemoteFds() {
        return remoteFds > 0;
    }

    /** Messages wait in the inbox (any thread; a volatile read of the queue's head). */
    boolean hasWaitingMessages() {
        return !inbox.isEmpty();
    }

    private void queueRemote(MsgCarrier m, TaskContext oc) {
        m.setCompletionWork(true);
        LocalWorkList local = ring.local;
        if (local != null) {
            local.add(m, true, oc);
        } else {
            oc.addTaskWork(m, ring.kind);
        }
    }

    /** Target's side of a sender's {@link MsgBatch}: one add of the whole batch, lazily woken. */
    void queueRemoteBatch(TaskWorkBatch batch, TaskContext oc) {
        LocalWorkList local = ring.local;
        if (local != null) {
            local.addBatch(batch, true, oc);
        } else {
            oc.addTaskWorkBatch(batch, ring.kind);
        }
    }

    /** Hands messages that waited for an owner to it (any thread, once the owner is known). */
    void drainInbox() {
        TaskContext oc = ring.ownerContext();
        if (oc == null) {
            return;
        }
        MsgCarrier m;
        while ((m = inbox.poll()) != null) {
            queueRemote(m, oc);
        }
    }

    /**
     * A shared ring: delivers the MSG_RINGs whose senders found its lock taken, unless
     * another thread holds it now, which delivers them when it lets go. A sender adds to the
     * inbox, then tries the lock; a holder lets go, then looks at the inbox: both volatile,
     * so one of the two sees the other and no message is left behind.
     */
    void deliverInbox() {
        while (!inbox.isEmpty() && ring.lock.tryLock()) {
            try {
                ring.poster.refreshTracing();
                runInbox();
                ring.poster.flush();
            } finally {
                ring.lock.unlock();
            }
            ring.cqWait.wakeIfOther();
        }
    }

    /** Posting right of a shared ring: delivers its queued messages, oldest first. */
    private void runInbox() {
        try {
            for (MsgCarrier m; (m = inbox.poll()) != null; ) {
                m.runTaskWork(false);
            }
        } finally {
            returnCarriers();
        }
    }

    /** Posting right, a carrier's message read: {@code m} goes home with the rest of the run. */
    void returnLater(MsgCarrier m) {
        if (m.home != returnHome) {
            returnCarriers();
            returnHome = m.home;
            returnFirst = m;
        } else {
            returnLast.nextFree = m;
        }
        returnLast = m;
    }

    /** Posting right, at the end of a run: the carriers read go home, one CAS per sender's cache. */
    void returnCarriers() {
        MsgCarrierCache home = returnHome;
        if (home != null) {
            returnHome = null;
            home.giveBackChain(returnFirst, returnLast);
            returnFirst = null;
            returnLast = null;
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
        if (ring.closed != 0 || (ownerGone && fd >= 0)) {
            if (fd >= 0) {
                FileTable.closeNow(fd);
            }
            return ring.closed != 0 ? -Errno.EBADFD : -Errno.EOWNERDEAD;
        }
        if (fd >= 0) {
            int r = ring.resources().files.install(dstIndex, fd);
            FileTable.closeNow(fd);
            if (r < 0) {
                return r;
            }
            res = r;
        }
        if (ring.cqLock != null) {
            RECEIVED.getAndAdd(this, 1L);
        } else {
            RECEIVED.setOpaque(this, received + 1);
        }
        if (!skipCqe) {
            ring.poster.post(userData, res, cflags);
        }
        return fd >= 0 ? res : 0;   // SEND_FD: the sender's result is the install's (the slot for ALLOC)
    }

    /** close(): runs what is left in the inbox (the ring never got an owner); it only drops now. */
    void drainInboxForClose() {
        MsgCarrier m;
        while ((m = inbox.poll()) != null) {
            m.deliver(true, false);   // the closing thread need not hold the posting right
        }
    }
}
