package io.jring.poll;

/**
 * One fd in a {@link Poller}'s epoll set with the waits armed on it. The fd stays in the set
 * (edge-triggered) after its last wait leaves, so the next arm costs no syscall while the
 * interest covers it ({@link ArmedFds}); a closed fd drops out of epoll by itself, and a
 * reused number is re-added on ENOENT.
 * Holder of the poller's task only.
 */
final class ArmedFd implements PollSource {
    private static final int ALWAYS = Poller.ALWAYS_REPORTED;

    final int fd;
    /** Poller handle of the registration; 0 = not registered. */
    long handle;
    /** The epoll interest last set, and the close epoch at that time (see Poller.arm). */
    int registered;
    long epoch;
    /**
     * Events whose report is no news while {@link ArmedFds} changes the registration: the
     * waits were told of them at arm time. 0 otherwise.
     */
    int suppress;
    private PollWait head;
    private PollWait tail;
    int count;

    ArmedFd(int fd) {
        this.fd = fd;
    }

    void link(PollWait w) {
        w.on = this;
        w.prev = tail;
        w.next = null;
        if (tail == null) {
            head = w;
        } else {
            tail.next = w;
        }
        tail = w;
        count++;
    }

    void unlink(PollWait w) {
        if (w.prev == null) {
            head = w.next;
        } else {
            w.prev.next = w.next;
        }
        if (w.next == null) {
            tail = w.prev;
        } else {
            w.next.prev = w.prev;
        }
        w.prev = null;
        w.next = null;
        w.on = null;
        count--;
    }

    /**
     * The file these waits were armed on is gone from this number (closed; the number may
     * name another file now): unlinks them all, and they stay pending, as Linux's requests
     * hold the old file; cancel or the ring's close ends them. Returns how many.
     */
    int orphanAll() {
        int n = count;
        while (head != null) {
            unlink(head);
        }
        return n;
    }

    /** The union of the linked waits' masks. */
    int interest() {
        int m = 0;
        for (PollWait w = head; w != null; w = w.next) {
            m |= w.mask;
        }
        return m;
    }

    /**
     * Hands the events to every linked wait they match, oldest first; one-shot waits are
     * unlinked first (so a wait re-armed from {@code ready} goes to the back).
     */
    @Override
    public void onReady(Poller poller, int revents) {
        revents &= ~suppress;
        PollWait w = head;
        PollWait last = tail;
        while (w != null) {
            PollWait next = w == last ? null : w.next;
            if ((revents & (w.mask | ALWAYS)) != 0) {
                if (!w.multishot) {
                    unlink(w);
                    poller.demand(-1);
                }
                w.ready(revents);
            }
            w = next;
        }
    }
}
