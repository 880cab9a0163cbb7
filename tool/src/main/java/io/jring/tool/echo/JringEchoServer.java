package io.jring.tool.echo;

import io.jring.CqeFlags;
import io.jring.CqeHandler;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.Sqe;
import io.jring.SqeFlags;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The echo server on jring: one thread owns one ring (SINGLE_ISSUER | DEFER_TASKRUN, so
 * completions run when that thread waits, never interrupting it). A multishot accept
 * brings connections; each connection has exactly one request in flight, a recv selecting
 * a buffer from a provided-buffer group or the send echoing it. When the send is done the
 * buffer goes back to the group and the recv is armed again: the shape of seed 003's server
 * and of liburing's io_uring-echo-server.
 *
 * <p>Per-connection state lives in preallocated arrays indexed by connection id, and every
 * buffer has its segment made up front, so a round trip allocates nothing.
 */
final class JringEchoServer implements EchoServer {

    /** The provided-buffer group every recv selects from. */
    static final int BUFFER_GROUP = 7;
    /** Bytes per provided buffer; a longer message is echoed in several recv/send steps. */
    static final int BUFFER_SIZE = 4096;
    /** Buffers in the group: more than the connections a bench keeps busy at once. */
    static final int BUFFER_COUNT = 4096;
    /** Connection slots; the user data carries the slot in its low 32 bits. */
    static final int MAX_CONNECTIONS = 1 << 16;
    static final int LISTEN_BACKLOG = 4096;
    /** SQ size: room for a send, or a buffer return plus a recv, for every CQE of a busy batch. */
    static final int RING_ENTRIES = 4096;
    /** How long close() waits for the ring thread before closing the ring under it. */
    static final long STOP_TIMEOUT_SECONDS = 5;

    // Request kinds, in the high 32 bits of the user data.
    static final int ACCEPT = 1;
    static final int RECV = 2;
    static final int SEND = 3;
    static final int PROVIDE = 4;
    static final int CLOSE = 5;

    private final EchoServerConfig config;
    private final int listenFd;
    private final InetSocketAddress address;
    private final int recvFlags;
    private final CqeHandler onCqe = this::onCqe;

    // Ring thread only, from run() on: plain fields and arrays.
    private IoUring ring;
    private Arena arena;
    /** One segment per buffer id, made once: sends and buffer returns reuse them. */
    private final MemorySegment[] buffers = new MemorySegment[BUFFER_COUNT];
    private final int[] connFd = new int[MAX_CONNECTIONS];
    /** Buffer id the connection holds while its send is in flight, else -1. */
    private final int[] heldBuffer = new int[MAX_CONNECTIONS];
    /** Bytes the held buffer holds to echo back, and how many of them are sent so far. */
    private final int[] received = new int[MAX_CONNECTIONS];
    private final int[] sent = new int[MAX_CONNECTIONS];
    private final int[] freeSlots = new int[MAX_CONNECTIONS];
    private int freeCount;
    /** Connections whose recv found the group empty (-ENOBUFS); re-armed as buffers come back. */
    private final int[] starved = new int[MAX_CONNECTIONS];
    private int starvedCount;
    private Throwable failure;

    /** Set by close() from any thread; the ring thread checks it after each batch of CQEs. */
    private volatile boolean stopping;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Written by the ring thread before it counts down {@link #stopped}, read after. */
    private volatile Throwable stopReason;
    /** The ring, for close() on another thread when the ring thread does not stop in time. */
    private volatile IoUring published;

    private JringEchoServer(EchoServerConfig config, int listenFd) {
        this.config = config;
        this.listenFd = listenFd;
        this.address = Fds.localAddress(listenFd);
        this.recvFlags = SqeFlags.BUFFER_SELECT | (config.async() ? SqeFlags.ASYNC : 0);
    }

    static JringEchoServer start(EchoServerConfig config) throws InterruptedException {
        int fd = Fds.listenTcp(new InetSocketAddress(ipAddress(config.host()), config.port()), LISTEN_BACKLOG);
        JringEchoServer server;
        try {
            server = new JringEchoServer(config, fd);
        } catch (RuntimeException e) {
            Fds.close(fd);
            throw e;
        }
        Thread.ofPlatform().daemon().name("jring-echo-ring").start(server::run);
        server.ready.await();
        if (server.stopped.getCount() == 0 && server.stopReason != null) {
            server.close();
            throw new IllegalStateException("the jring echo server could not start: "
                    + server.stopReason.getMessage(), server.stopReason);
        }
        return server;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public Throwable awaitStopped() throws InterruptedException {
        stopped.await();
        return stopReason;
    }

    /**
     * Asks the ring thread to stop and waits for it. The thread may be blocked in
     * submitAndWait and only a CQE wakes it, so close() connects to the server once: the
     * multishot accept completes and the thread sees {@link #stopping}.
     */
    @Override
    public void close() {
        if (!stopping) {
            stopping = true;
            wakeByConnecting();
        }
        try {
            if (!stopped.await(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                IoUring r = published;
                if (r != null) {
                    r.close();
                }
                stopped.await(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void wakeByConnecting() {
        if (stopped.getCount() == 0) {
            return;
        }
        wakeByConnecting(address);
    }

    /** Connects to {@code address} once and closes: a multishot accept there completes. */
    static void wakeByConnecting(InetSocketAddress address) {
        InetAddress to = address.getAddress().isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : address.getAddress();
        try {
            Fds.close(Fds.connectTcp(new InetSocketAddress(to, address.getPort())));
        } catch (RuntimeException e) {
            // Not accepting any more: the thread is stopping or stopped; close() waits with a bound.
        }
    }

    // ---------------------------------------------------------------- ring thread

    private void run() {
        try {
            openRing();
            ready.countDown();
            while (!stopping && failure == null) {
                ring.submitAndWait(1);
                ring.forEachCqe(onCqe);
            }
        } catch (Throwable t) {
            failure = stopping ? null : t;
        } finally {
            releaseAll();
            stopReason = failure;
            stopped.countDown();
            ready.countDown();
        }
    }

    private void openRing() {
        ring = IoUring.builder()
                .entries(RING_ENTRIES)
                .flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN | Setup.SUBMIT_ALL)
                .legacyAsync(config.legacyAsync())
                .build();
        published = ring;
        if (config.maxUnbound() > 0) {
            ring.registerIoWqMaxWorkers(0, config.maxUnbound());
        }
        arena = Arena.ofShared();
        MemorySegment region = arena.allocate((long) BUFFER_SIZE * BUFFER_COUNT, 4096);
        for (int bid = 0; bid < BUFFER_COUNT; bid++) {
            buffers[bid] = region.asSlice((long) bid * BUFFER_SIZE, BUFFER_SIZE);
        }
        for (int slot = 0; slot < MAX_CONNECTIONS; slot++) {
            connFd[slot] = -1;
            heldBuffer[slot] = -1;
            freeSlots[slot] = MAX_CONNECTIONS - 1 - slot;
        }
        freeCount = MAX_CONNECTIONS;
        // The buffers first, alone: if the engine cannot provide them, start() says so.
        nextSqe().prepProvideBuffers(region, BUFFER_SIZE, BUFFER_COUNT, BUFFER_GROUP, 0).userData(userData(PROVIDE, 0));
        ring.submitAndWait(1);
        ring.forEachCqe(onCqe);
        if (failure != null) {
            throw new IllegalStateException(failure.getMessage());
        }
        armAccept();
        ring.submit();
    }

    private void onCqe(long userData, int res, int flags) {
        int slot = (int) userData;
        switch ((int) (userData >>> 32)) {
            case ACCEPT -> onAccept(res, flags);
            case RECV -> onRecv(slot, res, flags);
            case SEND -> onSend(slot, res);
            case PROVIDE -> onProvide(res);
            case CLOSE -> { } // CQE_SKIP_SUCCESS: only a failed close gets here; the fd is gone either way.
            default -> failure = new IllegalStateException("CQE with unknown user data 0x" + Long.toHexString(userData));
        }
    }

    private void onAccept(int res, int flags) {
        if (res >= 0) {
            if (freeCount == 0) {
                closeFd(res);
            } else {
                int slot = freeSlots[--freeCount];
                connFd[slot] = res;
                armRecv(slot);
            }
        } else if (isListenerBroken(res)) {
            failure = new IllegalStateException("multishot accept on fd " + listenFd + " failed: "
                    + Errno.name(-res) + " (" + res + ")");
            return;
        }
        if ((flags & CqeFlags.MORE) == 0 && !stopping) {
            armAccept();
        }
    }

    /** Errors that say accepting cannot work at all, as opposed to one connection's trouble (EMFILE, ECONNABORTED...). */
    private static boolean isListenerBroken(int res) {
        return res == -Errno.EINVAL || res == -Errno.EBADF || res == -Errno.ENOTSOCK || res == -Errno.EOPNOTSUPP;
    }

    private void onRecv(int slot, int res, int flags) {
        int bid = (flags & CqeFlags.BUFFER) != 0 ? flags >>> CqeFlags.BUFFER_SHIFT : -1;
        if (res > 0) {
            if (bid < 0) {
                failure = new IllegalStateException("recv of " + res + " bytes completed without CqeFlags.BUFFER");
                return;
            }
            heldBuffer[slot] = bid;
            received[slot] = res;
            sent[slot] = 0;
            nextSqe().prepSend(connFd[slot], buffers[bid], 0).len(res).userData(userData(SEND, slot));
            return;
        }
        if (bid >= 0) {
            returnBuffer(bid);
        }
        if (res == -Errno.ENOBUFS) {
            starved[starvedCount++] = slot;
        } else {
            closeConnection(slot);
        }
    }

    private void onSend(int slot, int res) {
        int bid = heldBuffer[slot];
        if (res < 0) {
            closeConnection(slot);
            return;
        }
        sent[slot] += res;
        if (sent[slot] < received[slot]) {
            // A short send (the socket buffer filled up): send the rest; rare, so the slice may allocate.
            nextSqe().prepSend(connFd[slot], buffers[bid].asSlice(sent[slot], received[slot] - sent[slot]), 0)
                    .userData(userData(SEND, slot));
            return;
        }
        heldBuffer[slot] = -1;
        returnBuffer(bid);
        armRecv(slot);
    }

    private void onProvide(int res) {
        if (res < 0) {
            failure = new IllegalStateException("PROVIDE_BUFFERS to group " + BUFFER_GROUP + " completed with "
                    + Errno.name(-res) + " (" + res + ")");
        }
    }

    private void armAccept() {
        nextSqe().prepMultishotAccept(listenFd, 0).userData(userData(ACCEPT, 0));
    }

    private void armRecv(int slot) {
        nextSqe().prepRecv(connFd[slot], null, 0).flags(recvFlags).bufferGroup(BUFFER_GROUP)
                .userData(userData(RECV, slot));
    }

    /** Gives buffer {@code bid} back to the group; a connection starved of buffers may recv again. */
    private void returnBuffer(int bid) {
        nextSqe().prepProvideBuffers(buffers[bid], BUFFER_SIZE, 1, BUFFER_GROUP, bid)
                .flags(SqeFlags.CQE_SKIP_SUCCESS).userData(userData(PROVIDE, bid));
        if (starvedCount > 0) {
            armRecv(starved[--starvedCount]);
        }
    }

    private void closeConnection(int slot) {
        int bid = heldBuffer[slot];
        if (bid >= 0) {
            heldBuffer[slot] = -1;
            returnBuffer(bid);
        }
        closeFd(connFd[slot]);
        connFd[slot] = -1;
        freeSlots[freeCount++] = slot;
    }

    private void closeFd(int fd) {
        nextSqe().prepClose(fd).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(userData(CLOSE, 0));
    }

    /** The next SQE; when the SQ is full, submits what is queued to make room. */
    private Sqe nextSqe() {
        Sqe sqe = ring.getSqe();
        if (sqe == null) {
            ring.submit();
            sqe = ring.getSqe();
            if (sqe == null) {
                throw new IllegalStateException("the SQ is still full after a submit");
            }
        }
        return sqe;
    }

    static long userData(int kind, int slot) {
        return (long) kind << 32 | (slot & 0xFFFF_FFFFL);
    }

    /** Closing the ring cancels what is in flight and waits for it; only then may fds and buffers go. */
    private void releaseAll() {
        IoUring r = ring;
        if (r != null) {
            try {
                r.submit(); // the closes queued by the last batch of CQEs
            } catch (RuntimeException e) {
                // The ring is closed already (close() after a timeout); Fds.close below covers the fds.
            }
            try {
                r.close();
            } catch (RuntimeException e) {
                failure = failure != null ? failure : e;
            }
        }
        for (int slot = 0; slot < MAX_CONNECTIONS; slot++) {
            if (connFd[slot] >= 0) {
                closeQuietly(connFd[slot]);
                connFd[slot] = -1;
            }
        }
        closeQuietly(listenFd);
        if (arena != null) {
            arena.close();
        }
    }

    static void closeQuietly(int fd) {
        try {
            Fds.close(fd);
        } catch (RuntimeException e) {
            // Already closed (EBADF): nothing to release.
        }
    }

    static InetAddress ipAddress(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + host, e);
        }
    }
}
