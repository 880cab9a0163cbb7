package io.jring.trace;

import io.jring.Errno;
import io.jring.Fds;
import io.jring.IoUring;
import io.jring.OpenFlags;
import io.jring.RingTestSupport;
import io.jring.SqeFlags;
import io.jring.TaskWorkKind;
import io.jring.fault.FaultKind;
import io.jring.fault.FaultPlan;
import io.jring.fault.Faults;
import io.jring.tw.TaskContext;
import io.jring.tw.TaskWork;
import io.jring.tw.TaskWorkTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.jring.RingTestSupport.await;
import static io.jring.RingTestSupport.reap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RareEvents}: each rare event reaches System.Logger "io.jring" once per episode, not
 * once per request. Captured through java.util.logging, which System.Logger uses by default.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RareEventsTest {
    /** Held strongly: java.util.logging keeps loggers only weakly. */
    private final Logger jul = Logger.getLogger(RareEvents.LOGGER_NAME);
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @TempDir
    Path dir;

    @BeforeEach
    void capture() {
        jul.addHandler(capture);
        jul.setUseParentHandlers(false);
    }

    @AfterEach
    void release() {
        jul.removeHandler(capture);
        jul.setUseParentHandlers(true);
    }

    private List<String> messages(String containing) {
        return records.stream().filter(r -> r.getMessage().contains(containing))
                .peek(r -> assertEquals(Level.WARNING, r.getLevel()))
                .map(LogRecord::getMessage).toList();
    }

    private static String ringId(IoUring ring) {
        String s = ring.toString();   // IoUring[<id> sq=...]
        return s.substring(s.indexOf('[') + 1, s.indexOf(' '));
    }

    @Test
    void aCqOverflowEpisodeIsLoggedOnceNotPerCqe() {
        try (IoUring ring = IoUring.builder().entries(2).cqEntries(2).build()) {
            String tag = "ring " + ringId(ring) + ": CQ overflow";
            for (int i = 0; i < 3; i++) {
                RingTestSupport.prepNops(ring, 10 * i, 2, 0);
                ring.submit();
            }
            assertEquals(1, messages(tag).size(), "4 CQEs overflowed in one episode");
            reap(ring, 6);
            RingTestSupport.prepNops(ring, 100, 2, 0);
            ring.submit();
            RingTestSupport.prepNops(ring, 200, 2, 0);
            ring.submit();
            assertEquals(2, messages(tag).size(), "the CQ drained, then a new episode began");
            reap(ring, 4);
        }
    }

    @Test
    void aWorkerThatCannotStartIsLoggedOncePerEpisode() throws Exception {
        Path f = dir.resolve("f");
        Files.write(f, new byte[512]);
        int fd = Fds.open(f, OpenFlags.RDONLY, 0);
        try (IoUring ring = IoUring.open(8); Arena arena = Arena.ofConfined()) {
            String tag = "io-wq worker jring-iowq-r" + ringId(ring) + "-";
            try (Faults.Session s = Faults.install(FaultPlan.seeded(1).next(FaultKind.WORKER_START, 2).build())) {
                for (int i = 0; i < 2; i++) {
                    ring.getSqe().prepRead(fd, arena.allocate(512), 0).flags(SqeFlags.ASYNC).userData(i);
                    ring.submit();
                    assertEquals(-Errno.ECANCELED, reap(ring, 1).get(0).res(), "no worker: the work is cancelled");
                }
                assertEquals(2, s.injected(FaultKind.WORKER_START));
            }
            assertEquals(1, messages(tag).size(), "two failed starts, one episode");
            assertTrue(records.get(0).getThrown() instanceof OutOfMemoryError, String.valueOf(records.get(0).getThrown()));
            ring.getSqe().prepRead(fd, arena.allocate(512), 0).flags(SqeFlags.ASYNC).userData(3);
            ring.submit();
            assertEquals(512, reap(ring, 1).get(0).res(), "a worker started: the episode is over");
        } finally {
            Fds.close(fd);
        }
    }

    private static final TaskWorkTarget NO_RING = new TaskWorkTarget() {
        @Override
        public void beginTaskRun() {
        }

        @Override
        public void endTaskRun(int items) {
        }
    };

    private static final class Probe extends TaskWork {
        final CountDownLatch ran = new CountDownLatch(1);

        @Override
        public TaskWorkTarget target() {
            return NO_RING;
        }

        @Override
        public void runTaskWork(boolean cancel) {
            ran.countDown();
        }
    }

    @Test
    void aDeadOwnersFallbackIsLoggedOnceForItsThread() throws Exception {
        AtomicReference<TaskContext> ctx = new AtomicReference<>();
        Thread owner = new Thread(() -> ctx.set(TaskContext.current()), "owner-gone-for-log-test");
        owner.start();
        owner.join();
        for (int i = 0; i < 3; i++) {
            Probe p = new Probe();
            ctx.get().addTaskWork(p, TaskWorkKind.MPSC);
            await(p.ran);
        }
        assertEquals(1, messages("thread 'owner-gone-for-log-test' ended").size(), String.valueOf(records));
    }
}
