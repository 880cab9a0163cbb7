package io.jring.tool.soak;

import io.jring.Cancel;
import io.jring.Cqe;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Sqe;
import io.jring.SqeFlags;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * One soak thread and its ring. Each round opens fresh descriptors (a pipe, an AF_UNIX
 * pair, a loopback TCP connection, the thread's file), submits a mix over them (reads and
 * writes, sends and recvs, OPENAT and ACCEPT, a linked write-read(-fsync) chain, a drained fsync,
 * timeouts, a link timeout, a cancel, NOPs, a MSG_RING to another thread's ring), waits a
 * little for the mix to finish by itself, cancels what is left, and waits (bounded) for
 * every CQE. The fault seam meanwhile makes calls fail, so any CQE may carry an error:
 * the soak checks only that each comes exactly once ({@link CqeLedger}).
 */
final class SoakWorker implements Runnable {
    private static final int PLAIN = 0;
    private static final int OPEN = 1;
    private static final int ACCEPT = 2;
    private static final int MESSAGE_SENT = 3;
    private static final int MSG_WAITALL = 0x100;
    /** How long a round lets its mix finish by itself before it cancels the rest. */
    private static final long SETTLE_NANOS = 5_000_000L;
    /** How long a round waits for its CQEs once cancelled before it calls them overdue. */
    private static final long ROUND_LIMIT_NANOS = 10_000_000_000L;

    final int id;
    final IoUring ring;
    final CqeLedger ledger = new CqeLedger();
    private final SoakRun run;
    private final Path file;
    private final Arena arena = Arena.ofShared();   // io-wq workers touch these buffers too
    private final MemorySegment small = arena.allocate(64);
    private final MemorySegment small2 = arena.allocate(64);
    private final MemorySegment small3 = arena.allocate(64);
    private final MemorySegment page = arena.allocate(4096);
    private final MemorySegment page2 = arena.allocate(4096);
    private final MemorySegment tcpOut = arena.allocate(256);
    private final MemorySegment tcpIn = arena.allocate(256);
    /** MSG_RINGs this ring sent and has no CQE for yet: user data -> message. Owner only. */
    private final Map<Long, Long> sent = new HashMap<>();
    private long seq;
    private int fileFd;
    private int accepted;
    private int listenFd = -1;
    private InetSocketAddress listenAddress;

    // Owner only; read by the command after join.
    long sqes;
    long rounds;
    long overdueRounds;
    Throwable failure;

    SoakWorker(int id, IoUring ring, SoakRun run, Path file) {
        this.id = id;
        this.ring = ring;
        this.run = run;
        this.file = file;
    }

    @Override
    public void run() {
        try {
            listenFd = Fds.listenTcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            listenAddress = Fds.localAddress(listenFd);
            while (!run.expired() && !run.aborted()) {
                round();
            }
        } catch (Throwable t) {
            failure = t;
            run.abort();
        } finally {
            run.doneSending();
        }
        drainToTheEnd();
        if (listenFd >= 0) {
            Fds.close(listenFd);
        }
    }

    /** Frees the buffers once nothing can use them any more (the ring is closed). */
    void release() {
        arena.close();
    }

    private void round() {
        int[] pipe = Fds.pipe();
        int[] pair = Fds.socketPair();
        int client = Fds.connectTcp(listenAddress);
        fileFd = -1;
        accepted = -1;
        boolean odd = (rounds & 1) != 0;
        try {
            expect(OPEN, sqe().prepOpenat(Fds.AT_FDCWD, file.toString(), OpenFlags.RDWR, 0));
            expect(ACCEPT, sqe().prepAccept(listenFd, 0));
            expect(PLAIN, sqe().prepRead(pipe[0], small, -1));
            expect(PLAIN, sqe().prepWrite(pipe[1], small2.asSlice(0, 16), -1).flags(odd ? SqeFlags.ASYNC : 0));
            expect(PLAIN, sqe().prepRecv(pair[1], small3, odd ? MSG_WAITALL : 0));
            expect(PLAIN, sqe().prepSend(pair[0], small2, 0));
            expect(PLAIN, sqe().prepRecv(pair[0], page2.asSlice(0, 64), 0).flags(SqeFlags.IO_LINK));   // nothing comes
            expect(PLAIN, sqe().prepLinkTimeout(2_000_000L, 0));
            long victim = expect(PLAIN, sqe().prepRead(pipe[0], page2.asSlice(64, 64), -1));
            expect(PLAIN, sqe().prepCancel(victim, 0));
            expect(PLAIN, sqe().prepTimeout(1_000_000L, 0, 0));
            expect(PLAIN, sqe().prepTimeout(3_000_000L, 2, 0));
            for (int i = 0; i < 4; i++) {
                expect(PLAIN, sqe().prepNop().flags(i % 2 == 0 ? SqeFlags.ASYNC : 0));
            }
            sendMessage();
            submit();
            awaitRoles();
            if (fileFd >= 0) {
                long off = (rounds % 64) * 4096L;
                expect(PLAIN, sqe().prepWrite(fileFd, page, off).flags(SqeFlags.IO_LINK | (odd ? SqeFlags.ASYNC : 0)));
                expect(PLAIN, sqe().prepRead(fileFd, page2, off).flags(rounds % 8 == 0 ? SqeFlags.IO_LINK : 0));
                if (rounds % 8 == 0) {
                    expect(PLAIN, sqe().prepFsync(fileFd, 0));
                }
            }
            if (accepted >= 0) {
                expect(PLAIN, sqe().prepSend(client, tcpOut, 0));
                expect(PLAIN, sqe().prepRecv(accepted, tcpIn, MSG_WAITALL));
            }
            submit();
            reapFor(SETTLE_NANOS, true);
            if (ledger.inFlight() > 0) {
                expect(PLAIN, sqe().prepCancel(0, Cancel.ANY | Cancel.ALL));
                submit();
            }
            if (fileFd >= 0 && rounds % 8 == 4) {
                // A drain waits for everything before it, the cancel too: only once nothing is left.
                reapFor(ROUND_LIMIT_NANOS, true);
                expect(PLAIN, sqe().prepFsync(fileFd, 0).flags(SqeFlags.IO_DRAIN));
                expect(PLAIN, sqe().prepNop());
                submit();
            }
            if (!reapFor(ROUND_LIMIT_NANOS, true)) {
                overdueRounds++;
                ledger.giveUp();
            }
        } finally {
            closeQuietly(pipe[0]);
            closeQuietly(pipe[1]);
            closeQuietly(pair[0]);
            closeQuietly(pair[1]);
            closeQuietly(client);
            closeQuietly(accepted);
            closeQuietly(fileFd);
        }
        rounds++;
    }

    /** A MSG_RING to another soak ring, expected there before it is submitted. */
    private void sendMessage() {
        SoakWorker peer = run.peerOf(id, rounds);
        if (peer == null) {
            return;
        }
        long message = CqeLedger.MESSAGE | (long) peer.id << 48 | (long) id << 40 | (rounds & 0xFF_FFFF_FFFFL);
        peer.ledger.inbox.add(message);
        long ud = expect(MESSAGE_SENT, sqe().prepMsgRing(peer.ring, (int) (rounds & 0x7fff), message, 0));
        sent.put(ud, message);
    }

    /** Waits (bounded) for the CQEs the second half of the round depends on: OPENAT, ACCEPT, MSG_RING. */
    private void awaitRoles() {
        long deadline = System.nanoTime() + ROUND_LIMIT_NANOS;
        while ((fileFd == -1 || accepted == -1 || !sent.isEmpty()) && System.nanoTime() < deadline) {
            reap(Duration.ofMillis(10));
        }
    }

    /** Reaps until this ring has nothing in flight or {@code nanos} passed; true if nothing is left. */
    private boolean reapFor(long nanos, boolean stopWhenIdle) {
        long deadline = System.nanoTime() + nanos;
        while (!(stopWhenIdle && ledger.inFlight() == 0) && System.nanoTime() < deadline) {
            reap(Duration.ofMillis(5));
        }
        return ledger.inFlight() == 0;
    }

    /** After the last round: keeps reaping (deliveries from rings still running) until all are done. */
    private void drainToTheEnd() {
        long deadline = Long.MAX_VALUE;
        while (System.nanoTime() < deadline) {
            if (run.allDoneSending() && deadline == Long.MAX_VALUE) {
                deadline = System.nanoTime() + ROUND_LIMIT_NANOS;
            }
            if (run.allDoneSending() && ledger.inFlight() == 0 && ledger.inbox.isEmpty()) {
                return;
            }
            reap(Duration.ofMillis(10));
        }
    }

    private void reap(Duration wait) {
        Cqe c = ring.waitCqe(wait);
        if (c != null) {
            ring.forEachCqe(this::onCqe);
        }
    }

    private void onCqe(long ud, int res, int flags) {
        int role = ledger.settle(ud);
        switch (role) {
            case OPEN -> fileFd = res >= 0 ? res : -2;
            case ACCEPT -> accepted = res >= 0 ? res : -2;
            case MESSAGE_SENT -> {
                Long message = sent.remove(ud);
                if (message != null && res < 0) {
                    run.worker((int) (message >>> 48 & 0xFF)).ledger.inbox.remove(message);   // not posted
                }
            }
            default -> { }
        }
    }

    /** The next free SQE (submitting what is prepared if the SQ is full). */
    private Sqe sqe() {
        Sqe sqe = ring.getSqe();
        if (sqe == null) {
            submit();
            sqe = ring.getSqe();
        }
        return sqe;
    }

    /** Gives a prepared SQE its unique user data and expects its CQE; returns the user data. */
    private long expect(int role, Sqe prepared) {
        long ud = ud(seq++);
        ledger.expect(ud, role);
        prepared.userData(ud);
        return ud;
    }

    private void submit() {
        int n = ring.submit();
        sqes += n;
        run.countOps(n);
    }

    private long ud(long s) {
        return (long) id << 48 | s;
    }

    private static void closeQuietly(int fd) {
        if (fd >= 0) {
            try {
                Fds.close(fd);
            } catch (RuntimeException e) {
                // A descriptor the seam closed mid-flight reads as closed already: nothing to free.
            }
        }
    }
}
