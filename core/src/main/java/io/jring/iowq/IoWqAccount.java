package io.jring.iowq;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * One of io-wq's two accounts ({@code io_wq_acct}): bounded work (regular files, fsync...)
 * or unbound work (sockets, pipes), each with its own {@link WorkList}, free list and worker
 * limit. Work is handed to a free worker if there is one; otherwise a worker is created if
 * the account is below its limit ({@code io_wq_enqueue}); otherwise it waits for a busy
 * worker to finish its item.
 *
 * <p>One lock guards all mutable state here and in the account's {@link WorkList} and
 * {@link IoWorker}s, as Linux's {@code acct->lock}: enqueue, the workers' take and idle
 * paths, cancellation and shutdown hold it for a few field updates; work runs outside it.
 * Methods documented as "worker side" expect the lock held by the caller; the others take it.
 */
final class IoWqAccount {

    final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a worker leaves; shutdown waits on it. */
    private final Condition workerLeft = lock.newCondition();

    private final String namePrefix;
    private final long idleNanos;
    private final WorkList work = new WorkList();

    private int maxWorkers;
    /** Workers started or about to start (reserved by enqueue), not yet retired. */
    private int nrWorkers;
    private final FreeList free = new FreeList();
    /** Every worker whose thread may be alive; terminated ones are pruned on registration. */
    private final List<IoWorker> workers = new ArrayList<>();
    private int nextWorkerId;
    /** Set once by shutdown: work is refused, workers leave when their item is done. */
    private boolean exiting;

    IoWqAccount(String namePrefix, int maxWorkers, long idleNanos) {
        this.namePrefix = namePrefix;
        this.maxWorkers = maxWorkers;
        this.idleNanos = idleNanos;
    }

    /** Queues {@code w}, or cancels it at once (on this thread) when shutting down. */
    void enqueue(IoWork w) {
        IoWorker created = null;
        boolean refused;
        lock.lock();
        try {
            refused = exiting;
            if (!refused && work.add(w)) {
                created = wakeOrReserve();
            }
        } finally {
            lock.unlock();
        }
        if (refused) {
            w.cancelQueued();
        } else if (created != null) {
            start(created);
        }
    }

    /** Wakes a free worker, or reserves a new one (returned, to start outside the lock). */
    private IoWorker wakeOrReserve() {
        if (!free.isEmpty()) {
            wake(free.first());
            return null;
        }
        if (nrWorkers >= maxWorkers) {
            return null; // a busy worker takes it when its current item is done
        }
        nrWorkers++;
        workers.removeIf(wk -> wk.thread.getState() == Thread.State.TERMINATED);
        IoWorker wk = new IoWorker(this, namePrefix + nextWorkerId++);
        workers.add(wk);
        return wk;
    }

    /** Starts a reserved worker, outside the lock (thread creation is slow). */
    private void start(IoWorker wk) {
        try {
            wk.thread.start();
        } catch (Throwable t) { // no thread to be had: give the reservation back
            List<IoWork> orphans = new ArrayList<>();
            lock.lock();
            try {
                nrWorkers--;
                workers.remove(wk);
                workerLeft.signalAll();
                if (nrWorkers == 0) { // nobody would ever run the queue: cancel it, as Linux
                    work.drainTo(orphans);
                }
            } finally {
                lock.unlock();
            }
            orphans.forEach(IoWork::cancelQueued);
        }
    }

    // ---- worker side (lock held) -------------------------------------------------------

    /** Worker side: the next item for {@code w}, or null when nothing is runnable. */
    IoWork nextWork(IoWorker w) {
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
        return nrWorkers > maxWorkers;
    }

    /**
     * Worker side: parks {@code w} on the free list until it is woken or the idle timeout
     * passes. Returns false when the worker should retire (timed out, nothing runnable).
     */
    boolean idle(IoWorker w) {
        free.push(w);
        long deadline = System.nanoTime() + idleNanos;
        while (w.free) {
            long nanos = deadline - System.nanoTime();
            if (nanos <= 0) {
                free.unlink(w);
                return work.runnableCount() > 0;
            }
            try {
                w.wakeup.awaitNanos(nanos);
            } catch (InterruptedException e) {
                // Nobody but io-wq should interrupt its threads: a spurious wakeup.
            }
        }
        return true;
    }

    /** Worker side: the last step of a worker's thread, so close() may then join it. */
    void workerExit(IoWorker w) {
        work.releaseChain(w);
        nrWorkers--;
        if (work.runnableCount() > 0 && !free.isEmpty()) {
            wake(free.first());
        }
        workerLeft.signalAll();
    }

    private void wake(IoWorker w) {
        free.unlink(w);
        w.wakeup.signal();
    }

    // ---- limits, cancellation, counters ------------------------------------------------

    /** Sets the limit ({@code 0} keeps it) and returns the previous one. */
    int setMaxWorkers(int max) {
        List<IoWorker> created = new ArrayList<>(0);
        int previous;
        lock.lock();
        try {
            previous = maxWorkers;
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
        } finally {
            lock.unlock();
        }
        created.forEach(this::start);
        return previous;
    }

    /**
     * Removes queued work that {@code match} accepts (all, or only the first) into
     * {@code out} and returns how many. With {@code all}, or when nothing queued matched,
     * also reports in {@code running[0]} whether a matching item is running. The caller
     * calls cancelQueued on {@code out} after this returns (outside the lock).
     */
    int cancel(Predicate<? super IoWork> match, boolean all, List<IoWork> out, boolean[] running) {
        lock.lock();
        try {
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
        } finally {
            lock.unlock();
        }
    }

    int workerCount() {
        lock.lock();
        try {
            return nrWorkers;
        } finally {
            lock.unlock();
        }
    }

    int queuedCount() {
        lock.lock();
        try {
            return work.size();
        } finally {
            lock.unlock();
        }
    }

    // ---- shutdown ----------------------------------------------------------------------

    /** Refuses new work, moves all queued work to {@code out}, wakes idle workers to leave. */
    void beginExit(List<IoWork> out) {
        lock.lock();
        try {
            exiting = true;
            work.drainTo(out);
            while (!free.isEmpty()) {
                wake(free.first());
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every worker has left, then joins their threads, so none is alive when
     * this returns. Called from one of this account's workers (a work item closing its
     * ring), it cannot wait for that worker, which leaves once its item returns.
     */
    void awaitWorkersExit() {
        Thread self = Thread.currentThread();
        List<IoWorker> toJoin;
        lock.lock();
        try {
            int own = 0;
            for (IoWorker wk : workers) {
                own += wk.thread == self ? 1 : 0;
            }
            while (nrWorkers > own) {
                workerLeft.awaitUninterruptibly();
            }
            toJoin = new ArrayList<>(workers);
        } finally {
            lock.unlock();
        }
        boolean interrupted = false;
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
