package io.jring.vt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jring.Cqe;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.Sqe;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ring waits on virtual threads park the virtual thread (issue 22): more waiters than
 * carriers all reach their wait at once, and JFR records no pinning, whatever the wait is for
 * (armed polls, timers, task work from io-wq, direct I/O).
 */
class VirtualThreadWaitTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    /** Each virtual thread: its own ring and socket pair, a RECV, then waitCqe. */
    private static final class RecvWaiter {
        final int[] pair = Fds.socketPair();
        final AtomicReference<Object> result = new AtomicReference<>();
        Thread thread;

        void start() {
            thread = Thread.ofVirtual().start(() -> {
                try (IoUring ring = IoUring.open(4); Arena a = Arena.ofConfined()) {
                    MemorySegment buf = a.allocate(16);
                    ring.getSqe().prepRecv(pair[0], buf, 0).userData(7);
                    ring.submit();
                    Cqe c = ring.waitCqe(WAIT);
                    result.set(c == null ? "timeout" : (Object) c.res());
                } catch (Throwable t) {
                    result.set(t);
                }
            });
        }

        void close() {
            Fds.close(pair[0]);
            Fds.close(pair[1]);
        }
    }

    /** All waiting (parked) at once: with waits blocking carriers, those beyond the carriers would never start. */
    @Test
    void moreRecvWaitersThanCarriersAllPark() throws Exception {
        int n = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
        List<RecvWaiter> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RecvWaiter w = new RecvWaiter();
            ws.add(w);
            w.start();
        }
        try {
            long end = System.nanoTime() + WAIT.toNanos();
            for (RecvWaiter w : ws) {
                while (w.thread.getState() != Thread.State.WAITING && w.thread.getState() != Thread.State.TIMED_WAITING) {
                    assertTrue(System.nanoTime() < end, "a virtual thread never parked: " + w.thread.getState());
                    Thread.sleep(5);
                }
            }
            for (RecvWaiter w : ws) {
                assertEquals(1, Fds.write(w.pair[1], new byte[] {42}));
            }
            for (RecvWaiter w : ws) {
                w.thread.join(WAIT);
                assertEquals(1, w.result.get(), "waiter result");
            }
        } finally {
            ws.forEach(RecvWaiter::close);
        }
    }

    @Test
    void interruptEndsAVirtualThreadPollWait() throws Exception {
        RecvWaiter w = new RecvWaiter();
        w.start();
        try {
            long end = System.nanoTime() + WAIT.toNanos();
            while (w.thread.getState() != Thread.State.TIMED_WAITING) {
                assertTrue(System.nanoTime() < end, "never parked");
                Thread.sleep(5);
            }
            w.thread.interrupt();
            w.thread.join(WAIT);
            Object r = w.result.get();
            assertTrue(r instanceof io.jring.IoUringException, "interrupt reported: " + r);
        } finally {
            w.close();
        }
    }

    /** Poll, timer, io-wq and direct-I/O waits on virtual threads under a JFR recording: no pinned event. */
    @Test
    void noPinningForAnyKindOfWait() throws Exception {
        Path file = dir.resolve("data");
        Files.write(file, new byte[1 << 20]);
        Path jfr = dir.resolve("vt.jfr");
        // Class initialisation waited for by a second thread pins (a JVM limit, once per class): warm up first.
        AtomicReference<Throwable> warm = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            try {
                waitsOfEveryKind(file);
            } catch (Throwable t) {
                warm.set(t);
            }
        }).join(WAIT);
        if (warm.get() != null) {
            throw new AssertionError(warm.get());
        }
        try (Recording rec = new Recording()) {
            rec.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            rec.start();
            List<Thread> ts = new ArrayList<>();
            List<AtomicReference<Throwable>> errors = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                AtomicReference<Throwable> err = new AtomicReference<>();
                errors.add(err);
                ts.add(Thread.ofVirtual().start(() -> {
                    try {
                        waitsOfEveryKind(file);
                    } catch (Throwable t) {
                        err.set(t);
                    }
                }));
            }
            RecvWaiter w = new RecvWaiter();
            w.start();
            while (w.thread.getState() != Thread.State.TIMED_WAITING && w.thread.isAlive()) {
                Thread.sleep(5);
            }
            Fds.write(w.pair[1], new byte[] {1});
            w.thread.join(WAIT);
            w.close();
            assertEquals(1, w.result.get());
            for (Thread t : ts) {
                t.join(WAIT);
                assertTrue(!t.isAlive(), "virtual thread still running");
            }
            for (AtomicReference<Throwable> e : errors) {
                if (e.get() != null) {
                    throw new AssertionError(e.get());
                }
            }
            rec.stop();
            rec.dump(jfr);
        }
        List<RecordedEvent> pinned = RecordingFile.readAllEvents(jfr);
        if (!pinned.isEmpty()) {
            fail(pinned.size() + " pinned events, first: " + pinned.get(0));
        }
    }

    private static void waitsOfEveryKind(Path file) throws Exception {
        try (IoUring ring = IoUring.open(8); Arena a = Arena.ofShared()) {
            // timer
            ring.getSqe().prepTimeout(5_000_000L, 0, 0).userData(1);
            ring.submitAndWait(1);
            Cqe t = ring.waitCqe(WAIT);
            assertEquals(-62, t.res(), "TIMEOUT expires with -ETIME");
            ring.cqeSeen(t);
            // io-wq punt (fsync) whose completion comes back as task work
            int fd = Fds.open(file, OpenFlags.RDWR, 0);
            try {
                ring.getSqe().prepFsync(fd, 0).userData(2);
                ring.submit();
                expect(ring, 2);
            } finally {
                Fds.close(fd);
            }
            // direct I/O through the device path
            int dfd = Fds.open(file, OpenFlags.RDONLY | OpenFlags.DIRECT, 0);
            try {
                MemorySegment buf = a.allocate(4096, 4096);
                for (int i = 0; i < 4; i++) {
                    Sqe s = ring.getSqe().prepRead(dfd, buf, 4096L * i);
                    s.userData(3);
                    ring.submit();
                    Cqe c = expect(ring, 3);
                    assertEquals(4096, c.res());
                }
            } finally {
                Fds.close(dfd);
            }
        }
    }

    private static Cqe expect(IoUring ring, long ud) {
        Cqe c = ring.waitCqe(WAIT);
        assertNotNull(c, "no CQE");
        assertEquals(ud, c.userData());
        assertTrue(c.res() >= 0, "res " + c.res());
        ring.cqeSeen(c);
        return c;
    }
}
