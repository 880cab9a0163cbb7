package io.jring.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Setup;
import io.jring.SqeFlags;
import io.jring.sys.NativeMemory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Closing rings with work in flight leaks nothing: after 1,000 rings of one kind (plain,
 * SINGLE_ISSUER, DEFER_TASKRUN, ATTACH_WQ), each closed with a read armed on a pipe, a
 * timeout, an io-wq read and NOPs in flight, the process is back to its baseline in
 * threads ({@code jring-*}), descriptors ({@code /proc/self/fd}) and the engine's native
 * memory ({@link NativeMemory}). A third of the rings are closed by their owner, a third by
 * another thread while the owner lives, a third after their owner thread exited.
 * The figures go to standard output (before, after, peak).
 */
@Timeout(120)
class RingLeakTest extends FaultTestSupport {
    static final int RINGS = 1000;
    /** Rings of each kind run before the baseline is taken: classes loaded, lazy threads started. */
    static final int WARMUP = 30;

    @TempDir
    static Path dir;
    static Arena arena;
    static int file;
    static int[] pipe;
    static MemorySegment pipeBuf;
    static MemorySegment fileBuf;
    static ExecutorService closer;

    static String idleMillis;

    @BeforeAll
    static void open() throws IOException {
        // Idle io-wq workers retire after 100 ms instead of 5 s, so the baseline settles fast.
        idleMillis = System.setProperty("jring.iowq.idleMillis", "100");
        arena = Arena.ofShared();
        Path p = Files.createTempFile(dir, "leak", ".dat");
        Files.write(p, new byte[4096]);
        file = Fds.open(p, OpenFlags.RDONLY, 0);
        pipe = Fds.pipe();
        pipeBuf = arena.allocate(64);
        fileBuf = arena.allocate(4096);
        closer = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-closer"));
    }

    @AfterAll
    static void shut() throws InterruptedException {
        closer.shutdown();
        closer.awaitTermination(10, TimeUnit.SECONDS);
        Fds.close(file);
        Fds.close(pipe[0]);
        Fds.close(pipe[1]);
        arena.close();
        if (idleMillis == null) {
            System.clearProperty("jring.iowq.idleMillis");
        } else {
            System.setProperty("jring.iowq.idleMillis", idleMillis);
        }
    }

    enum Kind {
        PLAIN(0), SINGLE_ISSUER(Setup.SINGLE_ISSUER), DEFER_TASKRUN(Setup.SINGLE_ISSUER | Setup.DEFER_TASKRUN), ATTACH_WQ(Setup.ATTACH_WQ);

        final int setup;

        Kind(int setup) {
            this.setup = setup;
        }
    }

    static Stream<Kind> kinds() {
        return Stream.of(Kind.values());
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void closingRingsWithWorkInFlightLeavesNoThreadDescriptorOrNativeMemory(Kind kind) throws Exception {
        IoUring parent = kind == Kind.ATTACH_WQ ? IoUring.open(8) : null;
        try {
            for (int i = 0; i < WARMUP; i++) {
                cycle(kind, parent, i);
            }
            Figures before = settle(null);
            Figures peak = before;
            long t0 = System.nanoTime();
            for (int i = 0; i < RINGS; i++) {
                cycle(kind, parent, i);
                if (i % 100 == 0) {
                    peak = peak.max(Figures.now());
                }
            }
            long cycleMs = (System.nanoTime() - t0) / 1_000_000;
            Figures after = settle(before);
            System.out.printf(Locale.ROOT, "leak check %s x%d (%d ms): before %s, peak %s, after %s%n",
                    kind, RINGS, cycleMs, before, peak, after);
            assertEquals(before.jringThreads, after.jringThreads, "jring threads, before " + before + " after " + after);
            assertEquals(before.fds, after.fds, "descriptors, before " + before + " after " + after);
            assertEquals(before.nativeBytes, after.nativeBytes, "engine native bytes, before " + before + " after " + after);
        } finally {
            if (parent != null) {
                parent.close();
            }
        }
    }

    /** One ring: opened, given work, closed by its owner, by another thread, or after its owner exited. */
    private static void cycle(Kind kind, IoUring parent, int i) throws Exception {
        switch (i % 3) {
            case 0 -> {
                IoUring ring = open(kind, parent);
                submitWork(ring);
                ring.close();
            }
            case 1 -> {
                IoUring ring = open(kind, parent);
                submitWork(ring);
                closer.submit(ring::close).get(10, TimeUnit.SECONDS);
            }
            default -> {
                IoUring[] ring = new IoUring[1];
                Thread owner = Thread.ofPlatform().name("test-owner").start(() -> {
                    ring[0] = open(kind, parent);
                    submitWork(ring[0]);
                });
                owner.join(10_000);
                assertTrue(!owner.isAlive(), "owner thread did not exit");
                ring[0].close();
            }
        }
    }

    private static IoUring open(Kind kind, IoUring parent) {
        IoUring.Builder b = IoUring.builder().entries(16).flags(kind.setup);
        if (parent != null) {
            b.attachWq(parent);
        }
        return b.build();
    }

    /** A read armed on an empty pipe, a 10 s timeout, an io-wq file read, and NOPs: none reaped. */
    private static void submitWork(IoUring ring) {
        sqe(ring).prepRead(pipe[0], pipeBuf, -1).userData(1);
        sqe(ring).prepTimeout(10_000_000_000L, 0, 0).userData(2);
        sqe(ring).prepRead(file, fileBuf, 0).flags(SqeFlags.ASYNC).userData(3);
        for (int n = 0; n < 4; n++) {
            sqe(ring).prepNop().flags(n % 2 == 0 ? SqeFlags.ASYNC : 0).userData(10 + n);
        }
        assertEquals(7, ring.submit());
    }

    /**
     * The figures once the process is quiet: threads have ended (idle io-wq workers retire,
     * the away watcher's linger of 1 s runs out) and the GC has freed unreachable automatic
     * arenas. With {@code target} null, until no jring thread is left and three rounds in a
     * row agree; else until they match {@code target}. Bounded (10 s): a leak shows as a
     * mismatch, never as a hang.
     */
    private static Figures settle(Figures target) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Figures now = Figures.now();
        int agreeing = 0;
        while (System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);   // asynchronous exits take their time; bounded by the deadline
            Figures next = Figures.now();
            if (target != null ? next.sameAs(target) : next.jringThreads == 0 && next.sameAs(now) && ++agreeing == 3) {
                return next;
            }
            if (target == null && !next.sameAs(now)) {
                agreeing = 0;
            }
            now = next;
        }
        return now;
    }

    /** What a leak would show: jring threads, open descriptors, engine native memory; RssAnon for the record. */
    record Figures(int jringThreads, int allThreads, long fds, long nativeBytes, long nativeArenas, long rssAnonKb) {
        static Figures now() {
            List<Thread> threads = Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).toList();
            int jring = (int) threads.stream().filter(t -> t.getName().startsWith("jring-")).count();
            return new Figures(jring, threads.size(), countOpenFds(), NativeMemory.liveBytes(),
                    NativeMemory.liveArenas(), readRssAnonKb());
        }

        boolean sameAs(Figures o) {
            return jringThreads == o.jringThreads && fds == o.fds && nativeBytes == o.nativeBytes;
        }

        Figures max(Figures o) {
            return new Figures(Math.max(jringThreads, o.jringThreads), Math.max(allThreads, o.allThreads),
                    Math.max(fds, o.fds), Math.max(nativeBytes, o.nativeBytes), Math.max(nativeArenas, o.nativeArenas),
                    Math.max(rssAnonKb, o.rssAnonKb));
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "{jring threads %d (all %d), fds %d, native %d B in %d arenas, RssAnon %d kB}",
                    jringThreads, allThreads, fds, nativeBytes, nativeArenas, rssAnonKb);
        }

        private static long countOpenFds() {
            try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
                return s.count() - 1;   // the directory stream's own descriptor
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        private static long readRssAnonKb() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("RssAnon:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            return -1;
        }
    }
}
