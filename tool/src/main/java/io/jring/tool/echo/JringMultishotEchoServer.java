package io.jring.tool.echo;

import io.jring.BufRing;
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
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The echo server the modern way, as servers on Linux's io_uring are built today (liburing's
 * examples/proxy, Netty's io_uring transport): one thread, one SINGLE_ISSUER | DEFER_TASKRUN
 * ring, a multishot accept, and per connection one multishot RECV armed for its whole life,
 * receiving into a ring-mapped buffer group ({@link BufRing}). Each recv CQE's buffer is sent
 * back as it is; when the send is done the buffer goes back into the ring with a store to
 * shared memory (no SQE, no syscall), published once per batch of CQEs. A connection's sends
 * go out one at a time in arrival order (later buffers wait in a per-connection queue), so
 * the echo keeps the byte order.
 *
 * <p>SEND bundles are not used: with one request in flight per connection, as the bench
 * drives it, a connection never has more than one buffer to send, and a bundle needs the
 * buffers in a ring of their own in send order. A multishot that ends with -ENOBUFS (the
 * ring ran dry) is armed again when buffers come back. State lives in preallocated arrays
 * indexed by connection slot and buffer id: a round trip allocates nothing.
 */
final class JringMultishotEchoServer implements EchoServer {
    static final int BUFFER_GROUP = 9;
    static final int BUFFER_SIZE = 4096;
    /** Ring entries (and buffers): a power of two, more than the connections keep busy. */
    static final int BUFFER_COUNT = 8192;
    static final int MAX_CONNECTIONS = 1 << 16;
    static final int LISTEN_BACKLOG = 4096;
    static final int RING_ENTRIES = 4096;
    static final long STOP_TIMEOUT_SECONDS = 5;

    // Request kinds, in bits 48..55 of the user data; a send's buffer id in bits 32..47.
    static final int ACCEPT = 1;
    static final int RECV = 2;
    static final int SEND = 3;
    static final int CLOSE = 5;

    private final int listenFd;
    private final InetSocketAddress address;
    private final CqeHandler onCqe = this::onCqe;

    // Ring thread only: plain fields and arrays.
    private IoUring ring;
    private Arena arena;
    private BufRing bufRing;
    /** Buffers handed back during this batch of CQEs, published by one advance after it. */
    private int returned;
    private final MemorySegment[] buffers = new MemorySegment[BUFFER_COUNT];
    private final int[] connFd = new int[MAX_CONNECTIONS];
    /** The connection's multishot recv is armed. */
    private final boolean[] receiving = new boolean[MAX_CONNECTIONS];
    /** The connection saw EOF or an error: it closes once its sends are done. */
    private final boolean[] ending = new boolean[MAX_CONNECTIONS];
    /** Buffer the connection is sending (-1: none), with bytes to send and sent so far. */
    private final int[] sending = new int[MAX_CONNECTIONS];
    private final int[] toSend = new int[MAX_CONNECTIONS];
    private final int[] sentSoFar = new int[MAX_CONNECTIONS];
    /** Received buffers waiting for the connection's send: a FIFO linked through {@link #nextQueued}. */
    private final int[] queueHead = new int[MAX_CONNECTIONS];
    private final int[] queueTail = new int[MAX_CONNECTIONS];
    private final int[] nextQueued = new int[BUFFER_COUNT];
    private final int[] queuedLength = new int[BUFFER_COUNT];
    private final int[] freeSlots = new int[MAX_CONNECTIONS];
    private int freeCount;
    /** Connections whose multishot ended with -ENOBUFS, armed again as buffers come back. */
    private final int[] starved = new int[MAX_CONNECTIONS];
    private int starvedCount;
    private Throwable failure;

    /** Set by close() from any thread; the ring thread checks it after each batch. */
    private volatile boolean stopping;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Written by the ring thread before it counts down {@link #stopped}, read after. */
    private volatile Throwable stopReason;
    private volatile IoUring published;

    private JringMultishotEchoServer(int listenFd) {
        this.listenFd = listenFd;
        this.address = Fds.localAddress(listenFd);
    }

    static JringMultishotEchoServer start(EchoServerConfig config) throws InterruptedException {
        int fd = Fds.listenTcp(new InetSocketAddress(JringEchoServer.ipAddress(config.host()), config.port()),
                LISTEN_BACKLOG);
        JringMultishotEchoServer server;
        try {
            server = new JringMultishotEchoServer(fd);
        } catch (RuntimeException e) {
            Fds.close(fd);
            throw e;
        }
        Thread.ofPlatform().daemon().name("jring-echo-multishot").start(server::run);
        server.ready.await();
        if (server.stopped.getCount() == 0 && server.stopReason != null) {
            server.close();
            throw new IllegalStateException("the jring multishot echo server could not start: "
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

    /** As {@link JringEchoServer#close}: a connection wakes the ring thread, which sees {@link #stopping}. */
    @Override
    public void close() {
        if (!stopping) {
            stopping = true;
            if (stopped.getCount() != 0) {
                JringEchoServer.wakeByConnecting(address);
            }
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

    // ---------------------------------------------------------------- ring thread

    private void run() {
        try {
            openRing();
            ready.countDown();
            while (!stopping && failure == null) {
                ring.submitAndWait(1);
                ring.forEachCqe(onCqe);
                publishReturned();
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
                .build();
        published = ring;
        arena = Arena.ofShared();
        bufRing = BufRing.setup(ring, BUFFER_COUNT, BUFFER_GROUP, 0);
        MemorySegment region = arena.allocate((long) BUFFER_SIZE * BUFFER_COUNT, 4096);
        for (int bid = 0; bid < BUFFER_COUNT; bid++) {
            buffers[bid] = region.asSlice((long) bid * BUFFER_SIZE, BUFFER_SIZE);
            bufRing.add(buffers[bid], bid, bid);
        }
        bufRing.advance(BUFFER_COUNT);
        for (int slot = 0; slot < MAX_CONNECTIONS; slot++) {
            connFd[slot] = -1;
            sending[slot] = -1;
            queueHead[slot] = -1;
            freeSlots[slot] = MAX_CONNECTIONS - 1 - slot;
        }
        freeCount = MAX_CONNECTIONS;
        armAccept();
        ring.submit();
    }

    private void onCqe(long userData, int res, int flags) {
        int slot = (int) userData;
        switch ((int) (userData >>> 48)) {
            case ACCEPT -> onAccept(res, flags);
            case RECV -> onRecv(slot, res, flags);
            case SEND -> onSend(slot, (int) (userData >>> 32) & 0xFFFF, res);
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
                ending[slot] = false;
                armRecv(slot);
            }
        } else if (res == -Errno.EINVAL || res == -Errno.EBADF || res == -Errno.ENOTSOCK) {
            failure = new IllegalStateException("multishot accept on fd " + listenFd + " failed: " + Errno.name(-res));
            return;
        }
        if ((flags & CqeFlags.MORE) == 0 && !stopping) {
            armAccept();
        }
    }

    private void onRecv(int slot, int res, int flags) {
        boolean more = (flags & CqeFlags.MORE) != 0;
        if (!more) {
            receiving[slot] = false;
        }
        if (res > 0) {
            if ((flags & CqeFlags.BUFFER) == 0) {
                failure = new IllegalStateException("recv of " + res + " bytes completed without CqeFlags.BUFFER");
                return;
            }
            if (ending[slot]) {
                giveBack(CqeFlags.bufferId(flags));   // a send failed: nothing more goes out
            } else {
                enqueue(slot, CqeFlags.bufferId(flags), res);
            }
            if (!more) {
                armRecv(slot);   // ended with data (its byte limit, a full CQ on Linux): go on
            }
            return;
        }
        if (res == -Errno.ENOBUFS) {
            starved[starvedCount++] = slot;
            return;
        }
        ending[slot] = true;   // EOF or an error
        closeIfDone(slot);
    }

    private void enqueue(int slot, int bid, int len) {
        if (sending[slot] < 0) {
            send(slot, bid, len);
            return;
        }
        queuedLength[bid] = len;
        nextQueued[bid] = -1;
        if (queueHead[slot] < 0) {
            queueHead[slot] = bid;
        } else {
            nextQueued[queueTail[slot]] = bid;
        }
        queueTail[slot] = bid;
    }

    private void send(int slot, int bid, int len) {
        sending[slot] = bid;
        toSend[slot] = len;
        sentSoFar[slot] = 0;
        nextSqe().prepSend(connFd[slot], buffers[bid], 0).len(len).userData(userData(SEND, bid, slot));
    }

    private void onSend(int slot, int bid, int res) {
        if (res >= 0) {
            sentSoFar[slot] += res;
            if (sentSoFar[slot] < toSend[slot] && !ending[slot]) {
                // A short send (the socket buffer filled up): the rest; rare, so the slice may allocate.
                nextSqe().prepSend(connFd[slot], buffers[bid].asSlice(sentSoFar[slot], toSend[slot] - sentSoFar[slot]), 0)
                        .userData(userData(SEND, bid, slot));
                return;
            }
        } else {
            ending[slot] = true;
        }
        sending[slot] = -1;
        giveBack(bid);
        int next = queueHead[slot];
        if (ending[slot]) {
            for (; next >= 0; next = nextQueued[next]) {
                giveBack(next);   // the connection is going: what waited is not sent
            }
            queueHead[slot] = -1;
        } else if (next >= 0) {
            queueHead[slot] = nextQueued[next];
            send(slot, next, queuedLength[next]);
            return;
        }
        closeIfDone(slot);
    }

    /** Back into the ring, published with the others after this batch of CQEs. */
    private void giveBack(int bid) {
        bufRing.add(buffers[bid], bid, returned++);
    }

    private void publishReturned() {
        if (returned == 0) {
            return;
        }
        bufRing.advance(returned);
        int n = Math.min(returned, starvedCount);
        returned = 0;
        for (int i = 0; i < n; i++) {
            int slot = starved[--starvedCount];
            if (connFd[slot] >= 0 && !ending[slot]) {
                armRecv(slot);
            }
        }
        if (n > 0) {
            ring.submit();
        }
    }

    private void closeIfDone(int slot) {
        if (!ending[slot] || receiving[slot] || sending[slot] >= 0 || connFd[slot] < 0) {
            return;
        }
        closeFd(connFd[slot]);
        connFd[slot] = -1;
        freeSlots[freeCount++] = slot;
    }

    private void armAccept() {
        nextSqe().prepMultishotAccept(listenFd, 0).userData(userData(ACCEPT, 0, 0));
    }

    private void armRecv(int slot) {
        receiving[slot] = true;
        nextSqe().prepRecvMultishot(connFd[slot], null, 0).bufferSelect(BUFFER_GROUP).userData(userData(RECV, 0, slot));
    }

    private void closeFd(int fd) {
        nextSqe().prepClose(fd).flags(SqeFlags.CQE_SKIP_SUCCESS).userData(userData(CLOSE, 0, 0));
    }

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

    static long userData(int kind, int bid, int slot) {
        return (long) kind << 48 | (long) (bid & 0xFFFF) << 32 | (slot & 0xFFFF_FFFFL);
    }

    /** Closing the ring cancels what is in flight and waits for it; only then may fds and buffers go. */
    private void releaseAll() {
        IoUring r = ring;
        if (r != null) {
            try {
                r.submit();
            } catch (RuntimeException e) {
                // closed already (close() after a timeout)
            }
            try {
                r.close();
            } catch (RuntimeException e) {
                failure = failure != null ? failure : e;
            }
        }
        if (bufRing != null) {
            bufRing.close();
        }
        for (int slot = 0; slot < MAX_CONNECTIONS; slot++) {
            if (connFd[slot] >= 0) {
                JringEchoServer.closeQuietly(connFd[slot]);
                connFd[slot] = -1;
            }
        }
        JringEchoServer.closeQuietly(listenFd);
        if (arena != null) {
            arena.close();
        }
    }
}
