package io.jring.core;

import io.jring.Timeout;
import io.jring.sys.Clocks;
import io.jring.sys.SysCallContext;

import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A ring's timers (the kernel's hrtimers for TIMEOUT and LINK_TIMEOUT): one thread, started
 * on the first timeout, sleeps until the earliest deadline; an expired request goes back to
 * its task as task work, where it completes. A binary heap ordered by deadline.
 *
 * <p>Threads: {@link #arm} and {@link #cancel} run under the posting right, the timer thread
 * pops expired entries; all heap access is under {@link #lock}. A request that {@link #cancel}
 * no longer finds has fired: its task work is queued, and it completes there.
 */
final class Timers {
    private final RingContext ring;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private Request[] heap = new Request[16];
    private int size;
    private Thread thread;
    private boolean stopping;

    Timers(RingContext ring) {
        this.ring = ring;
    }

    /** Arms {@code r} to expire at {@code deadline} ({@link System#nanoTime()} time). */
    void arm(Request r, long deadline) {
        lock.lock();
        try {
            if (stopping) {
                deadline = Long.MIN_VALUE;   // fires at once, completes -ECANCELED as the ring closes
            }
            r.markSideState(Request.SIDE_TIMEOUT);
            insert(r, deadline);
            if (thread == null && !stopping) {
                thread = Thread.ofPlatform().daemon().name("jring-timer-r" + ring.id).start(this::run);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Disarms {@code r}: true if it had not fired (it will not), false if it fired already. */
    boolean cancel(Request r) {
        lock.lock();
        try {
            int i = r.heapIndex;
            if (i < 0) {
                return false;
            }
            removeAt(i);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Expired requests being handed to their tasks; the timer thread only. */
    private Request[] fired = new Request[16];

    /** The timer thread. It survives a throw: what had expired and was not yet taken stays in the heap. */
    private void run() {
        for (;;) {
            try {
                if (!fireExpired()) {
                    return;
                }
            } catch (Throwable t) {
                Thread.yield();   // out of memory growing the batch, say: try again
            }
        }
    }

    /** Waits for expiries and hands each to its task; false once stopping with nothing armed. */
    private boolean fireExpired() {
        int n = 0;
        lock.lock();
        try {
            for (;;) {
                if (stopping && size == 0) {
                    return false;
                }
                long now = System.nanoTime();
                while (size > 0 && (stopping || heap[0].deadline - now <= 0)) {
                    if (n == fired.length) {
                        fired = Arrays.copyOf(fired, n * 2);
                    }
                    Request r = heap[0];
                    fired[n++] = r;
                    removeAt(0);
                    if (r.opcode == io.jring.Opcode.TIMEOUT) {
                        ring.timeouts.expired();   // counted at expiry, as Linux's io_timeout_fn
                    }
                }
                if (n > 0) {
                    break;
                }
                if (size == 0) {
                    changed.awaitUninterruptibly();
                } else {
                    try {
                        changed.awaitNanos(heap[0].deadline - now);
                    } catch (InterruptedException e) {
                        // the daemon timer thread is never interrupted on purpose; go on
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        for (int i = 0; i < n; i++) {
            Request r = fired[i];
            fired[i] = null;
            try {
                ring.issuer.timerFired(r);
            } catch (Throwable t) {
                // Queued before what threw (a wake, an event): the timer goes on with the rest.
            }
        }
        return true;
    }

    /** close(), after every request finished: stops the thread. */
    void close() {
        Thread t;
        lock.lock();
        try {
            stopping = true;
            changed.signal();
            t = thread;
        } finally {
            lock.unlock();
        }
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void removeAt(int i) {
        Request r = heap[i];
        r.heapIndex = -1;
        size--;
        if (i != size) {
            Request last = heap[size];
            heap[i] = last;
            last.heapIndex = i;
            siftDown(i);
            siftUp(last.heapIndex);
        }
        heap[size] = null;
    }

    private void siftUp(int i) {
        Request r = heap[i];
        while (i > 0) {
            int p = (i - 1) >>> 1;
            Request parent = heap[p];
            if (parent.deadline - r.deadline <= 0) {
                break;
            }
            heap[i] = parent;
            parent.heapIndex = i;
            i = p;
        }
        heap[i] = r;
        r.heapIndex = i;
    }

    private void siftDown(int i) {
        Request r = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            if (c + 1 < size && heap[c + 1].deadline - heap[c].deadline < 0) {
                c++;
            }
            if (r.deadline - heap[c].deadline <= 0) {
                break;
            }
            heap[i] = heap[c];
            heap[i].heapIndex = i;
            i = c;
        }
        heap[i] = r;
        r.heapIndex = i;
    }

    /** For tests. */
    int armedCount() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The {@link System#nanoTime()} deadline of a timeout of {@code nanos} with
     * {@code Timeout} flags: relative from now, or absolute on CLOCK_MONOTONIC (nanoTime's
     * clock), CLOCK_BOOTTIME or CLOCK_REALTIME.
     */
    static long deadlineOf(long nanos, int flags) {
        if ((flags & Timeout.ABS) == 0) {
            return System.nanoTime() + Math.min(Math.max(0, nanos), MAX_RELATIVE_NANOS);
        }
        int clock = (flags & Timeout.REALTIME) != 0 ? Clocks.CLOCK_REALTIME
                : (flags & Timeout.BOOTTIME) != 0 ? Clocks.CLOCK_BOOTTIME : Clocks.CLOCK_MONOTONIC;
        return Clocks.toNanoTime(SysCallContext.current(), clock, nanos);
    }

    /**
     * The deadline a TIMEOUT_REMOVE update gives {@code r}: {@code nanos} on {@code r}'s own
     * clock, absolute if the update says ABS (Linux keeps the clock, takes the mode).
     */
    static long updatedDeadline(Request r, long nanos, int updateFlags) {
        return deadlineOf(nanos, (r.opFlags & (Timeout.BOOTTIME | Timeout.REALTIME)) | (updateFlags & Timeout.ABS));
    }

    /** Under {@link #lock}: {@code r} joins the heap at {@code deadline}; the timer thread hears of a new earliest. */
    private void insert(Request r, long deadline) {
        r.deadline = deadline;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = r;
        r.heapIndex = size;
        siftUp(size++);
        if (heap[0] == r) {
            changed.signal();
        }
    }

    /** Far enough (146 years) that now + it never wraps, which would fire at once. */
    private static final long MAX_RELATIVE_NANOS = 1L << 62;

    /**
     * TIMEOUT_REMOVE with LINK_TIMEOUT_UPDATE: the armed LINK_TIMEOUT with {@code userData}
     * expires at {@code nanos} instead (relative, or absolute with ABS in {@code flags} on the
     * LINK_TIMEOUT's own clock; its timer restarts). 0, or -ENOENT if none is armed
     * (its target was not issued yet, or it fired).
     */
    int rearmLinkTimeout(long userData, long nanos, int flags) {
        lock.lock();
        try {
            for (int i = 0; i < size; i++) {
                Request r = heap[i];
                if (r.opcode == io.jring.Opcode.LINK_TIMEOUT && r.userData == userData) {
                    removeAt(i);
                    insert(r, updatedDeadline(r, nanos, flags));
                    return 0;
                }
            }
            return -io.jring.Errno.ENOENT;
        } finally {
            lock.unlock();
        }
    }

}
