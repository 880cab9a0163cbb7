package io.jring.nio;

import io.jring.channel.GroupRing;
import io.jring.channel.InFlightBudget;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.ShutdownChannelGroupException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An {@link AsynchronousChannelGroup} on jring rings: {@code N} SINGLE_ISSUER rings, each
 * owned by one thread of the group that submits the operations of its channels, waits for
 * their completions and runs their completion handlers. An operation started on a ring thread
 * goes to that thread's own ring; one started elsewhere to the next ring, round robin. Any thread may start an operation: one from a thread
 * other than the ring's owner reaches the ring as remote task work (the MSG_RING path),
 * with one compare-and-set and no lock.
 *
 * <p><b>Bound on operations in flight.</b> A group admits at most {@link #maxInFlight()}
 * operations in flight that were started by threads outside the group; a thread outside
 * the group that starts one more <em>waits in the starting call</em> (read, write, lock...)
 * until an operation of the group completes. The group's own threads (handlers starting the
 * next operation) never wait: their operations are admitted over the bound, since only they
 * can run the completions that would end the wait. The bound is
 * {@link #DEFAULT_MAX_IN_FLIGHT} per ring unless given.
 *
 * <p><b>Handlers.</b> A group made by {@link #open(int)} or {@link #open(int, int, ThreadFactory)} runs handlers on its
 * ring threads; a group made from an {@code ExecutorService} runs them on that executor.
 * A handler is never called from inside another handler's call: completions are taken from
 * the ring one at a time by the ring's loop, so handlers do not nest on a thread's stack.
 *
 * <p><b>Shutdown</b> is {@code AsynchronousChannelGroup}'s: after {@link #shutdown} no
 * channel can be opened in the group ({@link ShutdownChannelGroupException}); the group
 * terminates when its last channel is closed and every operation has completed, and then
 * closes its rings and ends its threads (and shuts its executor down, if it has one).
 * {@link #shutdownNow} also closes every open channel of the group.
 */
public final class JringAsynchronousChannelGroup extends AsynchronousChannelGroup {
    /** Operations in flight per ring admitted from threads outside the group, unless given. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 4096;

    private final GroupRing[] rings;
    private final InFlightBudget budget;
    private final ExecutorService executor;
    private final boolean isDefault;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger running;
    /** Open channels; added and removed under this group's monitor, read by shutdownNow. */
    private final Set<Closeable> channels = ConcurrentHashMap.newKeySet();
    /** Written under this group's monitor; volatile for isShutdown's readers. */
    private volatile boolean shutdown;
    /** Written under this group's monitor, once: the rings were told to stop. */
    private boolean stopping;

    private JringAsynchronousChannelGroup(JringAsynchronousChannelProvider provider, int nRings, int maxInFlight,
                                          ThreadFactory factory, ExecutorService executor, boolean isDefault) {
        super(provider);
        if (nRings < 1) {
            throw new IllegalArgumentException("a group needs at least one ring (thread): " + nRings);
        }
        this.budget = new InFlightBudget(maxInFlight);
        this.executor = executor;
        this.isDefault = isDefault;
        this.running = new AtomicInteger(nRings);
        this.rings = new GroupRing[nRings];
        List<GroupRing> made = new ArrayList<>();
        try {
            for (int i = 0; i < nRings; i++) {
                rings[i] = new GroupRing(factory, budget, this::ringTerminated);
                made.add(rings[i]);
            }
        } catch (RuntimeException e) {
            made.forEach(GroupRing::stop);
            throw e;
        }
    }

    /**
     * A group of {@code nRings} rings with threads named {@code jring-nio-N}.
     *
     * @param nRings the number of rings, one thread each
     * @return the group
     * @throws IllegalArgumentException if {@code nRings} is less than 1
     */
    public static JringAsynchronousChannelGroup open(int nRings) {
        return open(nRings, DEFAULT_MAX_IN_FLIGHT * nRings, namedThreads(false));
    }

    /**
     * A group of {@code nRings} rings whose threads {@code factory} makes, admitting at most
     * {@code maxInFlight} operations in flight from threads outside the group.
     *
     * @param nRings the number of rings, one thread each
     * @param maxInFlight the bound on operations in flight (see the class comment)
     * @param factory makes the ring threads
     * @return the group
     * @throws IllegalArgumentException if {@code nRings} or {@code maxInFlight} is less than 1
     */
    public static JringAsynchronousChannelGroup open(int nRings, int maxInFlight, ThreadFactory factory) {
        return new JringAsynchronousChannelGroup(JringAsynchronousChannelProvider.instance(), nRings, maxInFlight,
                factory, null, false);
    }

    static JringAsynchronousChannelGroup create(JringAsynchronousChannelProvider provider, int nRings,
                                                ThreadFactory factory, ExecutorService executor, boolean isDefault) {
        return new JringAsynchronousChannelGroup(provider, nRings, DEFAULT_MAX_IN_FLIGHT * nRings, factory,
                executor, isDefault);
    }

    static ThreadFactory namedThreads(boolean daemon) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "jring-nio-" + n.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        };
    }

    /** {@return the number of rings (and ring threads) of this group} */
    public int rings() {
        return rings.length;
    }

    /** {@return the bound on operations in flight started from threads outside the group} */
    public int maxInFlight() {
        return budget.limit();
    }

    // ---------------------------------------------------------------- for the channels

    /** Registers a new channel. */
    synchronized void bind(Closeable channel) {
        if (shutdown) {
            throw new ShutdownChannelGroupException();
        }
        channels.add(channel);
    }

    /**
     * The ring for an operation the calling thread starts: its own ring if it is a ring
     * thread of this group (no doorbell, no permit wait), else the next one round robin.
     */
    GroupRing pick() {
        for (GroupRing r : rings) {
            if (r.isOwner()) {
                return r;
            }
        }
        return rings.length == 1 ? rings[0] : rings[Math.floorMod(next.getAndIncrement(), rings.length)];
    }

    /** {@return every ring of the group} */
    GroupRing[] allRings() {
        return rings;
    }

    /** A channel of this group has closed. */
    synchronized void unbind(Closeable channel) {
        if (channels.remove(channel) && shutdown) {
            stopIfIdle();
        }
    }

    /** {@return where handlers run: the executor, or null for the ring threads} */
    ExecutorService executor() {
        return executor;
    }

    InFlightBudget budget() {
        return budget;
    }

    /** {@return whether the calling thread is one of this group's ring threads} */
    boolean isGroupThread() {
        for (GroupRing r : rings) {
            if (r.isOwner()) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- AsynchronousChannelGroup

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return running.get() == 0;
    }

    @Override
    public synchronized void shutdown() {
        if (isDefault) {
            return;   // the default group lives as long as the JVM
        }
        shutdown = true;
        stopIfIdle();
    }

    @Override
    public void shutdownNow() throws IOException {
        if (isDefault) {
            return;
        }
        synchronized (this) {
            shutdown = true;
        }
        for (Closeable c : channels.toArray(new Closeable[0])) {
            c.close();
        }
        synchronized (this) {
            stopIfIdle();
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (GroupRing r : rings) {
            if (!r.awaitTermination(Math.max(0, deadline - System.nanoTime()))) {
                return false;
            }
        }
        return true;
    }

    private void stopIfIdle() {
        if (shutdown && channels.isEmpty() && !stopping) {
            stopping = true;
            for (GroupRing r : rings) {
                r.stop();
            }
        }
    }

    private void ringTerminated() {
        if (running.decrementAndGet() == 0 && executor != null) {
            executor.shutdown();
        }
    }
}
