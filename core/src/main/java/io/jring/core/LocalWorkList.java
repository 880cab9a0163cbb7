package io.jring.core;

import io.jring.TaskWorkKind;
import io.jring.tw.LocalWork;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkBatch;
import io.jring.tw.TaskWorkList;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A DEFER_TASKRUN ring's own task-work list (the kernel's {@code work_llist}): run only by
 * the ring's owner when it asks for completions. Wakeups are lazy, by countdown: a waiter
 * for N more completions arms {@link #countdown} = N before it sleeps; each lazy add
 * decrements it and only the add that takes it from 1 to 0 wakes the waiter, so a waiter
 * for N completions is woken once, not N times. Non-lazy adds (links, cancellation,
 * messages that must be seen at once) wake immediately.
 *
 * <p>The handshake (tested by jcstress): the owner arms the countdown with a volatile store,
 * then re-checks the list (volatile read of its head); an adder pushes (a volatile
 * read-modify-write), then reads the countdown (volatile). One of them sees the other.
 */
public final class LocalWorkList implements LocalWork {
    final TaskWorkList list;

    /**
     * Completions the sleeping owner still waits for; 0 (or below, once a batch add took it
     * past zero) when nobody waits. Written by the owner (setVolatile when arming, so the
     * store is ordered before its re-check of the list) and by adders (getAndAdd of minus
     * the items they pushed); read volatile by adders after their push.
     */
    private volatile int countdown;

    private static final VarHandle COUNTDOWN;

    static {
        try {
            COUNTDOWN = MethodHandles.lookup().findVarHandle(LocalWorkList.class, "countdown", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public LocalWorkList(TaskWorkKind kind) {
        this.list = TaskWorkList.create(kind);
    }

    /** Any thread. {@code owner} is the ring owner's context (never null once requests exist). */
    public void add(TaskWork work, boolean lazy, TaskContext owner) {
        if (list.add(work)) {
            owner.rings().localWorkAdded();   // a gone owner's work goes to the fallback
        }
        wakeFor(1, lazy, owner);
    }

    /**
     * Any thread: adds a batch (the kernel's llist_add_batch) with one publication, and
     * counts all of it against the waiter's countdown at once: the waiter is woken once if
     * the batch brings what it waits for, not woken if it does not. The caller clears the
     * batch afterwards.
     */
    public void addBatch(TaskWorkBatch batch, boolean lazy, TaskContext owner) {
        int n = batch.count();   // read before the add: then the items are the owner's
        if (list.addBatch(batch)) {
            owner.rings().localWorkAdded();
        }
        wakeFor(n, lazy, owner);
    }

    /**
     * After {@code n} items were pushed. Lazy: only the add that takes the countdown from
     * a value in 1..n to zero or below wakes the waiter (io_req_local_work_add's nr_wait
     * test): the countdown only falls between two arms, so exactly one add crosses zero
     * (later ones see it at or below zero and leave it alone; the owner's next arm
     * overwrites it).
     */
    private void wakeFor(int n, boolean lazy, TaskContext owner) {
        if (lazy) {
            if (countdown > 0) {
                int before = (int) COUNTDOWN.getAndAdd(this, -n);
                if (before > 0 && before <= n) {
                    owner.wakeOwner();
                }
            }
        } else if (countdown > 0) {
            // Non-lazy work (links, cancellation) must be seen at once: wake the waiter now.
            COUNTDOWN.setVolatile(this, 0);
            owner.wakeOwner();
        }
    }

    @Override
    public boolean isEmpty() {
        return list.isEmpty();
    }

    @Override
    public TaskWorkList list() {
        return list;
    }

    /** Owner: about to sleep waiting for {@code needed} more completions. */
    public void arm(int needed) {
        COUNTDOWN.setVolatile(this, Math.max(needed, 1));
    }

    /** Owner: back from sleep. */
    void disarm() {
        COUNTDOWN.setOpaque(this, 0);
    }
}
