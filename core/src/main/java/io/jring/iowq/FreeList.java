package io.jring.iowq;

/**
 * An account's idle workers ({@code acct->free_list}), most recently idle first: waking the
 * first keeps the warm workers busy and lets the others reach their idle timeout. Intrusive
 * through {@link IoWorker#freeNext}/{@link IoWorker#freePrev}, so it allocates nothing.
 * Not thread-safe: guarded by the account's monitor.
 */
final class FreeList {

    private IoWorker head;

    boolean isEmpty() {
        return head == null;
    }

    /** How many workers are idle (walks the list: for statistics, not the hot path). */
    int size() {
        int n = 0;
        for (IoWorker w = head; w != null; w = w.freeNext) {
            n++;
        }
        return n;
    }

    IoWorker first() {
        return head;
    }

    void push(IoWorker w) {
        w.free = true;
        w.freePrev = null;
        w.freeNext = head;
        if (head != null) {
            head.freePrev = w;
        }
        head = w;
    }

    void unlink(IoWorker w) {
        if (w.freePrev != null) {
            w.freePrev.freeNext = w.freeNext;
        } else {
            head = w.freeNext;
        }
        if (w.freeNext != null) {
            w.freeNext.freePrev = w.freePrev;
        }
        w.freeNext = w.freePrev = null;
        w.free = false;
    }
}
