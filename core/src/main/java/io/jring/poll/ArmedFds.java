package io.jring.poll;

import io.jring.Errno;
import io.jring.sys.FsCalls;
import io.jring.sys.PollCalls;
import io.jring.sys.SysCallContext;

import java.util.Arrays;

/**
 * A {@link Poller}'s armed descriptors by fd number, and how a wait is armed on one (Linux's
 * {@code __io_arm_poll_handler}). Each Linux poll request has its own wait-queue entry, so
 * arming one looks at the file's readiness for that request alone ({@code vfs_poll} at arm
 * time) and never wakes the requests already armed on the file. Here all waits on an fd share
 * one edge-triggered epoll registration, and changing it ({@code EPOLL_CTL_ADD/MOD}) makes
 * epoll report the fd's current readiness to all of them. So readiness at arm time is taken
 * with poll(2) and given to the new wait alone, and around a registration change the waits
 * are told only what changed since: events pending before it go to the waits armed before
 * (a first {@code epoll_wait(0)}), and in the report the change produces (a second one) the
 * events that were there at arm time are not news. Edges in the few microseconds between
 * those calls merge with that report, as Linux merges wakeups that come before a poll's
 * task work runs. With a {@link PollerThread} (another thread waits on the armed fds) the
 * harvests cannot be made: there the registration is changed to look at readiness, and the
 * report it makes goes to every wait on the fd.
 *
 * <p>The table grows only for an fd epoll accepted (an open descriptor, so below
 * RLIMIT_NOFILE): a number out of range fails with -EBADF before anything is allocated.
 * Holder of the poller's task only, like the poller's source table: plain fields.
 */
final class ArmedFds {
    private static final int ALWAYS = Poller.ALWAYS_REPORTED;
    /** Every event a wait can ask for, for a readiness snapshot (0x40-0x400: RDNORM, RDBAND, WRNORM, WRBAND, MSG). */
    private static final int ALL_EVENTS = PollCalls.EPOLLIN | PollCalls.EPOLLPRI | PollCalls.EPOLLOUT
            | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | PollCalls.EPOLLRDHUP;
    private static final int POLLNVAL = 0x20;
    /** epoll_wait(0) calls one harvest makes at most, while they come back full. */
    private static final int MAX_HARVESTS = 8;

    private final Poller poller;
    /** The poller's epoll set, where the armed fds are registered. */
    private final EpollSet set;
    /** fd -> its entry in the epoll set (kept after the last wait leaves). */
    private ArmedFd[] byFd = new ArmedFd[64];

    ArmedFds(Poller poller, EpollSet set) {
        this.poller = poller;
        this.set = set;
    }

    /**
     * Any thread: the readiness of {@code fd} now (poll(2) with timeout 0) for every event a
     * wait can ask for, as Linux's arm-time {@code vfs_poll}: the ready events, or -EBADF
     * if no file has that number.
     */
    static int readiness(int fd) {
        if (fd < 0) {
            return -Errno.EBADF;
        }
        int r = PollCalls.pollNow(SysCallContext.current(), fd, ALL_EVENTS);
        return r >= 0 && (r & POLLNVAL) != 0 ? -Errno.EBADF : r;
    }

    /** See {@link Poller#arm}. */
    int arm(PollWait w, int fd, int mask, boolean multishot, int known) {
        if (fd < 0) {
            return -Errno.EBADF;
        }
        boolean harvest = poller.ownerWaits();
        ArmedFd a = fd < byFd.length ? byFd[fd] : null;
        long epoch = FsCalls.closeEpoch();
        boolean current = a != null && a.handle != 0 && (a.registered & mask) == mask && a.epoch == epoch;
        boolean others = !current && a != null && a.count > 0 && harvest;
        if (known == Poller.CHECK_NOW || (known == Poller.UNCHECKED && others)) {
            known = readiness(fd);   // others: what they were told is needed to change the registration
            if (known < 0) {
                return known;
            }
        }
        w.mask = mask;
        w.multishot = multishot;
        boolean ready = known > 0 && (known & (mask | ALWAYS)) != 0;
        if (ready && !multishot) {
            w.ready(known);   // ready now: completes without a registration, as in Linux
            return 0;
        }
        // With a poller thread, a looked-at fd is registered again instead, and the report
        // that makes (the thread takes it) tells the waits.
        boolean recheck = !harvest && known >= 0;
        if (current && !recheck) {
            // Epoll reports the next edge to every linked wait, this one too.
            if (ready && harvest) {
                poller.harvest(MAX_HARVESTS);   // edges from before the snapshot are not this wait's
            }
            link(a, w, ready, known);
            return 0;
        }
        if (others) {
            poller.harvest(MAX_HARVESTS);   // what epoll holds goes to the waits armed before
        }
        int interest = ((a != null ? a.interest() : 0) | mask | PollCalls.EPOLLET | PollCalls.EPOLLRDHUP)
                & ~PollCalls.EPOLLONESHOT;
        int r = a != null && a.handle != 0 ? set.modify(a.handle, fd, interest) : -Errno.ENOENT;
        if (r == -Errno.ENOENT && a != null && a.handle != 0) {
            // The fd was closed and its number names another file now: register it afresh.
            // Waits still linked belong to the closed file: the new file's readiness is not
            // theirs (they would read another connection's data).
            poller.demand(-a.orphanAll());
            set.remove(a.handle, fd, false);
            a.handle = 0;
            interest = (mask | PollCalls.EPOLLET | PollCalls.EPOLLRDHUP) & ~PollCalls.EPOLLONESHOT;
        }
        if (r == -Errno.ENOENT) {
            ArmedFd fresh = a != null ? a : new ArmedFd(fd);
            long h = set.addArmed(fresh, fd, interest);
            if (h < 0) {
                return (int) h;   // -EBADF, or -EPERM for a file epoll cannot watch (a regular file)
            }
            fresh.handle = h;
            a = fresh;
            store(fd, a);
            r = 0;
        }
        if (r < 0) {
            return r;
        }
        a.registered = interest;
        a.epoch = epoch;
        link(a, w, ready && harvest, known);
        if (harvest && known > 0 && (known & (interest | ALWAYS)) != 0) {
            // The change made epoll report what it found, which the waits know already.
            a.suppress = known;
            poller.harvest(MAX_HARVESTS);
            a.suppress = 0;
        }
        return 0;
    }

    private void link(ArmedFd a, PollWait w, boolean ready, int known) {
        a.link(w);
        poller.demand(1);
        if (ready) {
            w.ready(known);   // a multishot wait: its first report, and it stays armed
        }
    }

    private void store(int fd, ArmedFd a) {
        if (fd >= byFd.length) {
            byFd = Arrays.copyOf(byFd, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(fd + 1L, 2L * byFd.length)));
        }
        byFd[fd] = a;
    }
}
