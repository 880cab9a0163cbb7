package io.jring.tw;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One item of task work: a piece of a request's life that must run in its owner's task
 * (the kernel's {@code callback_head} inside {@code io_kiocb}). Items are intrusive: the
 * list that holds an item links it through {@link #next}, so adding allocates nothing.
 * An item is in at most one list at a time; the adder owns it until {@code add} returns.
 */
public abstract class TaskWork {

    /**
     * Intrusive link. Written by the list implementations only (producers with release
     * or plain-before-xchg, the owner with plain stores), read through {@link #NEXT} with
     * the mode each strategy documents.
     */
    TaskWork next;

    /**
     * Completion work (device or io-wq completions) rather than other task work; the
     * PRIORITY list runs it first (000_fe983bc720f4678b.txt). Written by the adder before
     * {@code add}, read by the list during {@code add}: same thread, plain.
     */
    private boolean completionWork;

    static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(TaskWork.class, "next", TaskWork.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The ring this work posts to: consecutive items with the same target run as one batch. */
    public abstract TaskWorkTarget target();

    /**
     * Runs the work in the owner's task (or the fallback's). With {@code cancel} true the
     * owner is gone (or the ring is closing): the request must complete with -ECANCELED.
     */
    public abstract void runTaskWork(boolean cancel);

    public final boolean isCompletionWork() {
        return completionWork;
    }

    public final void setCompletionWork(boolean completionWork) {
        this.completionWork = completionWork;
    }
}
