package io.jring.core;

import io.jring.Cqe;
import io.jring.CqeFlags;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.Poll;
import io.jring.Setup;
import io.jring.SqeFlags;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.*;

/** The engine's readiness paths end to end: arm on EAGAIN, wake from epoll, retry inline. */
@Timeout(20)
class NetPathTest {
    private static IoUring ring(int flags) {
        return IoUring.builder().entries(64).flags(flags).build();
    }

    private static void writeLater(int fd, String text, long delayMs) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                return;
            }
            Fds.write(fd, text.getBytes(StandardCharsets.UTF_8));
        });
        t.setDaemon(true);
        t.start();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void recvWaitsForDataThenCompletesWithIt(int flags) {
        int[] sp = Fds.socketPair();
        try (IoUring ring = ring(flags); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(64);
            ring.getSqe().prepRecv(sp[0], buf, 0).userData(1);
            ring.submit();
            assertNull(ring.peekCqe());
            writeLater(sp[1], "hello", 50);
            Cqe c = ring.waitCqe();
            assertEquals(1, c.userData());
            assertEquals(5, c.res());
            assertEquals("hello", buf.getString(0, StandardCharsets.UTF_8).substring(0, 5));
            ring.cqeSeen(c);
        } finally {
            Fds.close(sp[0]);
            Fds.close(sp[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void pipeReadWaitsForAWriteAndPollAddReportsReadiness(int flags) {
        int[] p = Fds.pipe();
        try (IoUring ring = ring(flags); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(16);
            ring.getSqe().prepPollAdd(p[0], Poll.IN).userData(7);
            ring.getSqe().prepRead(p[0], buf, 0).userData(8);
            ring.submit();
            assertNull(ring.peekCqe());
            writeLater(p[1], "abc", 30);
            int[] res = new int[9];
            for (int i = 0; i < 2; i++) {
                Cqe c = ring.waitCqe();
                res[(int) c.userData()] = c.res();
                ring.cqeSeen(c);
            }
            assertEquals(Poll.IN, res[7]);
            assertEquals(3, res[8]);
        } finally {
            Fds.close(p[0]);
            Fds.close(p[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER})
    void multishotAcceptAndProvidedBufferEcho(int flags) throws Exception {
        int lfd = Fds.listenTcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        InetSocketAddress addr = Fds.localAddress(lfd);
        try (IoUring ring = ring(flags); Arena arena = Arena.ofShared()) {
            MemorySegment region = arena.allocate(4 * 128);
            ring.getSqe().prepProvideBuffers(region, 128, 4, 3, 0).userData(100);
            ring.getSqe().prepMultishotAccept(lfd, 0).userData(200);
            ring.submitAndWait(1);
            Cqe c = ring.waitCqe();
            assertEquals(100, c.userData());
            assertEquals(0, c.res());
            ring.cqeSeen(c);
            int[] clients = new int[3];
            for (int i = 0; i < 3; i++) {
                clients[i] = Fds.connectTcp(addr);
            }
            int[] accepted = new int[3];
            for (int i = 0; i < 3; i++) {
                c = ring.waitCqe();
                assertEquals(200, c.userData());
                assertTrue(c.res() >= 0, "accept: " + c.res());
                assertTrue((c.flags() & CqeFlags.MORE) != 0);
                accepted[i] = c.res();
                ring.cqeSeen(c);
            }
            Fds.write(clients[1], "ping".getBytes(StandardCharsets.UTF_8));
            for (int fd : accepted) {
                ring.getSqe().prepRecv(fd, null, 0).flags(SqeFlags.BUFFER_SELECT).bufferGroup(3).userData(300 + fd);
            }
            ring.submit();
            int got = 0;
            while (got == 0) {
                c = ring.waitCqe();
                if (c.res() == 4) {
                    assertTrue((c.flags() & CqeFlags.BUFFER) != 0);
                    int bid = c.flags() >>> 16;
                    assertEquals("ping", new String(region.asSlice(bid * 128L, 4).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                            StandardCharsets.UTF_8));
                    got++;
                }
                ring.cqeSeen(c);
            }
            ring.getSqe().prepRemoveBuffers(4, 3).userData(400);
            ring.submitAndWait(1);
            c = ring.waitCqe();
            assertEquals(400, c.userData());
            assertEquals(3, c.res(), "three buffers left in the group");
            ring.cqeSeen(c);
            for (int fd : clients) {
                Fds.close(fd);
            }
            for (int i = 0; i < 2; i++) {
                c = ring.waitCqe();
                assertEquals(-Errno.ENOBUFS, c.res(), "EOF with an empty group: " + c.userData());
                ring.cqeSeen(c);
            }
            for (int fd : accepted) {
                Fds.close(fd);
            }
        } finally {
            Fds.close(lfd);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void asyncRecvWorksInHybridAndLegacyModes(boolean legacy) {
        int[] sp = Fds.socketPair();
        try (IoUring ring = IoUring.builder().entries(8).legacyAsync(legacy).build(); Arena arena = Arena.ofShared()) {
            MemorySegment buf = arena.allocate(8);
            ring.getSqe().prepRecv(sp[0], buf, 0).flags(SqeFlags.ASYNC).userData(5);
            ring.submit();
            writeLater(sp[1], "xy", 50);
            Cqe c = ring.waitCqe();
            assertEquals(5, c.userData());
            assertEquals(2, c.res());
            ring.cqeSeen(c);
        } finally {
            Fds.close(sp[0]);
            Fds.close(sp[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN})
    void closeCancelsArmedPollsAndReleasesThePoller(int flags) {
        int[] sp = Fds.socketPair();
        io.jring.tw.TaskContext tc = io.jring.tw.TaskContext.current();
        try (Arena arena = Arena.ofConfined()) {
            IoUring ring = ring(flags);
            ring.getSqe().prepRecv(sp[0], arena.allocate(8), 0).userData(1);
            ring.getSqe().prepPollMultishot(sp[0], Poll.IN).userData(2);
            ring.submit();
            assertNull(ring.peekCqe());
            assertNotNull(io.jring.poll.PollerRef.ifOpen(tc));
            ring.close();
            assertNull(io.jring.poll.PollerRef.ifOpen(tc), "the poller closes with the last ring that used it");
        } finally {
            Fds.close(sp[0]);
            Fds.close(sp[1]);
        }
    }
}
