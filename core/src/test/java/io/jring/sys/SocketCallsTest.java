package io.jring.sys;

import io.jring.Errno;
import io.jring.Fds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mirrors {@link SocketCalls}: a TCP connection over IPv4 and IPv6 loopback, socket pairs, NOWAIT. */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)   // a blocked recv must fail, not hang
class SocketCallsTest {
    // Shared: the timeout runs each test method on a thread other than the one creating these.
    private final SysCallContext ctx = SysCallContext.shared();
    private final Arena arena = Arena.ofShared();

    @AfterEach
    void close() {
        arena.close();
        ctx.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void acceptedConnectionCarriesDataBothWays(String host) throws Exception {
        int listener = Fds.listenTcp(new InetSocketAddress(InetAddress.getByName(host), 0), 8);
        int client = -1;
        int server = -1;
        try {
            InetSocketAddress bound = Fds.localAddress(listener);
            assertTrue(bound.getPort() > 0);
            client = Fds.connectTcp(bound);
            server = SocketCalls.accept4WithPeer(ctx, listener, SocketCalls.SOCK_CLOEXEC);
            assertTrue(server >= 0, "accept4: " + server);
            InetSocketAddress peer = SockAddrs.decode(ctx.sockaddr(), ctx.sockaddrLength());
            assertNotNull(peer);
            assertEquals(Fds.localAddress(client), peer);

            MemorySegment ping = arena.allocateFrom("ping", StandardCharsets.US_ASCII);
            assertEquals(4, SocketCalls.send(ctx, client, ping, 4, SocketCalls.MSG_NOSIGNAL));
            MemorySegment got = arena.allocate(16);
            assertEquals(4, SocketCalls.recv(ctx, server, got, 16, 0));
            assertEquals("ping", new String(got.asSlice(0, 4).toArray(JAVA_BYTE), StandardCharsets.US_ASCII));

            assertEquals(4, SocketCalls.sendNowait(ctx, server, ping, 4, 0));
            assertEquals(4, SocketCalls.recv(ctx, client, got, 4, SocketCalls.MSG_WAITALL));
            assertEquals(-Errno.EAGAIN, SocketCalls.recvNowait(ctx, client, got, 16, 0), "nothing more to read");

            assertEquals(0, SocketCalls.shutdown(ctx, server, SocketCalls.SHUT_WR));
            assertEquals(0, SocketCalls.recv(ctx, client, got, 16, 0), "EOF after the peer's SHUT_WR");
            assertEquals(0, SocketCalls.pendingError(ctx, client));
            assertTrue(SocketCalls.getpeername(ctx, client) > 0);
            assertEquals(bound, SockAddrs.decode(ctx.sockaddr(), ctx.sockaddrLength()));
        } finally {
            for (int fd : new int[] {server, client, listener}) {
                if (fd >= 0) {
                    Fds.close(fd);
                }
            }
        }
    }

    @Test
    void nonBlockingConnectToClosedPortReportsRefusal() {
        int listener = Fds.listenTcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
        InetSocketAddress address = Fds.localAddress(listener);
        Fds.close(listener);   // now nothing listens there
        int fd = SocketCalls.socket(ctx, SockAddrs.AF_INET, SocketCalls.SOCK_STREAM | SocketCalls.SOCK_NONBLOCK, 0);
        try {
            int r = SocketCalls.connect(ctx, fd, address);
            assertTrue(r == -Errno.ECONNREFUSED || r == -Errno.EINPROGRESS, "got " + r);
            if (r == -Errno.EINPROGRESS) {
                int ep = PollCalls.epollCreate(ctx, PollCalls.EPOLL_CLOEXEC);
                assertEquals(0, PollCalls.epollCtl(ctx, ep, PollCalls.EPOLL_CTL_ADD, fd, PollCalls.EPOLLOUT, 1));
                assertEquals(1, PollCalls.epollWait(ctx, ep, ctx.epollEvents(), 1, 5000));
                FsCalls.close(ctx, ep);
                assertEquals(-Errno.ECONNREFUSED, SocketCalls.pendingError(ctx, fd));
            }
        } finally {
            FsCalls.close(ctx, fd);
        }
    }

    @Test
    void socketCallsOnNonSocketsFailWithErrno() {
        int[] p = Fds.pipe();
        try {
            assertEquals(-Errno.ENOTSOCK, SocketCalls.getsockname(ctx, p[0]));
            assertEquals(-Errno.ENOTSOCK, SocketCalls.recvNowait(ctx, p[0], arena.allocate(4), 4, 0));
            assertEquals(-Errno.EBADF, SocketCalls.accept4(ctx, -1, 0));
            assertEquals(-Errno.EINVAL, SocketCalls.bind(ctx, p[0], InetSocketAddress.createUnresolved("nowhere", 1)));
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @Test
    void socketPairIsConnected() {
        int r = SocketCalls.socketPair(ctx, SockAddrs.AF_UNIX, SocketCalls.SOCK_STREAM, 0, ctx.scratch());
        assertEquals(0, r);
        int a = ctx.scratchInt(0);
        int b = ctx.scratchInt(1);
        try {
            MemorySegment one = arena.allocate(1);
            one.set(JAVA_BYTE, 0, (byte) 7);
            assertEquals(1, SocketCalls.sendNowait(ctx, a, one, 1, 0));
            one.set(JAVA_BYTE, 0, (byte) 0);
            assertEquals(1, SocketCalls.recvNowait(ctx, b, one, 1, 0));
            assertEquals(7, one.get(JAVA_BYTE, 0));
        } finally {
            Fds.close(a);
            Fds.close(b);
        }
    }
}
