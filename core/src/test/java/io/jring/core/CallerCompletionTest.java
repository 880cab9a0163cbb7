package io.jring.core;

import io.jring.Cqe;
import io.jring.Fds;
import io.jring.Fsync;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Setup;
import io.jring.sys.DirectFds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Seed 002 in jring: direct writes that need a flush (O_DSYNC) finish on the DIO completion
 * pool by default and in the issuer's task with {@code callerCompletion(true)}; and the
 * deadlock that removed it from Linux (the issuer waits for its own file's in-flight DIO
 * while holding the completions) cannot happen. Test methods run in a thread of their own,
 * so the timeout fails a deadlock instead of hanging the suite.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CallerCompletionTest {
    private static final int BLOCKS = 8;
    @TempDir Path dir;

    private static boolean poolAlive(int ringId) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("jring-dio-comp-r" + ringId + "-") && t.isAlive());
    }

    private Path file() throws IOException {
        Path f = dir.resolve("w");
        Files.write(f, new byte[BLOCKS * 4096]);
        return f;
    }

    private static IoUring ring(boolean caller, boolean defer) {
        return IoUring.builder().entries(32)
                .flags(Setup.SINGLE_ISSUER | (defer ? Setup.DEFER_TASKRUN : 0))
                .callerCompletion(caller).build();
    }

    /** Fills block b of each buffer with b + 1 and queues a write of every block. */
    private static MemorySegment[] queueWrites(IoUring ring, int fd, Arena arena) {
        MemorySegment[] bufs = new MemorySegment[BLOCKS];
        for (int b = 0; b < BLOCKS; b++) {
            bufs[b] = arena.allocate(4096, 4096);
            bufs[b].fill((byte) (b + 1));
            ring.getSqe().prepWrite(fd, bufs[b], b * 4096L).userData(b);
        }
        return bufs;
    }

    private static void expectWrites(IoUring ring, int n) {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            Cqe c = ring.waitCqe();
            assertEquals(4096, c.res(), "write " + c.userData());
            assertTrue(seen.add(c.userData()), "duplicate CQE " + c.userData());
            ring.cqeSeen(c);
        }
        assertNull(ring.peekCqe(), "one CQE per write");
    }

    private static void expectContent(Path f) throws IOException {
        byte[] got = Files.readAllBytes(f);
        for (int b = 0; b < BLOCKS; b++) {
            assertEquals((byte) (b + 1), got[b * 4096], "block " + b);
            assertEquals((byte) (b + 1), got[b * 4096 + 4095], "block " + b);
        }
    }

    @ParameterizedTest(name = "callerCompletion={0}")
    @CsvSource({"false", "true"})
    void dsyncDirectWritesCompleteAfterTheirFlushWhereTheModeSays(boolean caller) throws Exception {
        Path f = file();
        int fd = Fds.open(f, OpenFlags.WRONLY | OpenFlags.DIRECT | OpenFlags.DSYNC, 0);
        IoUring ring = ring(caller, false);
        int id = ApiAccess.get().contextOf(ring).id();
        try (Arena arena = Arena.ofShared()) {
            assertTrue(DirectFds.file(fd).syncsWrites(), "an O_DSYNC O_DIRECT file gets its companion");
            queueWrites(ring, fd, arena);
            ring.submitAndWait(BLOCKS);
            expectWrites(ring, BLOCKS);
            assertEquals(!caller, poolAlive(id),
                    caller ? "caller completion flushes in the task: no pool" : "the default flushes on the pool");
        } finally {
            ring.close();
            Fds.close(fd);
        }
        assertFalse(poolAlive(id), "close() stops the completion pool");
        expectContent(f);
    }

    @Test
    void plainDirectWritesNeedNoFlushAndStartNoPool() throws Exception {
        Path f = file();
        int fd = Fds.open(f, OpenFlags.WRONLY | OpenFlags.DIRECT, 0);
        IoUring ring = ring(false, false);
        int id = ApiAccess.get().contextOf(ring).id();
        try (Arena arena = Arena.ofShared()) {
            assertFalse(DirectFds.file(fd).syncsWrites());
            queueWrites(ring, fd, arena);
            ring.submitAndWait(BLOCKS);
            expectWrites(ring, BLOCKS);
            assertFalse(poolAlive(id));
        } finally {
            ring.close();
            Fds.close(fd);
        }
        expectContent(f);
    }

    /**
     * Seed 002's deadlock: the issuer leaves its flushes pending in its task work and then
     * waits synchronously for the file's in-flight DIO. It must run them and finish.
     */
    @ParameterizedTest(name = "{0}, defer={1}")
    @CsvSource({"fsync,false", "fsync,true", "truncate,false", "truncate,true", "close,false", "close,true"})
    void issuerWaitingForItsOwnFilesDirectIoRunsItsCallerCompletionsFirst(String wait, boolean defer)
            throws Exception {
        Path f = file();
        int fd = Fds.open(f, OpenFlags.RDWR | OpenFlags.DIRECT | OpenFlags.DSYNC, 0);
        boolean closed = false;
        try (IoUring ring = ring(true, defer); Arena arena = Arena.ofShared()) {
            queueWrites(ring, fd, arena);
            assertEquals(BLOCKS, ring.submit());
            assertTrue(DirectFds.file(fd).inFlight() > 0, "the writes are in flight");
            Thread.sleep(50);   // let the device finish: the flushes then wait in this thread's work
            switch (wait) {
                case "fsync" -> Fds.fsync(fd, true);
                case "truncate" -> Fds.truncate(fd, BLOCKS * 4096L);
                default -> {
                    Fds.close(fd);
                    closed = true;
                }
            }
            if (!closed) {
                assertEquals(0, DirectFds.file(fd).inFlight(), "the wait returned with nothing in flight");
            }
            expectWrites(ring, BLOCKS);
        } finally {
            if (!closed) {
                Fds.close(fd);
            }
        }
        expectContent(f);
    }

    @ParameterizedTest(name = "callerCompletion={0}")
    @CsvSource({"false", "true"})
    void fsyncThroughTheRingWaitsForTheWritesInFlight(boolean caller) throws Exception {
        Path f = file();
        int fd = Fds.open(f, OpenFlags.WRONLY | OpenFlags.DIRECT | OpenFlags.DSYNC, 0);
        try (IoUring ring = ring(caller, true); Arena arena = Arena.ofShared()) {
            queueWrites(ring, fd, arena);
            ring.getSqe().prepFsync(fd, Fsync.DATASYNC).userData(99);
            ring.submitAndWait(BLOCKS + 1);
            int writes = 0;
            for (int i = 0; i <= BLOCKS; i++) {
                Cqe c = ring.waitCqe();
                if (c.userData() == 99) {
                    assertEquals(0, c.res());
                    assertEquals(BLOCKS, writes, "FSYNC completes after the writes in flight");
                } else {
                    assertEquals(4096, c.res());
                    writes++;
                }
                ring.cqeSeen(c);
            }
        } finally {
            Fds.close(fd);
        }
    }

    /**
     * Writes that extend an O_DSYNC file: the kernel's AIO sets the new size before it reports
     * the write, and jring's flush after it makes that size durable too.
     */
    @ParameterizedTest(name = "callerCompletion={0}")
    @CsvSource({"false", "true"})
    void dsyncDirectWritesThatExtendTheFileGrowIt(boolean caller) throws Exception {
        Path f = dir.resolve("grow");
        Files.write(f, new byte[0]);
        int fd = Fds.open(f, OpenFlags.WRONLY | OpenFlags.DIRECT | OpenFlags.DSYNC, 0);
        try (IoUring ring = ring(caller, false); Arena arena = Arena.ofShared()) {
            queueWrites(ring, fd, arena);
            ring.submitAndWait(BLOCKS);
            expectWrites(ring, BLOCKS);
        } finally {
            Fds.close(fd);
        }
        assertEquals(BLOCKS * 4096L, Files.size(f));
        expectContent(f);
    }

    @Test
    void closingTheFileClosesItsCompanion() throws Exception {
        Path f = file();
        long before = openFds();
        int fd = Fds.open(f, OpenFlags.WRONLY | OpenFlags.DIRECT | OpenFlags.DSYNC, 0);
        assertEquals(before + 2, openFds(), "the file and its companion");
        Fds.close(fd);
        assertEquals(before, openFds());
        assertNull(DirectFds.file(fd));
    }

    private static long openFds() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }
}
