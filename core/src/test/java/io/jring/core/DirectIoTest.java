package io.jring.core;

import io.jring.Cancel;
import io.jring.Cqe;
import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.RingTestSupport.Completion;
import io.jring.Setup;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Mirrors {@link DirectIo}: O_DIRECT reads and writes through native AIO (sizes and
 * alignments, misalignment errors), many in flight, mixed with buffered I/O on one ring,
 * cancel and close with device I/O in flight, reaper and AIO context shutdown.
 */
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
        IoUring ring = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).waitSpin(Duration.ZERO).build();
        io.jring.tw.TaskContext tc = io.jring.tw.TaskContext.current();
        try (Arena arena = Arena.ofShared()) {
            // Until the waiter had to sleep at least once (a read that completed before the
            // wait looked for it needs no sleep): a handful of rounds, at most 400.
            MemorySegment buf = arena.allocate(4096, 4096);
            for (int round = 0; round < 400 && (round < 20 || io.jring.poll.PollerRef.ifOpen(tc) == null); round++) {
                ring.getSqe().prepRead(fd, buf, (round % 8) * 4096L).userData(round);
                ring.submitAndWait(1);
                Cqe c = ring.waitCqe();
                assertEquals(4096, c.res());
                ring.cqeSeen(c);
            }
            assertNotNull(io.jring.poll.PollerRef.ifOpen(tc), "the waiter should have used its poller for the device's eventfd");
        } finally {
            ring.close();
            Fds.close(fd);
        }
        assertNull(io.jring.poll.PollerRef.ifOpen(tc), "closing the last ring that used the poller closes it");
    }

    /**
     * With a spin limit far above the device's time (1 s), a waiter takes each read's
     * completion from the AIO ring while spinning: it never sleeps, so it never needs a
     * poller for the device's eventfd (run on a fresh thread, which has none).
     */
    @Test
    void aWaiterSpinsForDeviceCompletionsDueWithinItsLimitInsteadOfSleeping() throws Exception {
        Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "a single CPU never spins");
        Path f = dir.resolve("spin");
        Files.write(f, pattern(8 * 4096, 3));
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<Object> pollerAfter = new AtomicReference<>("not run");
        Thread t = new Thread(() -> {
            try (IoUring ring = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER)
                    .waitSpin(Duration.ofSeconds(1)).build();
                 Arena arena = Arena.ofConfined()) {
                MemorySegment buf = arena.allocate(4096, 4096);
                byte[] want = pattern(8 * 4096, 3);
                for (int i = 0; i < 8; i++) {
                    ring.getSqe().prepRead(fd, buf, i * 4096L).userData(i);
                    assertEquals(1, ring.submitAndWait(1));
                    Cqe c = ring.waitCqe();
                    assertEquals(4096, c.res());
                    assertEquals(want[i * 4096 + 17], buf.get(ValueLayout.JAVA_BYTE, 17));
                    ring.cqeSeen(c);
                }
                pollerAfter.set(io.jring.poll.PollerRef.ifOpen(io.jring.tw.TaskContext.current()));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        t.join();
        Fds.close(fd);
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertNull(pollerAfter.get(), "the waiter slept in a poller although every completion was due within its spin");
    }

    // ---------------------------------------------------------------- sizes and alignments

    /** A block of {@code size} bytes whose content depends on {@code seed} at every position. */
    private static byte[] pattern(int size, int seed) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + seed * 7 + (i >>> 9));
        }
        return b;
    }

    /** A native buffer of {@code size} bytes at an address aligned to {@code align} but not to 2 * align. */
    private static MemorySegment bufferAlignedTo(Arena arena, int size, int align) {
        MemorySegment raw = arena.allocate(size + 2L * align, 2L * align);
        return raw.asSlice(align == 4096 ? 0 : align, size);
    }

    /** The file system of the temp dir takes O_DIRECT with this alignment (tmpfs takes none). */
    private static void assumeDirectIo(Path f, int align) throws IOException {
        int fd;
        try {
            fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        } catch (io.jring.IoUringException e) {
            Assumptions.abort("O_DIRECT not supported on " + f.getParent() + ": " + e.getMessage());
            return;
        }
        try (IoUring ring = IoUring.open(4); Arena arena = Arena.ofConfined()) {
            ring.getSqe().prepRead(fd, bufferAlignedTo(arena, align, align), align).userData(1);
            ring.submit();
            Cqe c = RingTestSupport.waitCqe(ring);
            int res = c.res();
            ring.cqeSeen(c);
            Assumptions.assumeTrue(res == align, "O_DIRECT with " + align + "-byte alignment not supported here: " + res);
        } finally {
            Fds.close(fd);
        }
    }

    /** Writes then reads back through O_DIRECT; the data also matches through the page cache. */
    @ParameterizedTest(name = "size {0}, aligned to {1}")
    @CsvSource({"512, 512", "4096, 512", "4096, 4096", "65536, 512", "65536, 4096", "1048576, 4096"})
    void directWritesAndReadsOfEachSizeAndAlignmentMoveTheirData(int size, int align) throws Exception {
        Path f = dir.resolve("s");
        Files.write(f, new byte[4 << 20]);
        assumeDirectIo(f, align);
        int fd = Fds.open(f, OpenFlags.RDWR | OpenFlags.DIRECT, 0);
        // Offsets aligned to the size and, if the alignment is 512, an odd multiple of it.
        long[] offsets = align == 512 ? new long[] {align, 3L * align + size, 1L << 20 | align}
                : new long[] {0, size, 2L << 20};
        try (IoUring ring = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build();
             Arena arena = Arena.ofConfined()) {
            MemorySegment[] out = new MemorySegment[offsets.length];
            for (int i = 0; i < offsets.length; i++) {
                out[i] = bufferAlignedTo(arena, size, align);
                out[i].copyFrom(MemorySegment.ofArray(pattern(size, i + 1)));
                ring.getSqe().prepWrite(fd, out[i], offsets[i]).userData(i);
            }
            for (Completion c : submitAndReap(ring, offsets.length)) {
                assertEquals(size, c.res(), "write " + c.userData());
            }
            MemorySegment[] in = new MemorySegment[offsets.length];
            for (int i = 0; i < offsets.length; i++) {
                in[i] = bufferAlignedTo(arena, size, align);
                ring.getSqe().prepRead(fd, in[i], offsets[i]).userData(10 + i);
            }
            for (Completion c : submitAndReap(ring, offsets.length)) {
                assertEquals(size, c.res(), "read " + c.userData());
            }
            for (int i = 0; i < offsets.length; i++) {
                assertArrayEquals(pattern(size, i + 1), in[i].toArray(ValueLayout.JAVA_BYTE), "read at " + offsets[i]);
            }
        } finally {
            Fds.close(fd);
        }
        byte[] file = Files.readAllBytes(f);
        for (int i = 0; i < offsets.length; i++) {
            int at = (int) offsets[i];
            assertArrayEquals(pattern(size, i + 1), Arrays.copyOfRange(file, at, at + size), "page cache at " + at);
        }
    }

    private static List<Completion> submitAndReap(IoUring ring, int n) {
        assertEquals(n, ring.submit());
        return RingTestSupport.reap(ring, n);
    }

    /** O_DIRECT's rules, as the kernel applies them: buffer, offset and length aligned to the block size. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"buffer, 1, 0, 4096", "buffer-by-256, 256, 0, 4096", "offset, 0, 100, 4096",
            "length, 0, 0, 100", "write-buffer, 1, 0, 4096", "write-offset, 0, 4097, 4096"})
    void misalignedBufferOffsetOrLengthFailsWithEinval(String what, int bufShift, long offset, int length)
            throws Exception {
        Path f = dir.resolve("e");
        Files.write(f, new byte[4 * 4096]);
        assumeDirectIo(f, 512);
        boolean write = what.startsWith("write");
        int fd = Fds.open(f, OpenFlags.RDWR | OpenFlags.DIRECT, 0);
        try (IoUring ring = IoUring.builder().entries(4).flags(Setup.SINGLE_ISSUER).build();
             Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(8192 + 4096, 4096).asSlice(bufShift, length);
            if (write) {
                ring.getSqe().prepWrite(fd, buf, offset).userData(5);
            } else {
                ring.getSqe().prepRead(fd, buf, offset).userData(5);
            }
            Completion c = submitAndReap(ring, 1).get(0);
            assertEquals(5, c.userData());
            assertEquals(-Errno.EINVAL, c.res(), what);
        } finally {
            Fds.close(fd);
        }
        assertArrayEquals(new byte[4 * 4096], Files.readAllBytes(f), "a refused write changes nothing");
    }

    // ---------------------------------------------------------------- mixed with buffered I/O

    /**
     * One ring, two descriptors of one file, one O_DIRECT: a buffered write is seen by a
     * direct read (the kernel writes the dirty range back first) and a direct write by a
     * buffered read (it invalidates the cached pages), in both orders, batch after batch.
     */
    @Test
    void directAndBufferedIoOnOneRingSeeEachOthersData() throws Exception {
        Path f = dir.resolve("mix");
        Files.write(f, new byte[64 * 4096]);
        assumeDirectIo(f, 4096);
        int direct = Fds.open(f, OpenFlags.RDWR | OpenFlags.DIRECT, 0);
        int buffered = Fds.open(f, OpenFlags.RDWR, 0);
        try (IoUring ring = IoUring.builder().entries(32).flags(Setup.SINGLE_ISSUER).build();
             Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 4; round++) {
                // Even blocks written buffered, odd blocks direct, all in one submit.
                MemorySegment[] out = new MemorySegment[16];
                for (int b = 0; b < 16; b++) {
                    out[b] = arena.allocate(4096, 4096);
                    out[b].copyFrom(MemorySegment.ofArray(pattern(4096, round * 100 + b)));
                    ring.getSqe().prepWrite(b % 2 == 0 ? buffered : direct, out[b], (round * 16L + b) * 4096)
                            .userData(b);
                }
                for (Completion c : submitAndReap(ring, 16)) {
                    assertEquals(4096, c.res(), "write " + c.userData());
                }
                // Read each block back through the other descriptor.
                MemorySegment[] in = new MemorySegment[16];
                for (int b = 0; b < 16; b++) {
                    in[b] = arena.allocate(4096, 4096);
                    ring.getSqe().prepRead(b % 2 == 0 ? direct : buffered, in[b], (round * 16L + b) * 4096)
                            .userData(100 + b);
                }
                for (Completion c : submitAndReap(ring, 16)) {
                    assertEquals(4096, c.res(), "read " + c.userData());
                }
                for (int b = 0; b < 16; b++) {
                    assertArrayEquals(pattern(4096, round * 100 + b), in[b].toArray(ValueLayout.JAVA_BYTE),
                            "round " + round + " block " + b + (b % 2 == 0 ? " (buffered write, direct read)"
                                    : " (direct write, buffered read)"));
                }
            }
        } finally {
            Fds.close(direct);
            Fds.close(buffered);
        }
    }

    // ---------------------------------------------------------------- cancel and close

    /**
     * ASYNC_CANCEL of reads that are at the device: as in Linux, a request the device has is
     * not found among io-wq work, armed polls or timeouts, so the answer is -ENOENT (or
     * -EALREADY if one fell back to io-wq and runs there). Either way the answer is definite
     * and each read's CQE arrives exactly once, with its data unless the cancel said 0.
     */
    @Test
    void cancelOfDirectReadsInFlightAnswersDefinitelyAndEachReadCompletesOnce() throws Exception {
        int n = 32;
        Path f = dir.resolve("cancel");
        byte[] data = new byte[n * 4096];
        for (int b = 0; b < n; b++) {
            Arrays.fill(data, b * 4096, (b + 1) * 4096, (byte) (b + 1));
        }
        Files.write(f, data);
        assumeDirectIo(f, 4096);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try (IoUring ring = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER).build();
             Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 20; trial++) {
                MemorySegment[] bufs = new MemorySegment[n];
                for (int b = 0; b < n; b++) {
                    bufs[b] = arena.allocate(4096, 4096);
                    ring.getSqe().prepRead(fd, bufs[b], b * 4096L).userData(b);
                }
                assertEquals(n, ring.submit());
                // One by user data, one for everything on the file.
                ring.getSqe().prepCancel(trial % n, 0).userData(1000);
                ring.getSqe().prepCancelFd(fd, Cancel.ALL).userData(1001);
                assertEquals(2, ring.submit());
                Map<Long, Integer> res = new HashMap<>();
                for (Completion c : RingTestSupport.reap(ring, n + 2)) {
                    assertNull(res.put(c.userData(), c.res()), "second CQE for " + c.userData());
                }
                assertTrue(RingTestSupport.drain(ring).isEmpty(), "no CQE after the n + 2");
                int one = res.get(1000L);
                assertTrue(one == -Errno.ENOENT || one == -Errno.EALREADY || one == 0, "cancel by user data: " + one);
                int all = res.get(1001L);
                assertTrue(all >= 0, "cancel ALL answers with a count: " + all);
                int cancelled = 0;
                for (int b = 0; b < n; b++) {
                    int r = res.get((long) b);
                    if (r == -Errno.ECANCELED) {
                        cancelled++;
                    } else {
                        assertEquals(4096, r, "read " + b);
                        assertEquals((byte) (b + 1), bufs[b].get(ValueLayout.JAVA_BYTE, 0));
                        assertEquals((byte) (b + 1), bufs[b].get(ValueLayout.JAVA_BYTE, 4095));
                    }
                }
                int claimed = (one == 0 ? 1 : 0) + all;
                assertTrue(cancelled <= claimed, cancelled + " reads ended -ECANCELED but the cancels claimed "
                        + claimed + " (by user data " + one + ", ALL " + all + ")");
            }
        } finally {
            Fds.close(fd);
        }
    }

    /** AIO contexts of this process: each maps its ring as "/[aio] (deleted)". */
    private static long aioContexts() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains("[aio]")).count();
    }

    /**
     * close() with direct writes in flight, from a thread other than the owner while the
     * owner is away: it returns (no hang), every write is on the file when it does (close
     * waits until every request has finished), and the reaper thread and the AIO context
     * are gone.
     */
    @Test
    void closeFromAnotherThreadWithDirectWritesInFlightFinishesThemAndLeavesNoAioContext() throws Exception {
        int n = 48;
        Path f = dir.resolve("w");
        Files.write(f, new byte[n * 65536]);
        assumeDirectIo(f, 4096);
        long contextsBefore = aioContexts();
        int fd = Fds.open(f, OpenFlags.RDWR | OpenFlags.DIRECT, 0);
        IoUring ring = IoUring.builder().entries(64).flags(Setup.SINGLE_ISSUER).build();
        int id = ApiAccess.get().contextOf(ring).id();
        Arena arena = Arena.ofShared();
        try {
            for (int b = 0; b < n; b++) {
                MemorySegment buf = arena.allocate(65536, 4096);
                buf.fill((byte) (b + 1));
                ring.getSqe().prepWrite(fd, buf, b * 65536L).userData(b);
            }
            assertEquals(n, ring.submit());
            assertTrue(reaperAlive(id));
            assertEquals(contextsBefore + 1, aioContexts(), "the ring's AIO context");
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CountDownLatch closed = new CountDownLatch(1);
            Thread closer = Thread.ofPlatform().name("closer").start(() -> {
                try {
                    ring.close();
                } catch (Throwable e) {
                    thrown.set(e);
                } finally {
                    closed.countDown();
                }
            });
            RingTestSupport.await(closed);
            closer.join();
            assertNull(thrown.get());
        } finally {
            ring.close();
            arena.close();
            Fds.close(fd);
        }
        assertFalse(reaperAlive(id), "close() stops the reaper");
        assertEquals(contextsBefore, aioContexts(), "close() destroys the AIO context");
        byte[] file = Files.readAllBytes(f);
        for (int b = 0; b < n; b++) {
            assertEquals((byte) (b + 1), file[b * 65536], "block " + b);
            assertEquals((byte) (b + 1), file[b * 65536 + 65535], "block " + b);
        }
    }

    /** Rings that did direct I/O and were closed leave no AIO context and no reaper behind. */
    @Test
    void closedRingsLeaveNoAioContextOrReaperBehind() throws Exception {
        Path f = dir.resolve("r");
        Files.write(f, new byte[16 * 4096]);
        assumeDirectIo(f, 4096);
        long contextsBefore = aioContexts();
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buf = arena.allocate(4096, 4096);
            for (int i = 0; i < 10; i++) {
                IoUring ring = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build();
                int id = ApiAccess.get().contextOf(ring).id();
                ring.getSqe().prepRead(fd, buf, (i % 16) * 4096L).userData(i);
                if (i % 2 == 0) {
                    // Half of them close with the read still in flight.
                    ring.submit();
                } else {
                    assertEquals(4096, submitAndReap(ring, 1).get(0).res());
                }
                ring.close();
                assertFalse(reaperAlive(id), "reaper of ring " + id);
                assertEquals(contextsBefore, aioContexts(), "AIO context of ring " + id);
            }
        } finally {
            Fds.close(fd);
        }
    }

    @Test
    void theReaperMovesCompletionsToAnOwnerThatStaysOutOfTheRing() throws Exception {
        Path f = dir.resolve("r");
        Files.write(f, new byte[8 * 4096]);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        io.jring.tw.TaskContext tc = io.jring.tw.TaskContext.current();
        try (IoUring ring = IoUring.builder().entries(8).flags(Setup.SINGLE_ISSUER).build();
             Arena arena = Arena.ofShared()) {
            for (int i = 0; i < 4; i++) {
                ring.getSqe().prepRead(fd, arena.allocate(4096, 4096), i * 4096L).userData(i);
            }
            ring.submit();
            // Without entering the ring (which would reap from the AIO ring itself), the
            // owner sees its completion work arrive: only the reaper can have queued it.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!tc.hasPendingWork() && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000L);
            }
            assertTrue(tc.hasPendingWork(), "the reaper should have queued the completions as task work");
            int seen = 0;
            while (seen < 4 && System.nanoTime() < deadline) {
                Cqe c = ring.waitCqe(java.time.Duration.ofSeconds(1));
                if (c != null) {
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
    void directReadsCompleteExactlyOnceWhileTheReaperAndTheWaiterBothReap() throws Exception {
        int blocks = 64;
        byte[] data = new byte[blocks * 4096];
        for (int b = 0; b < blocks; b++) {
            java.util.Arrays.fill(data, b * 4096, (b + 1) * 4096, (byte) b);
        }
        Path f = dir.resolve("x");
        Files.write(f, data);
        int fd = Fds.open(f, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
        int depth = 16;
        int total = 4000;
        try (IoUring ring = IoUring.builder().entries(32).flags(Setup.SINGLE_ISSUER).build();
             Arena arena = Arena.ofShared()) {
            MemorySegment[] bufs = new MemorySegment[depth];
            int[] freeBufs = new int[depth];
            for (int i = 0; i < depth; i++) {
                bufs[i] = arena.allocate(4096, 4096);
                freeBufs[i] = i;
            }
            int nFree = depth;
            boolean[] done = new boolean[total];
            int submitted = 0;
            int completed = 0;
            long deadline = System.nanoTime() + 25_000_000_000L;
            while (completed < total) {
                assertTrue(System.nanoTime() < deadline, "only " + completed + " of " + total + " completed");
                while (nFree > 0 && submitted < total) {
                    int b = freeBufs[--nFree];
                    long block = (submitted * 7L) % blocks;
                    ring.getSqe().prepRead(fd, bufs[b], block * 4096L).userData((long) submitted << 8 | b);
                    submitted++;
                }
                ring.submit();
                // Every other batch the owner goes away for longer than the reaper's grace
                // period (the reaper reaps), else it waits (it reaps itself); the two overlap.
                if ((submitted / depth) % 2 == 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(3_000_000L);
                } else {
                    Cqe c = ring.waitCqe(java.time.Duration.ofSeconds(1));
                    if (c == null) {
                        continue;
                    }
                }
                Cqe c;
                while ((c = ring.peekCqe()) != null) {
                    long ud = c.userData();
                    int n = (int) (ud >>> 8);
                    int b = (int) (ud & 0xff);
                    assertEquals(4096, c.res(), "read " + n);
                    assertFalse(done[n], "read " + n + " completed twice");
                    done[n] = true;
                    assertEquals((byte) ((n * 7L) % blocks), bufs[b].get(ValueLayout.JAVA_BYTE, 0), "read " + n);
                    ring.cqeSeen(c);
                    freeBufs[nFree++] = b;
                    completed++;
                }
            }
            assertNull(ring.waitCqe(java.time.Duration.ofMillis(20)), "no CQE beyond the " + total + " reads");
        } finally {
            Fds.close(fd);
        }
    }
}
