package io.jring.core;

import io.jring.Cqe;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Setup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** Mirrors {@link DirectIo}: O_DIRECT reads through native AIO, many in flight, reaper shutdown. */
@Timeout(30)
class DirectIoTest {
    @TempDir Path dir;

    private static boolean reaperAlive(int ringId) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("jring-aio-r" + ringId) && t.isAlive());
    }

    @Test
    void manyDirectReadsInFlightCompleteWithTheirDataAndCloseStopsTheReaper() throws Exception {
        int blocks = 256;
        byte[] data = new byte[blocks * 4096];
        for (int b = 0; b < blocks; b++) {
            java.util.Arrays.fill(data, b * 4096, (b + 1) * 4096, (byte) b);
        }
        Path f = dir.resolve("d");
        Files.write(f, data);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        IoUring ring = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER).build();
        int id = ApiAccess.get().contextOf(ring).id();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] bufs = new MemorySegment[32];
            for (int i = 0; i < 32; i++) {
                bufs[i] = arena.allocate(4096, 4096);
            }
            Set<Long> seen = new HashSet<>();
            for (int round = 0; round < 8; round++) {
                for (int i = 0; i < 32; i++) {
                    int block = round * 32 + i;
                    ring.getSqe().prepRead(fd, bufs[i], block * 4096L).userData(block);
                }
                assertEquals(32, ring.submitAndWait(32));
                for (int i = 0; i < 32; i++) {
                    Cqe c = ring.waitCqe();
                    assertEquals(4096, c.res(), "block " + c.userData());
                    int slot = (int) (c.userData() - round * 32);
                    assertEquals((byte) c.userData(), bufs[slot].get(ValueLayout.JAVA_BYTE, 0));
                    assertEquals((byte) c.userData(), bufs[slot].get(ValueLayout.JAVA_BYTE, 4095));
                    assertTrue(seen.add(c.userData()), "duplicate CQE " + c.userData());
                    ring.cqeSeen(c);
                }
            }
            assertEquals(blocks, seen.size());
            assertTrue(reaperAlive(id), "O_DIRECT reads should use the AIO reaper on this kernel");
        } finally {
            ring.close();
            Fds.close(fd);
        }
        assertFalse(reaperAlive(id), "close() must stop the reaper thread");
    }

    @Test
    void misalignedDirectReadFailsWithEinval() throws Exception {
        Path f = dir.resolve("m");
        Files.write(f, new byte[8192]);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofShared()) {
            MemorySegment buf = arena.allocate(4096 + 1, 4096).asSlice(1, 4096);
            ring.getSqe().prepRead(fd, buf, 0).userData(7);
            ring.submitAndWait(1);
            Cqe c = ring.waitCqe();
            assertEquals(7, c.userData());
            assertEquals(-io.jring.Errno.EINVAL, c.res());
            ring.cqeSeen(c);
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void closeWithDirectReadsInFlightWaitsForThem() throws Exception {
        Path f = dir.resolve("c");
        Files.write(f, new byte[64 * 4096]);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        IoUring ring = IoUring.open(64);
        int id = ApiAccess.get().contextOf(ring).id();
        Arena arena = Arena.ofShared();
        try {
            for (int i = 0; i < 32; i++) {
                ring.getSqe().prepRead(fd, arena.allocate(4096, 4096), i * 4096L).userData(i);
            }
            ring.submit();
            ring.close();
            assertFalse(reaperAlive(id));
        } finally {
            arena.close();
            Fds.close(fd);
        }
    }

    @Test
    void aMisalignedReadInTheMiddleOfABatchFailsAloneAndTheOthersComplete() throws Exception {
        Path f = dir.resolve("b");
        Files.write(f, new byte[16 * 4096]);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try (IoUring ring = IoUring.builder().entries(16).flags(Setup.SINGLE_ISSUER).build();
             Arena arena = Arena.ofShared()) {
            for (int i = 0; i < 8; i++) {
                MemorySegment buf = i == 3 ? arena.allocate(4097, 4096).asSlice(1, 4096) : arena.allocate(4096, 4096);
                ring.getSqe().prepRead(fd, buf, i * 4096L).userData(i);
            }
            assertEquals(8, ring.submitAndWait(8));
            int[] res = new int[8];
            for (int i = 0; i < 8; i++) {
                Cqe c = ring.waitCqe();
                res[(int) c.userData()] = c.res();
                ring.cqeSeen(c);
            }
            for (int i = 0; i < 8; i++) {
                assertEquals(i == 3 ? -io.jring.Errno.EINVAL : 4096, res[i], "request " + i);
            }
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void completionsReachAnOwnerThatSubmittedAndWentAwayThroughTheReaper() throws Exception {
        Path f = dir.resolve("a");
        Files.write(f, new byte[8 * 4096]);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofShared()) {
            for (int i = 0; i < 4; i++) {
                ring.getSqe().prepRead(fd, arena.allocate(4096, 4096), i * 4096L).userData(i);
            }
            ring.submit();
            // The owner never waits: the reaper must reap, and the away owner's task work
            // must reach the CQ (a peek enters the ring and runs it).
            long deadline = System.nanoTime() + 10_000_000_000L;
            int seen = 0;
            while (seen < 4 && System.nanoTime() < deadline) {
                Thread.sleep(5);
                Cqe c;
                while ((c = ring.peekCqe()) != null) {
                    assertEquals(4096, c.res());
                    ring.cqeSeen(c);
                    seen++;
                }
            }
            assertEquals(4, seen);
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void aWaiterSleepsInItsPollerWhileDirectIoIsInFlightAndClosingTheRingClosesThePoller() throws Exception {
        Path f = dir.resolve("p");
        Files.write(f, new byte[8 * 4096]);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        IoUring ring = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build();
        io.jring.tw.TaskContext tc = io.jring.tw.TaskContext.current();
        try (Arena arena = Arena.ofShared()) {
            for (int round = 0; round < 20; round++) {
                ring.getSqe().prepRead(fd, arena.allocate(4096, 4096), (round % 8) * 4096L).userData(round);
                ring.submitAndWait(1);
                Cqe c = ring.waitCqe();
                assertEquals(4096, c.res());
                ring.cqeSeen(c);
            }
            assertNotNull(tc.pollerIfOpen(), "the waiter should have used its poller for the device's eventfd");
        } finally {
            ring.close();
            Fds.close(fd);
        }
        assertNull(tc.pollerIfOpen(), "closing the last ring that used the poller closes it");
    }
}
