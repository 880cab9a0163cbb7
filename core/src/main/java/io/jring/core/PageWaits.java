package io.jring.core;

import io.jring.Errno;

import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * Buffered reads waiting for their pages (Linux's IOCB_WAITQ retry in io_uring/rw.c: a read
 * that misses the page cache arms a wait on the page, whose unlock callback retries the read;
 * no thread blocks per read). The read's non-blocking attempt already started the device
 * read of its pages (filemap readahead under RWF_NOWAIT), so waiting needs no thread per
 * request: one waiter thread per ring blocks in the oldest read (which waits for its page and
 * copies it), then retries every other waiting read without blocking and completes those
 * whose pages have arrived meanwhile. The device keeps every started read in flight; the
 * waiter only pays one wake-up per batch, where an io-wq worker per read paid about four
 * thread switches per read (docs/BENCHMARKS.md, issue 18).
 *
 * <p>As in Linux, a waiting read is in neither io-wq nor the poll table, so ASYNC_CANCEL does
 * not find it (-ENOENT) and it completes with its data shortly. A read that asked for ASYNC,
 * or whose file cannot do NOWAIT, still goes to io-wq.
 *
 * <p>Threads: {@link #add} runs under the ring's posting right; the waiter thread takes the
 * reads and completes them through task work ({@link RequestIssuer#retryPageRead}); close()
 * runs after every request finished. {@link #incoming}, {@link #waiter}, {@link #idle} and
 * {@link #closed} are guarded by this object's monitor.
 */
final class PageWaits {
    private final RingContext ring;
    private final long idleNanos = Long.getLong("jring.iowq.idleMillis", 5_000L) * 1_000_000L;
    /** Reads handed over since the waiter last looked (monitor). */
    private final ArrayDeque<Request> incoming = new ArrayDeque<>();
    /** The waiter thread, or null while none runs: it retires when idle (monitor). */
    private Thread waiter;
    /** The waiter is in wait() for work, so {@link #add} notifies it (monitor). */
    private boolean idle;
    /** close() ran: the waiter ends and a late read is cancelled (monitor). */
    private boolean closed;

    PageWaits(RingContext ring) {
        this.ring = ring;
    }

    /** Posting right: {@code req} waits for its pages; the buffer it uses was chosen by then. */
    void add(Request req) {
        synchronized (this) {
            if (!closed) {
                incoming.addLast(req);
                if (waiter == null) {
                    waiter = new Thread(this::run, "jring-pagewait-" + ring.id);
                    waiter.setDaemon(true);
                    waiter.start();
                } else if (idle) {
                    notify();
                }
                return;
            }
        }
        ring.issuer.completeFromElsewhere(req, -Errno.ECANCELED, req.cflags);
    }

    /** The waiter thread's loop: until idle for the io-wq idle timeout, or closed. */
    private void run() {
        ArrayList<Request> pending = new ArrayList<>();   // the waiter's own, oldest first
        RequestIssuer issuer = ring.issuer;
        for (;;) {
            if (!takeIncoming(pending)) {
                return;
            }
            // The oldest read blocks until its page is in (and copies it) ...
            issuer.retryPageRead(pending.get(0), true);
            takeIncoming(pending, false);
            // ... then the others are retried without blocking: whose pages arrived completes.
            int kept = 0;
            for (int i = 1; i < pending.size(); i++) {
                Request r = pending.get(i);
                if (!issuer.retryPageRead(r, false)) {
                    pending.set(kept++, r);
                }
            }
            pending.subList(kept, pending.size()).clear();
        }
    }

    /** Moves the handed-over reads to {@code pending}, waiting while there are none; false: retire. */
    private boolean takeIncoming(ArrayList<Request> pending) {
        return takeIncoming(pending, true);
    }

    private synchronized boolean takeIncoming(ArrayList<Request> pending, boolean wait) {
        while (wait && pending.isEmpty() && incoming.isEmpty()) {
            if (closed) {
                waiter = null;
                return false;
            }
            long start = System.nanoTime();
            idle = true;
            try {
                wait(idleNanos / 1_000_000L);
            } catch (InterruptedException e) {
                // nobody interrupts the waiter: a stray interrupt only ends this wait early
            } finally {
                idle = false;
            }
            if (incoming.isEmpty() && System.nanoTime() - start >= idleNanos) {
                waiter = null;   // idle for the timeout: an idle ring holds no thread
                return false;
            }
        }
        pending.addAll(incoming);
        incoming.clear();
        return true;
    }

    /** close(), after every request finished: ends the waiter thread and waits for it. */
    void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = waiter;
            notifyAll();
        }
        if (t == null) {
            return;
        }
        boolean interrupted = false;
        for (;;) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
