package io.jring.core;

import io.jring.TaskWorkKind;
import io.jring.tw.LocalWork;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
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
     * Completions the sleeping owner still waits for; 0 when nobody waits. Written by the
     * owner (setVolatile when arming, so the store is ordered before its re-check of the
     * list) and by adders (getAndAdd); read volatile by adders after their push.
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
        if (lazy) {
            // Only the add that brings the countdown to zero wakes the waiter.
            if (countdown > 0 && (int) COUNTDOWN.getAndAdd(this, -1) == 1) {
                owner.wakeOwner();
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
