package io.jring.examples;

import io.jring.Cqe;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Setup;
import io.jring.Sqe;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP echo server on one thread and one ring: a single multishot ACCEPT SQE takes every
 * connection (each arrives as a CQE flagged {@code MORE}), and each connection runs
 * RECV -&gt; SEND -&gt; RECV ... until the peer closes, then CLOSE. Nothing blocks: a RECV
 * with no data waits in the ring, not in a thread.
 *
 * <pre>
 * EchoServer PORT      serves on 127.0.0.1:PORT until killed
 * EchoServer           self-test: serves on a free port, lets 4 clients (plain java.net
 *                      sockets on other threads) echo 200 messages each, then cancels the
 *                      ACCEPT and exits
 * </pre>
 */
public final class EchoServer {
    static final int BUFFER_SIZE = 4096;
    static final int CLIENTS = 4;
    static final int ROUNDS = 200;
    /** The self-test fails rather than hang if the ring sees nothing for this long. */
    static final Duration STALL_LIMIT = Duration.ofSeconds(30);

    // The low byte of the user data says which operation a CQE completes; the rest is the fd.
    static final int ACCEPT = 0;
    static final int RECV = 1;
    static final int SEND = 2;
    static final int CLOSE = 3;
    static final int CANCEL = 4;

    private EchoServer() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 1) {
            int listenFd = Fds.listenTcp(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 128);
            System.out.println("echo server on " + Fds.localAddress(listenFd));
            new Loop(listenFd, 0).run();
            return;
        }
        if (args.length != 0) {
            System.err.println("usage: EchoServer [PORT]");
            System.exit(2);
        }
        selfTest();
    }

    static void selfTest() throws Exception {
        int listenFd = Fds.listenTcp(new InetSocketAddress("127.0.0.1", 0), 128);
        InetSocketAddress address = Fds.localAddress(listenFd);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Thread[] clients = new Thread[CLIENTS];
        for (int i = 0; i < CLIENTS; i++) {
            int id = i;
            clients[i] = Thread.ofPlatform().name("client-" + i).start(() -> {
                try {
                    client(address, id);
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
        }
        Loop loop = new Loop(listenFd, CLIENTS);
        loop.run();
        for (Thread t : clients) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a client failed", failures.get(0));
        }
        System.out.println("echoed " + CLIENTS * ROUNDS + " messages over " + loop.accepted
                + " connections, all taken by one multishot ACCEPT SQE (" + loop.acceptCqes
                + " CQEs; its last, after the cancel: " + Errno.name(loop.lastAcceptRes) + ")");
    }

    /** A client on plain blocking java.net sockets: sends each message and checks its echo. */
    static void client(InetSocketAddress address, int id) throws IOException {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout((int) STALL_LIMIT.toMillis());
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = 0; i < ROUNDS; i++) {
                byte[] msg = ("client " + id + " message " + i + "\n").getBytes(StandardCharsets.US_ASCII);
                out.write(msg);
                byte[] echo = in.readNBytes(msg.length);
                if (!Arrays.equals(msg, echo)) {
                    throw new IOException("client " + id + ": bad echo of message " + i);
                }
            }
        }
    }

    /** A connection: its descriptor, its buffer, and how much of the buffer is still to send. */
    private static final class Conn {
        final int fd;
        final MemorySegment buf;
        int length;
        int sent;

        Conn(int fd, MemorySegment buf) {
            this.fd = fd;
            this.buf = buf;
        }
    }

    /** The server: one thread, one ring. */
    static final class Loop {
        private final int listenFd;
        /** Connections to serve before stopping; 0: serve forever. */
        private final int stopAfter;
        private final Map<Integer, Conn> conns = new HashMap<>();
        private final ArrayDeque<MemorySegment> freeBuffers = new ArrayDeque<>();
        private IoUring ring;
        private Arena arena;
        int accepted;
        int acceptCqes;
        int lastAcceptRes;
        private int closed;
        private boolean accepting = true;
        private boolean cancelPending;

        Loop(int listenFd, int stopAfter) {
            this.listenFd = listenFd;
            this.stopAfter = stopAfter;
        }

        void run() {
            try (IoUring r = IoUring.builder().entries(256).flags(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN).build();
                    Arena a = Arena.ofConfined()) {
                ring = r;
                arena = a;
                sqe().prepMultishotAccept(listenFd, 0).userData(userData(listenFd, ACCEPT));
                while (accepting || cancelPending || !conns.isEmpty()) {
                    ring.submit();
                    Cqe cqe = stopAfter == 0 ? ring.waitCqe() : ring.waitCqe(STALL_LIMIT);
                    if (cqe == null) {
                        throw new IllegalStateException("no completion for " + STALL_LIMIT);
                    }
                    do {
                        long userData = cqe.userData();
                        int res = cqe.res();
                        int flags = cqe.flags();
                        ring.cqeSeen(cqe);
                        complete((int) (userData >>> 8), (int) (userData & 0xff), res, flags);
                    } while ((cqe = ring.peekCqe()) != null);
                }
            } finally {
                Fds.close(listenFd);
            }
        }

        private void complete(int fd, int op, int res, int flags) {
            switch (op) {
                case ACCEPT -> accepted(res, flags);
                case RECV -> {
                    Conn c = conns.get(fd);
                    if (res <= 0) {   // 0: the peer closed; < 0: reset or other error
                        sqe().prepClose(fd).userData(userData(fd, CLOSE));
                    } else {
                        c.length = res;
                        c.sent = 0;
                        sqe().prepSend(fd, c.buf.asSlice(0, res), 0).userData(userData(fd, SEND));
                    }
                }
                case SEND -> {
                    Conn c = conns.get(fd);
                    if (res < 0) {
                        sqe().prepClose(fd).userData(userData(fd, CLOSE));
                        return;
                    }
                    c.sent += res;
                    if (c.sent < c.length) {   // a short send: send the rest
                        sqe().prepSend(fd, c.buf.asSlice(c.sent, c.length - c.sent), 0).userData(userData(fd, SEND));
                    } else {
                        sqe().prepRecv(fd, c.buf, 0).userData(userData(fd, RECV));
                    }
                }
                case CLOSE -> {
                    freeBuffers.add(conns.remove(fd).buf);
                    if (++closed == stopAfter) {
                        // Done: cancel the multishot ACCEPT; its last CQE (without MORE) follows.
                        sqe().prepCancel(userData(listenFd, ACCEPT), 0).userData(userData(listenFd, CANCEL));
                        cancelPending = true;
                    }
                }
                case CANCEL -> cancelPending = false;
                default -> throw new IllegalStateException("unknown operation " + op);
            }
        }

        private void accepted(int res, int flags) {
            acceptCqes++;
            lastAcceptRes = res;
            if (res >= 0) {
                accepted++;
                MemorySegment buf = freeBuffers.isEmpty() ? arena.allocate(BUFFER_SIZE) : freeBuffers.poll();
                conns.put(res, new Conn(res, buf));
                sqe().prepRecv(res, buf, 0).userData(userData(res, RECV));
            } else if (res != -Errno.ECANCELED) {
                System.err.println("accept: " + Errno.name(res));
            }
            if ((flags & CqeFlags.MORE) == 0) {
                // The multishot ACCEPT ended: cancelled (we stop), or an error (we arm it again).
                accepting = closed < stopAfter || stopAfter == 0;
                if (accepting) {
                    sqe().prepMultishotAccept(listenFd, 0).userData(userData(listenFd, ACCEPT));
                }
            }
        }

        /** The next SQE; when the SQ is full, submits what is prepared to make room. */
        private Sqe sqe() {
            Sqe sqe = ring.getSqe();
            while (sqe == null) {
                ring.submit();
                sqe = ring.getSqe();
            }
            return sqe;
        }

        private static long userData(int fd, int op) {
            return (long) fd << 8 | op;
        }
    }
}
