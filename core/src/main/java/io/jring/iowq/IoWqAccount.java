package io.jring.iowq;

import io.jring.fault.Faults;
import io.jring.trace.RareEvents;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * One of io-wq's two accounts ({@code io_wq_acct}): bounded work (regular files, fsync...)
 * or unbound work (sockets, pipes), each with its own {@link WorkList}, free list and worker
 * limit. Work is handed to a free worker if there is one; otherwise a worker is created if
 * the account is below its limit ({@code io_wq_enqueue}); otherwise it waits for a busy
 * worker to finish its item.
 *
 * <p>The account's monitor guards all mutable state here, in its {@link WorkList} and in its
 * {@link IoWorker}s, as Linux's {@code acct->lock} does: enqueue, the workers' take and idle
 * steps, cancellation and shutdown hold it for a few field updates; work runs outside it.
 * A monitor rather than a {@code ReentrantLock}: contention allocates no queue nodes.
 * Methods marked "worker side" expect the caller to hold the monitor; the others take it.
 */
final class IoWqAccount {

    private final String namePrefix;
    private final long idleNanos;
    private final WorkList work = new WorkList();
    private final FreeList free = new FreeList();
    /**
     * Workers woken or started that have not yet looked for work: an enqueue wakes another
     * only if the runnable items outnumber them, so a burst of quick items (async hybrid
     * attempts) does not wake every free worker into contention on this monitor. Guarded by
     * the monitor.
     */
    private int waking;
    /** Every worker whose thread may be alive; terminated ones are pruned on registration. */
    private final List<IoWorker> workers = new ArrayList<>();

    /** The worker limit; {@link IoWq#UNBOUND_FROM_RLIMIT} until first needed (see {@link #limit}). Guarded by the monitor. */
    private int maxWorkers;
    /** Workers started or about to start (reserved by enqueue), not yet retired. */
    private int nrWorkers;
    private int nextWorkerId;
    /** Set once by shutdown: work is refused, workers leave when their item is done. */
    private boolean exiting;

    /**
     * Unbound work (sockets, pipes) mostly does not block: a new worker is started only when
     * a running one announces that it will ({@link #beginBlocking}), as Linux's io-wq starts
     * one from its scheduler hook when a worker sleeps. Bounded work (regular files) may
     * block anywhere, so each item finds or starts a worker at once.
     */
    private final boolean createOnBlock;
    /** Unbound work queued per running worker before another worker is started anyway. */
    static final int BACKLOG_PER_WORKER = 8;
    /** Workers inside a blocking call announced with {@link #beginBlocking}. Guarded by the monitor. */
    private int blocked;
    /**
     * A worker failed to start and none has started since: the failure was logged once for
     * this episode. Set under the monitor by a failed start; cleared by a successful one
     * (volatile: a start outside the monitor reads it, and a racing clear only costs a log line).
     */
    private volatile boolean startFailing;

    IoWqAccount(String namePrefix, int maxWorkers, long idleNanos, boolean createOnBlock) {
        this.createOnBlock = createOnBlock;
        this.namePrefix = namePrefix;
        this.maxWorkers = maxWorkers;
        this.idleNanos = idleNanos;
    }

    /** Queues {@code w}, or cancels it at once (on this thread) when shutting down. */
    void enqueue(IoWork w) {
        IoWorker created = null;
        boolean refused;
        synchronized (this) {
            refused = exiting;
            if (!refused && work.add(w)) {
                created = wakeOrReserve();
            }
        }
        if (refused) {
            w.cancelQueued();
        } else if (created != null) {
            start(created);
        }
    }

    /** Wakes a free worker, or reserves a new one (returned, to start outside the monitor). */
    private IoWorker wakeOrReserve() {
        if (waking >= work.runnableCount()) {
            return null;   // workers on their way will take it
        }
        if (!free.isEmpty()) {
            wake(free.first());
            return null;
        }
        if (nrWorkers >= limit()) {
            return null; // a busy worker takes it when its current item is done
        }
        int running = nrWorkers - blocked;
        if (createOnBlock && running > 0 && work.runnableCount() <= BACKLOG_PER_WORKER * running) {
            return null; // a running worker takes it soon; one that blocks will start another
        }
        return reserve();
    }

    private IoWorker reserve() {
        nrWorkers++;
        workers.removeIf(wk -> wk.thread.getState() == Thread.State.TERMINATED);
        IoWorker wk = new IoWorker(this, namePrefix + nextWorkerId++);
        workers.add(wk);
        wk.woken = true;
        waking++;
        return wk;
    }

    /**
     * Worker side: {@code w} is about to block (a blocking syscall in its item). If work is
     * waiting and no worker is on its way to it, wake a free worker or start a new one, so the
     * queue does not stall behind the blocked one.
     */
    void beginBlocking(IoWorker w) {
        IoWorker created = null;
        synchronized (this) {
            blocked++;
            if (!exiting && work.runnableCount() > waking) {
                if (!free.isEmpty()) {
                    wake(free.first());
                } else if (nrWorkers < limit()) {
                    created = reserve();
                }
            }
        }
        if (created != null) {
            start(created);
        }
    }

    /** Worker side: the blocking call announced with {@link #beginBlocking} returned. */
    synchronized void endBlocking(IoWorker w) {
        blocked--;
    }

    /** Starts a reserved worker, outside the monitor (thread creation is slow). */
    void start(IoWorker wk) {
        try {
            if (Faults.ENABLED && Faults.workerStartRefused()) {
                throw new OutOfMemoryError("unable to create native thread (injected WORKER_START fault)");
            }
            wk.thread.start();
            if (startFailing) {
                startFailing = false;
            }
        } catch (Throwable t) { // no thread to be had: give the reservation back
            List<IoWork> orphans = new ArrayList<>();
            boolean first;
            synchronized (this) {
                first = !startFailing;
                startFailing = true;
                nrWorkers--;
                arrived(wk);
                workers.remove(wk);
                notifyAll();
                if (nrWorkers == 0) { // nobody would ever run the queue: cancel it, as Linux
                    work.drainTo(orphans);
                }
            }
            orphans.forEach(IoWork::cancelQueued);
            if (first) {
                RareEvents.workerStartFailed(wk.thread.getName(), t);
            }
        }
    }

    private void wake(IoWorker w) {
        free.unlink(w);
        w.woken = true;
        waking++;
        LockSupport.unpark(w.thread);
    }

    /** Worker side: a woken or new worker arrived to look for work. */
    private void arrived(IoWorker w) {
        if (w.woken) {
            w.woken = false;
            waking--;
        }
    }

    // ---- worker side (monitor held) ----------------------------------------------------

    /** Worker side: the next item for {@code w}, or null when nothing is runnable. */
    IoWork nextWork(IoWorker w) {
        arrived(w);
        IoWork next = work.take(w);
        if (work.runnableCount() > 0 && !free.isEmpty()) {
            wake(free.first()); // a hashed key came back in line and can run beside this item
        }
        return next;
    }

    /** Worker side. */
    boolean isExiting() {
        return exiting;
    }

    /** Worker side: more workers than the (lowered) limit, so the asking one retires. */
    boolean isSurplus() {
        return nrWorkers > limit();
    }

    /** The limit, reading Linux's unbound default (RLIMIT_NPROC) the first time it is needed. Under the monitor. */
    private int limit() {
        if (maxWorkers == IoWq.UNBOUND_FROM_RLIMIT) {
            maxWorkers = IoWq.defaultMaxUnbound();
        }
        return maxWorkers;
    }

    /** Worker side: puts {@code w} on the free list; returns the deadline of its idle time. */
    long goIdle(IoWorker w) {
        free.push(w);
        return System.nanoTime() + idleNanos;
    }

    /**
     * Worker side: {@code w}'s idle time ran out before anyone woke it. Takes it off the
     * free list; returns false when it should retire (nothing runnable), true to look again.
     */
    boolean idleExpired(IoWorker w) {
        free.unlink(w);
        return work.runnableCount() > 0;
    }

    /** Worker side: the last step of a worker's thread, so close() may then join it. */
    void workerExit(IoWorker w) {
        arrived(w);
        work.releaseChain(w);
        nrWorkers--;
        if (work.runnableCount() > 0 && !free.isEmpty()) {
            wake(free.first());
        }
        notifyAll(); // shutdown waits on the monitor for workers to leave
    }

    /**
     * Worker side: {@code w} dies (an Error escaped its item). It leaves as
     * {@link #workerExit} does; if work is waiting and no free worker can take it, a
     * replacement is reserved and returned, for the dying thread to {@link #start} outside
     * the monitor, so the queue behind a dead worker does not stall. Null if none is needed.
     */
    IoWorker workerDied(IoWorker w) {
        workerExit(w);
        if (!exiting && work.runnableCount() > waking && free.isEmpty() && nrWorkers < maxWorkers) {
            return reserve();
        }
        return null;
    }

    // ---- limits, cancellation, counters ------------------------------------------------

    /** Sets the limit ({@code 0} keeps it) and returns the previous one. */
    int setMaxWorkers(int max) {
        List<IoWorker> created = new ArrayList<>(0);
        int previous;
        synchronized (this) {
            previous = limit();
            if (max != 0) {
                maxWorkers = max;
                // Lowered: free surplus workers retire now, busy ones after their item.
                for (int surplus = nrWorkers - max; surplus > 0 && !free.isEmpty(); surplus--) {
                    wake(free.first());
                }
                // Raised: queued work gets the workers it could not have before.
                for (int n = work.runnableCount(); n > 0 && !exiting && nrWorkers < max; n--) {
                    IoWorker wk = wakeOrReserve();
                    if (wk != null) {
                        created.add(wk);
                    }
                }
            }
        }
        created.forEach(this::start);
        return previous;
    }

    /**
     * Removes queued work that {@code match} accepts (all, or only the first) into
     * {@code out} and returns how many. With {@code all}, or when nothing queued matched,
     * also reports in {@code running[0]} whether a matching item is running. The caller
     * calls cancelQueued on {@code out} after this returns (outside the monitor).
     */
    synchronized int cancel(Predicate<? super IoWork> match, boolean all, List<IoWork> out,
            boolean[] running) {
        int removed = work.remove(match, all, out);
        if (all || removed == 0) {
            for (IoWorker wk : workers) {
                if (wk.current != null && match.test(wk.current)) {
                    running[0] = true;
                    break;
                }
            }
        }
        return removed;
    }

    synchronized int workerCount() {
        return nrWorkers;
    }

    /** Workers that are not idle: running an item, or started and not yet at the free list. */
    synchronized int busyCount() {
        return nrWorkers - free.size();
    }

    synchronized int queuedCount() {
        return work.size();
    }

    // ---- shutdown ----------------------------------------------------------------------

    /** Refuses new work, moves all queued work to {@code out}, wakes idle workers to leave. */
    synchronized void beginExit(List<IoWork> out) {
        exiting = true;
        work.drainTo(out);
        while (!free.isEmpty()) {
            wake(free.first());
        }
    }

    /**
     * Waits until every worker has left, then joins their threads, so none is alive when
     * this returns. Called from one of this account's workers (a work item closing its
     * ring), it cannot wait for that worker, which leaves once its item returns.
     */
    void awaitWorkersExit() {
        Thread self = Thread.currentThread();
        boolean interrupted = false;
        List<IoWorker> toJoin;
        synchronized (this) {
            int own = 0;
            for (IoWorker wk : workers) {
                own += wk.thread == self ? 1 : 0;
            }
            while (nrWorkers > own) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true; // shutdown must finish; the flag is restored below
                }
            }
            toJoin = new ArrayList<>(workers);
        }
        for (IoWorker wk : toJoin) {
            while (wk.thread != self) {
                try {
                    wk.thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            self.interrupt();
        }
    }
}
