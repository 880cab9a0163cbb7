package io.jring.kernel;

import static io.jring.kernel.CqeSpec.cqe;
import static io.jring.kernel.PrepIssueScenarios.tail;
import static io.jring.kernel.Scenarios.EBADF;
import static io.jring.kernel.Scenarios.ECANCELED;
import static io.jring.kernel.Scenarios.EINVAL;
import static io.jring.kernel.SqeSpec.custom;
import static io.jring.kernel.SqeSpec.recv;
import static io.jring.kernel.SqeSpec.send;

import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.sys.SockAddrs;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Issue 23: sockets set up through the ring (liburing's bind-listen.c, socket.c, accept.c,
 * connect.c, socket-rw.c): BIND and LISTEN with their prep and issue errors, SOCKET and
 * ACCEPT into fixed-file slots (direct descriptors, FILE_INDEX_ALLOC), and CONNECT, SEND,
 * RECV, SHUTDOWN, BIND and LISTEN on fixed files, including slots a linked SOCKET fills just
 * before. Addresses are abstract AF_UNIX names unique to each run (no port to learn) or the
 * address of a scenario TCP listener. Expectations taken from Linux 6.18.
 */
final class BindListenScenarios {
    private BindListenScenarios() {}

    private static final int AF_UNIX = 1;
    private static final int AF_INET = 2;
    private static final int SOCK_STREAM = 1;
    private static final int SOCK_DGRAM = 2;
    private static final int ALLOC = io.jring.Sqe.FILE_INDEX_ALLOC;
    private static final int EFAULT = -Errno.EFAULT;
    private static final int ENOTSOCK = -Errno.ENOTSOCK;
    private static final int EADDRINUSE = -Errno.EADDRINUSE;
    private static final int ECONNREFUSED = -Errno.ECONNREFUSED;
    private static final int EOPNOTSUPP = -Errno.EOPNOTSUPP;
    private static final int ENXIO = -Errno.ENXIO;
    private static final int ENFILE = -Errno.ENFILE;

    static void add(List<Scenario> all) {
        addBind(all);
        addListen(all);
        addDirectSockets(all);
        addFixedFileFlows(all);
    }

    // ---- SQE builders ----

    /** An abstract AF_UNIX sockaddr ("\0" + a name unique to the run); its length is the segment's. */
    private static MemorySegment unixAddress(ScenarioEnv env, String name) {
        return env.bytes("\u0001\u0000\u0000" + env.unique(name));
    }

    /** The sockaddr_in of a named socket's local address (a scenario TCP listener). */
    private static MemorySegment inetAddressOf(ScenarioEnv env, String fd) {
        MemorySegment sa = env.region(SockAddrs.SOCKADDR_IN_SIZE);
        SockAddrs.encode(Fds.localAddress(env.fd(fd)), sa);
        return sa;
    }

    /** SOCKET into slot {@code fileIndex - 1} ({@code fileIndex} as the SQE holds it; ALLOC too). */
    private static SqeSpec socketDirect(int domain, int type, int fileIndex) {
        return custom("SOCKET(" + domain + ", " + type + ") file index " + Integer.toUnsignedString(fileIndex),
                (w, e) -> w.prepSocket(domain, type, 0).fileIndex(fileIndex));
    }

    private static SqeSpec bindUnix(String fd, String name) {
        return custom("BIND(" + fd + ", @" + name + ")", (w, e) -> {
            MemorySegment a = unixAddress(e, name);
            w.prepBind(e.fd(fd), a, (int) a.byteSize());
        });
    }

    private static SqeSpec bindRaw(String fd, String text, int addrlen,
            java.util.function.Function<ScenarioEnv, MemorySegment> address) {
        return custom("BIND(" + fd + ", " + text + ", " + addrlen + ")",
                (w, e) -> w.prepBind(e.fd(fd), address.apply(e), addrlen));
    }

    private static SqeSpec bindLike(String fd, String listener) {
        return custom("BIND(" + fd + ", address of " + listener + ")", (w, e) -> {
            MemorySegment a = inetAddressOf(e, listener);
            w.prepBind(e.fd(fd), a, (int) a.byteSize());
        });
    }

    private static SqeSpec listen(String fd, int backlog) {
        return custom("LISTEN(" + fd + ", " + backlog + ")", (w, e) -> w.prepListen(e.fd(fd), backlog));
    }

    private static SqeSpec connectUnix(String fd, String name) {
        return custom("CONNECT(" + fd + ", @" + name + ")", (w, e) -> {
            MemorySegment a = unixAddress(e, name);
            w.prepConnect(e.fd(fd), a, (int) a.byteSize());
        });
    }

    private static SqeSpec connectTo(String fd, String listener) {
        return custom("CONNECT(" + fd + ", address of " + listener + ")", (w, e) -> {
            MemorySegment a = inetAddressOf(e, listener);
            w.prepConnect(e.fd(fd), a, (int) a.byteSize());
        });
    }

    /** ACCEPT into slot {@code fileIndex - 1} (the SQE's file index; 0: a plain descriptor). */
    private static SqeSpec acceptDirect(String fd, int fileIndex) {
        return custom("ACCEPT(" + fd + ") file index " + Integer.toUnsignedString(fileIndex),
                (w, e) -> w.prepAccept(e.fd(fd), 0).fileIndex(fileIndex));
    }

    private static SqeSpec shutdown(String fd, int how) {
        return custom("SHUTDOWN(" + fd + ", " + how + ")", (w, e) -> w.prepShutdown(e.fd(fd), how));
    }

    // ---- BIND ----

    private static void addBind(List<Scenario> all) {
        all.add(Scenario.named("bind-listen: BIND with an address length of 0 is -EINVAL when issued", "bind-listen.c")
                .submit(bindRaw("t0.l", "sockaddr_in", 0, e -> e.region(16)).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("bind-listen: BIND of a pipe is -ENOTSOCK", "bind-listen.c")
                .submit(bindUnix("p0.r", "a").ud(1), tail())
                .expect(cqe(1, ENOTSOCK), cqe(99, 0))
                .build());
        all.add(Scenario.named("bind-listen: BIND of no descriptor is -EBADF when issued", "bind-listen.c")
                .submit(bindUnix("bad", "a").ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("bind-listen: BIND with rw flags fails at prep", "bind-listen.c")
                .submitExpecting(1, custom("BIND(s0.a, @a) rw_flags 1", (w, e) -> {
                    MemorySegment a = unixAddress(e, "a");
                    w.prepBind(e.fd("s0.a"), a, (int) a.byteSize()).opFlags(1);
                }).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("bind-listen: BIND with a len, a buffer index or a file index fails at prep", "net.c")
                .submitExpecting(1, custom("BIND(s0.a, @a) len 1", (w, e) -> {
                    MemorySegment a = unixAddress(e, "a");
                    w.prepBind(e.fd("s0.a"), a, (int) a.byteSize()).len(1);
                }).ud(1), tail())
                .submitExpecting(1)
                .submitExpecting(1, custom("BIND(s0.a, @a) buf_index 1", (w, e) -> {
                    MemorySegment a = unixAddress(e, "a");
                    w.prepBind(e.fd("s0.a"), a, (int) a.byteSize()).bufIndex(1);
                }).ud(2), tail())
                .submitExpecting(1)
                .submitExpecting(1, custom("BIND(s0.a, @a) file index 1", (w, e) -> {
                    MemorySegment a = unixAddress(e, "a");
                    w.prepBind(e.fd("s0.a"), a, (int) a.byteSize()).fileIndex(1);
                }).ud(3), tail())
                .submitExpecting(1)
                .expect(cqe(1, EINVAL), cqe(99, 0), cqe(2, EINVAL), cqe(99, 0), cqe(3, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("bind-listen: BIND with an address longer than sockaddr_storage fails at prep", "net.c")
                .submitExpecting(1, bindRaw("s0.a", "129 bytes", 129, e -> e.region(256)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("bind-listen: BIND with a negative address length fails at prep", "net.c")
                .submitExpecting(1, bindRaw("s0.a", "16 bytes", -1, e -> e.region(16)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("bind-listen: BIND of a NULL address fails at prep with -EFAULT", "net.c")
                .submitExpecting(1, bindRaw("s0.a", "NULL", 16, e -> null).ud(1), tail())
                .expect(cqe(1, EFAULT))
                .build());
        all.add(Scenario.named("bind-listen: BIND to the address a listener holds is -EADDRINUSE", "bind-listen.c")
                .registerFiles("-1")
                .submit(socketDirect(AF_INET, SOCK_STREAM, 1).ud(1).link(), bindLike("#0", "t0.l").fixed().ud(2))
                .expect(cqe(1, 0), cqe(2, EADDRINUSE))
                .build());
        all.add(Scenario.named("bind-listen: BIND of a bound socket is -EINVAL", "bind-listen.c")
                .registerFiles("-1")
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 1).ud(1).link(), bindUnix("#0", "a").fixed().ud(2).link(),
                        bindUnix("#0", "b").fixed().ud(3))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, EINVAL))
                .build());
        all.add(Scenario.named("bind-listen: BIND to an AF_UNIX path runs in io-wq, so a NOP after it completes first",
                        "net.c")
                .submit(custom("BIND(p0.r, /tmp/jring-...)", (w, e) -> {
                    MemorySegment a = e.bytes("\u0001\u0000/tmp/" + e.unique("never-made") + "\u0000");
                    w.prepBind(e.fd("p0.r"), a, (int) a.byteSize());
                }).ud(1), tail())
                .expect(cqe(99, 0), cqe(1, ENOTSOCK))
                .build());
        all.add(Scenario.named("bind-listen: a failed BIND breaks its link", "bind-listen.c")
                .submit(bindUnix("p0.r", "a").ud(1).link(), tail())
                .expect(cqe(1, ENOTSOCK), cqe(99, ECANCELED))
                .build());
    }

    // ---- LISTEN ----

    private static void addListen(List<Scenario> all) {
        all.add(Scenario.named("bind-listen: LISTEN of a pipe is -ENOTSOCK", "bind-listen.c")
                .submit(listen("p0.r", 1).ud(1), tail())
                .expect(cqe(1, ENOTSOCK), cqe(99, 0))
                .build());
        all.add(Scenario.named("bind-listen: LISTEN with addr2 set fails at prep", "bind-listen.c")
                .submitExpecting(1, custom("LISTEN(t0.l, 1) addr2 0xffffff",
                        (w, e) -> w.prepListen(e.fd("t0.l"), 1).addr2(0xffffff)).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        all.add(Scenario.named("bind-listen: LISTEN with an addr, rw flags or a buffer index fails at prep", "net.c")
                .submitExpecting(1, custom("LISTEN(t0.l, 1) addr", (w, e) -> w.prepListen(e.fd("t0.l"), 1)
                        .addr(e.region(16))).ud(1), tail())
                .submitExpecting(1)
                .submitExpecting(1, custom("LISTEN(t0.l, 1) rw_flags 1",
                        (w, e) -> w.prepListen(e.fd("t0.l"), 1).opFlags(1)).ud(2), tail())
                .submitExpecting(1)
                .submitExpecting(1, custom("LISTEN(t0.l, 1) buf_index 1",
                        (w, e) -> w.prepListen(e.fd("t0.l"), 1).bufIndex(1)).ud(3), tail())
                .submitExpecting(1)
                .expect(cqe(1, EINVAL), cqe(99, 0), cqe(2, EINVAL), cqe(99, 0), cqe(3, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("bind-listen: LISTEN of no descriptor is -EBADF when issued", "bind-listen.c")
                .submit(listen("bad", 1).ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
        all.add(Scenario.named("bind-listen: LISTEN of an unbound TCP socket binds it to an ephemeral port", "net.c")
                .registerFiles("-1")
                .submit(socketDirect(AF_INET, SOCK_STREAM, 1).ud(1).link(), listen("#0", 8).fixed().ud(2))
                .expect(cqe(1, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("bind-listen: LISTEN of a datagram socket is -EOPNOTSUPP", "net.c")
                .registerFiles("-1")
                .submit(socketDirect(AF_INET, SOCK_DGRAM, 1).ud(1).link(), listen("#0", 8).fixed().ud(2))
                .expect(cqe(1, 0), cqe(2, EOPNOTSUPP))
                .build());
        all.add(Scenario.named("bind-listen: LISTEN of an empty fixed slot is -EBADF", "bind-listen.c")
                .registerFiles("-1")
                .submit(listen("#0", 1).fixed().ud(1), tail())
                .expect(cqe(1, EBADF), cqe(99, 0))
                .build());
    }

    // ---- SOCKET and ACCEPT into fixed slots ----

    private static void addDirectSockets(List<Scenario> all) {
        all.add(Scenario.named("socket: SOCKET with FILE_INDEX_ALLOC takes free slots in turn, then -ENFILE", "socket.c")
                .registerFiles("-1", "p0.r", "-1")
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, ALLOC).ud(1), socketDirect(AF_UNIX, SOCK_STREAM, ALLOC).ud(2),
                        socketDirect(AF_UNIX, SOCK_STREAM, ALLOC).ud(3))
                .expect(cqe(1, 0), cqe(2, 2), cqe(3, ENFILE))
                .build());
        all.add(Scenario.named("socket: SOCKET into a slot without a file table is -ENXIO, ALLOC -ENFILE", "socket.c")
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 1).ud(1), socketDirect(AF_UNIX, SOCK_STREAM, ALLOC).ud(2))
                .expect(cqe(1, ENXIO), cqe(2, ENFILE))
                .build());
        all.add(Scenario.named("socket: SOCKET into a slot past the table is -EINVAL", "socket.c")
                .registerFiles("-1")
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 2).ud(1), tail())
                .expect(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("socket: SOCKET into an occupied slot replaces its file", "socket.c")
                .registerFiles("p0.r")
                .submit(socketDirect(AF_INET, SOCK_STREAM, 1).ud(1).link(), listen("#0", 1).fixed().ud(2))
                .expect(cqe(1, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("accept: ACCEPT into a slot, then RECV on it", "accept.c")
                .registerFiles("-1")
                .submit(acceptDirect("t1.l", 1).ud(1))
                .reap(1)
                .write("t1.c", "ping")
                .submit(recv("#0", 16).fixed().ud(2))
                .expect(cqe(1, 0), cqe(2, 4))
                .build());
        all.add(Scenario.named("accept: ACCEPT with FILE_INDEX_ALLOC gives the slot, -ENFILE when none is free", "accept.c")
                .registerFiles("p0.r", "-1")
                .submit(acceptDirect("t2.l", ALLOC).ud(1), acceptDirect("t2.l", ALLOC).ud(2))
                .expect(cqe(1, 1, CqeFlags.SOCK_NONEMPTY), cqe(2, ENFILE))
                .build());
        all.add(Scenario.named("accept: ACCEPT into a slot without a file table is -ENXIO", "accept.c")
                .submit(acceptDirect("t1.l", 1).ud(1), tail())
                .expect(cqe(1, ENXIO), cqe(99, 0))
                .build());
        all.add(Scenario.named("accept: ACCEPT on a slot a linked SOCKET just filled is that socket's -EINVAL", "accept.c")
                .registerFiles("-1")
                .submit(socketDirect(AF_INET, SOCK_STREAM, 1).ud(1).link(), acceptDirect("#0", 0).fixed().ud(2))
                .expect(cqe(1, 0), cqe(2, EINVAL))
                .build());
        all.add(Scenario.named("accept: ACCEPT from a fixed listener a linked LISTEN just set up", "accept.c")
                .registerFiles("-1", "-1", "-1")
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 1).ud(1).link(), bindUnix("#0", "srv").fixed().ud(2).link(),
                        listen("#0", 4).fixed().ud(3))
                .reap(3)
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 2).ud(4).link(), connectUnix("#1", "srv").fixed().ud(5))
                .reap(2)
                .submit(acceptDirect("#0", 3).fixed().ud(6))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 0), cqe(4, 0), cqe(5, 0), cqe(6, 0))
                .build());
    }

    // ---- whole conversations on fixed files ----

    private static void addFixedFileFlows(List<Scenario> all) {
        all.add(Scenario.named("socket-rw: a server and a client made only of fixed files", "bind-listen.c")
                .registerFiles("-1", "-1", "-1")
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 1).ud(1).link(), bindUnix("#0", "srv").fixed().ud(2).link(),
                        listen("#0", 1).fixed().ud(3))
                .reap(3)
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 2).ud(4).link(), connectUnix("#1", "srv").fixed().ud(5).link(),
                        send("#1", "Hello World!").fixed().ud(6))
                .reap(3)
                .submit(acceptDirect("#0", 3).fixed().ud(7).link(), recv("#2", 64).fixed().ud(8))
                .reap(2)
                .submit(shutdown("#1", Fds.SHUT_WR).fixed().ud(9).link(), recv("#2", 64).fixed().ud(10))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 0), cqe(4, 0), cqe(5, 0), cqe(6, 12), cqe(7, 0), cqe(8, 12),
                        cqe(9, 0), cqe(10, 0))
                .build());
        all.add(Scenario.named("socket-rw: a TCP client on a fixed slot connects, sends and is received", "socket-rw.c")
                .registerFiles("-1", "-1")
                .submit(socketDirect(AF_INET, SOCK_STREAM, 1).ud(1).link(), connectTo("#0", "t0.l").fixed().ud(2).link(),
                        send("#0", "socket-rw").fixed().ud(3))
                .reap(3)
                .submit(acceptDirect("t0.l", 2).ud(4).link(), recv("#1", 64).fixed().ud(5))
                .expect(cqe(1, 0), cqe(2, 0), cqe(3, 9), cqe(4, 0), cqe(5, 9))
                .build());
        all.add(Scenario.named("connect: CONNECT to an abstract address nobody listens on is -ECONNREFUSED", "connect.c")
                .registerFiles("-1")
                .submit(socketDirect(AF_UNIX, SOCK_STREAM, 1).ud(1).link(), connectUnix("#0", "nobody").fixed().ud(2))
                .expect(cqe(1, 0), cqe(2, ECONNREFUSED))
                .build());
        all.add(Scenario.named("connect: CONNECT with a file index fails at prep", "net.c")
                .submitExpecting(1, custom("CONNECT(s0.a, @a) file index 1", (w, e) -> {
                    MemorySegment a = unixAddress(e, "a");
                    w.prepConnect(e.fd("s0.a"), a, (int) a.byteSize()).fileIndex(1);
                }).ud(1), tail())
                .expect(cqe(1, EINVAL))
                .build());
        // Linux makes the attempt inline with O_NONBLOCK forced; jring cannot force it on a
        // blocking socket and runs its connect in io-wq, so the CQEs' order is not compared.
        all.add(Scenario.named("connect: CONNECT with an address length of 0 is -EINVAL when issued", "connect.c")
                .submit(custom("CONNECT(s0.a, NULL, 0)", (w, e) -> w.prepConnect(e.fd("s0.a"), null, 0)).ud(1), tail())
                .expectAnyOrder(cqe(1, EINVAL), cqe(99, 0))
                .build());
        all.add(Scenario.named("socket-rw: SEND and RECV on registered socket-pair slots", "socket-rw.c")
                .registerFiles("s0.a", "s0.b")
                .submit(send("#0", "fixed").fixed().ud(1).link(), recv("#1", 16).fixed().ud(2))
                .expect(cqe(1, 5), cqe(2, 5))
                .build());
        all.add(Scenario.named("shutdown: SHUTDOWN of a fixed socket gives its peer EOF", "shutdown.c")
                .registerFiles("s0.a")
                .submit(shutdown("#0", Fds.SHUT_WR).fixed().ud(1).link(), recv("s0.b", 16).ud(2))
                .expect(cqe(1, 0), cqe(2, 0))
                .build());
        all.add(Scenario.named("shutdown: SHUTDOWN runs in io-wq, so a NOP after it completes first", "shutdown.c")
                .submit(shutdown("s0.a", Fds.SHUT_WR).ud(1), tail())
                .expect(cqe(99, 0), cqe(1, 0))
                .build());
    }
}
