package io.jring;

/** The task-work list strategy of a ring (DESIGN.md section 3). All are correct for any number of producers. */
public enum TaskWorkKind {
    /** A lock and a linked list: Linux before seed 001. */
    LOCKED,
    /** Lock plus a priority list for completion work, capped at 1/3 of pending work (seed 000). */
    PRIORITY,
    /** Lock-free LIFO push, batch taken with a fake node and reversed (seed 001). */
    LLIST,
    /** Vyukov multi-producer single-consumer FIFO, one xchg per push (the default). */
    MPSC
}
