package io.jring.core;

import io.jring.tw.TaskContext;
import io.jring.tw.TaskWorkBatch;

/**
 * A sending ring's MSG_RING messages to one other thread's SINGLE_ISSUER ring, gathered
 * while one submit's SQEs are issued and then handed over together (issue 20): one
 * publication on the target's task-work list ({@code llist_add_batch}) and at most one wake
 * decision, the whole batch counted against a DEFER_TASKRUN waiter's countdown, so the
 * target runs them in one task-work run. Each message keeps its own CQE on the target, in
 * order; what a sender's SQE learns (its result, -EBADFD for a closed target) is decided
 * when it is issued, as before. Only data messages are gathered; a SEND_FD, a message to
 * another ring or a message that is not remote task work hands the batch over first, so
 * the target sees every message in issue order.
 *
 * <p>Gathering is open only inside {@link SubmissionQueue#submitSqes} ({@link #open} /
 * {@link #close} around its loop, close in a finally): a message issued anywhere else (a
 * linked MSG_RING run from task work, an io-wq worker) is handed over at once, and a
 * gathered one waits at most until the end of the SQE loop, which never blocks.
 *
 * <p>All fields but {@link #gatherer} belong to the holder of the sending ring's posting
 * right (the submitting thread, under the ring's submit lock for a shared ring): plain
 * reads and writes; the hand-over publishes the messages with the target list's own atomic
 * step.
 */
final class MsgBatch {
    /** Messages gathered, oldest first, linked through their task-work links. */
    private final TaskWorkBatch messages = new TaskWorkBatch();
    /** The ring they go to, and its owner's task; null when nothing is gathered. */
    private RingContext target;
    private TaskContext owner;
    /**
     * The thread running a submit's SQE loop, between open and close; else null. Written
     * by that thread (plain); read plain by any thread that sends on this ring, which is the
     * point: an io-wq worker sending a message reads null or another thread, never itself,
     * so it never touches the batch (a racy read of a reference is harmless here).
     */
    private Thread gatherer;

    /** Posting right, before a submit's SQE loop. */
    void open() {
        gatherer = Thread.currentThread();
    }

    /** Posting right, after the SQE loop (also when it throws): hands over what it gathered. */
    void close() {
        gatherer = null;
        flush();
    }

    /** Any thread: whether it is the one gathering now (the only one that may touch the batch). */
    boolean isGatherer() {
        return gatherer == Thread.currentThread();
    }

    /** Gatherer: whether the batch holds messages for another ring than {@code t}. */
    boolean holdsOtherThan(RingContext t) {
        return target != null && target != t;
    }

    /** Gatherer: whether a message to {@code t} (owned by {@code oc}) may join the batch. */
    boolean accepts(RingContext t, TaskContext oc) {
        return target == null || (t == target && oc == owner);
    }

    /** Gatherer, after {@link #accepts}: gathers {@code m} for {@code t}, owned by {@code oc}. */
    void add(MsgCarrier m, RingContext t, TaskContext oc) {
        m.setCompletionWork(true);
        target = t;
        owner = oc;
        messages.append(m);
    }

    /** Gatherer: hands the gathered messages to their target's owner in one add, if any. */
    void flush() {
        RingContext t = target;
        if (t == null) {
            return;
        }
        TaskContext oc = owner;
        target = null;
        owner = null;
        t.msgRing.queueRemoteBatch(messages, oc);
        messages.clear();
    }
}
